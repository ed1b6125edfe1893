import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Libsql from 'libsql';
import { EmbeddedClient } from '../db/embedded.ts';
import { embeddedPath } from '../db/libsql.ts';
import { libsqlConnection } from '../db/libsql-engine.ts';
import { type CommandInput, OperatorRefusal, type OptionSpec } from '../operator/commands.ts';

/**
 * A command that runs only where the database file is, never through the operator API: a copy made there would
 * be written on the server's disk, out of the operator's reach, and D1 (the Workers deployment) keeps its own
 * backups (Time Travel, `wrangler d1 export`).
 */
export interface LocalCommand {
  readonly usage: string;
  readonly help: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  run(input: CommandInput, env: { databaseUrl: string; busyWaitMs: number }): Promise<unknown>;
}

const BACKUP: LocalCommand = {
  usage: 'backup --to FILE',
  help: [
    "Copies DATABASE_URL's database file to FILE while the service runs and writes: SQLite's VACUUM INTO reads one",
    'consistent snapshot (every commit before it, none after) without stopping writers, then the copy is checked',
    '(PRAGMA quick_check) and only then appears under its name. FILE must not exist; the copy is one',
    'self-contained file (no -wal or -shm). To restore: stop the service, replace the database file with the copy,',
    'delete the old file’s -wal and -shm files, start. Local only: never with --url.',
  ].join('\n'),
  options: { to: { type: 'string' } },
  async run(input, { databaseUrl, busyWaitMs }) {
    if (input.positionals.length > 0)
      throw new OperatorRefusal(`backup takes no argument but --to FILE, got "${input.positionals.join(' ')}".`);
    const target = input.options.to;
    if (typeof target !== 'string' || target === '') throw new OperatorRefusal('--to FILE is required: the file to write the copy to.');
    const source = embeddedPath(databaseUrl);
    if (source === undefined || source === ':memory:') {
      throw new OperatorRefusal(
        'backup copies a database file (DATABASE_URL=file:…); a libSQL server (libsql://…) is backed up with its own tools.',
      );
    }
    if (!existsSync(source)) throw new OperatorRefusal(`no database file at ${resolve(source)}.`);
    const file = resolve(target);
    if (existsSync(file)) throw new OperatorRefusal(`${file} exists; backup never overwrites a file: name a new one.`);
    if (!existsSync(dirname(file))) throw new OperatorRefusal(`the folder ${dirname(file)} does not exist.`);
    // Written under a name of its own first: a copy cut short (a full disk, a kill) never takes FILE's name.
    const partial = `${file}.partial-${process.pid}`;
    const client = new EmbeddedClient(source, { engine: libsqlConnection, busyWaitMs });
    try {
      await client.execute({ sql: 'VACUUM INTO ?', args: [partial] });
      const check = quickCheck(partial);
      if (check !== 'ok') throw new Error(`the copy failed its check (PRAGMA quick_check: ${check})`);
      renameSync(partial, file);
    } finally {
      client.close();
      rmSync(partial, { force: true });
    }
    return { object: 'backup', file, bytes: statSync(file).size, quick_check: 'ok' };
  },
};

/** SQLite's quick_check of a file: `ok`, or the first problem it names. */
function quickCheck(path: string): string {
  const copy = new Libsql(path);
  try {
    const [row] = copy.prepare('PRAGMA quick_check').raw(true).all() as unknown[][];
    return String(row?.[0]);
  } finally {
    copy.close();
  }
}

export const LOCAL_COMMANDS: Readonly<Record<string, LocalCommand>> = { backup: BACKUP };

export function findLocalCommand(name: string): LocalCommand | undefined {
  return Object.hasOwn(LOCAL_COMMANDS, name) ? LOCAL_COMMANDS[name] : undefined;
}
