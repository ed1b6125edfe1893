import { parseArgs } from 'node:util';
import { databaseUnavailable, describeError, stackFrames } from '../db/failures.ts';
import { DEFAULT_DATABASE_URL, openDatabase } from '../db/libsql.ts';
import { CliError, COMMANDS, type Command } from './commands.ts';

/** An operator command is in no hurry: it waits for a server's write lock longer than a request does. */
const CLI_BUSY_WAIT_MS = 10_000;

/**
 * Operator CLI: `npm run --silent svc -- <command>`. Prints exactly one JSON object on stdout on success;
 * on failure a message on stderr and exit code 1. Uses DATABASE_URL like the server, migrating it if needed.
 */
function overview(): string {
  return [
    'Usage: npm run --silent svc -- <command> [options]',
    '',
    'Commands:',
    ...Object.values(COMMANDS).map((c) => `  ${c.usage}`),
    '',
    'Add --help to a command for more.',
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const name = COMMANDS[argv[0] ?? ''] ? argv[0]! : argv.slice(0, 2).join(' ');
  const command = COMMANDS[name];
  if (!command) {
    if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
      console.log(overview());
      return 0;
    }
    console.error(`svc: unknown command "${argv.join(' ')}".\n\n${overview()}`);
    return 1;
  }
  const rest = argv.slice(name.split(' ').length);
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(`Usage: npm run --silent svc -- ${command.usage}\n\n${command.help}`);
    return 0;
  }
  const parsed = readArguments(command, rest);
  if (!parsed) return 1;
  let opened: Awaited<ReturnType<typeof openDatabase>> | undefined;
  try {
    opened = await openDatabase(process.env.DATABASE_URL || DEFAULT_DATABASE_URL, process.env.DATABASE_AUTH_TOKEN, {
      busyWaitMs: CLI_BUSY_WAIT_MS,
    });
    const result = await command.run({ positionals: parsed.positionals, options: parsed.values }, { db: opened.db, now: Date.now() });
    console.log(JSON.stringify(result));
    return 0;
  } catch (error) {
    console.error(`svc: ${failureMessage(error)}`);
    return 1;
  } finally {
    opened?.client.close();
  }
}

function readArguments(command: Command, args: string[]) {
  try {
    return parseArgs({ args, options: command.options, allowPositionals: true, strict: true });
  } catch (error) {
    console.error(`svc: ${(error as Error).message}\nUsage: npm run --silent svc -- ${command.usage}`);
    return undefined;
  }
}

/** What the operator is told: a refusal as it is, the database's state with what to do, never a query's values. */
function failureMessage(error: unknown): string {
  if (error instanceof CliError) return error.message;
  const unavailable = databaseUnavailable(error);
  if (unavailable?.nothingWritten)
    return `the database is busy or cannot be reached; nothing was changed. Try again. (${describeError(error)})`;
  if (unavailable)
    return `the database connection failed; the change may or may not have been made. Check before trying again. (${describeError(error)})`;
  return [describeError(error), ...stackFrames(error)].join('\n    ');
}

process.exitCode = await main(process.argv.slice(2));
