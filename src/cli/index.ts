import { parseArgs } from 'node:util';
import { describeError, stackFrames } from '../db/failures.ts';
import { DEFAULT_DATABASE_URL, openDatabase } from '../db/libsql.ts';
import { COMMANDS, type Command, type CommandInput, findCommand, OperatorRefusal } from '../operator/commands.ts';
import { databaseFailureMessage } from '../operator/failure.ts';
import { findLocalCommand, LOCAL_COMMANDS, type LocalCommand } from './local-commands.ts';
import { commandsUrl, type Outcome, runRemote } from './remote.ts';

/** An operator command is in no hurry: it waits for a server's write lock longer than a request does. */
const CLI_BUSY_WAIT_MS = 10_000;

/** The option that sends a command to a deployment instead of a database file; also read from SVC_OPERATOR_URL. */
const URL_OPTION = { url: { type: 'string' } } as const;

/**
 * Operator CLI: `npm run --silent svc -- [--url BASE_URL] <command>`. Prints exactly one JSON object on stdout
 * on success; on failure a message on stderr and exit code 1. Without a URL it uses DATABASE_URL like the
 * server, migrating it if needed; with one it sends the command to that deployment's operator API.
 */
function overview(): string {
  return [
    'Usage: npm run --silent svc -- [--url BASE_URL] <command> [options]',
    '',
    'Commands:',
    ...Object.values(COMMANDS).map((c) => `  ${c.usage}`),
    '',
    'Only where the database file is (never with --url):',
    ...Object.values(LOCAL_COMMANDS).map((c) => `  ${c.usage}`),
    '',
    'Where the command runs:',
    '  without --url     on DATABASE_URL, a libSQL database (a file, or libsql://… with DATABASE_AUTH_TOKEN)',
    '  --url BASE_URL    on a deployment (Workers + D1, Bun, Node) through its operator API, for example',
    '                    --url https://svc.example.com; SVC_OPERATOR_URL sets it for every command.',
    "                    The secret is read only from SVC_OPERATOR_SECRET (the deployment's OPERATOR_SECRET),",
    '                    never from an argument: arguments are visible to every user of the machine.',
    '',
    'Add --help to a command for more.',
  ].join('\n');
}

function commandHelp(command: Command): string {
  return [
    `Usage: npm run --silent svc -- [--url BASE_URL] ${command.usage}`,
    '',
    command.help,
    '',
    'With --url BASE_URL (or SVC_OPERATOR_URL) it runs on that deployment, the secret taken from SVC_OPERATOR_SECRET.',
  ].join('\n');
}

/** `--url X` or `--url=X` before the command name. */
function leadingUrl(argv: string[]): { url: string | undefined; rest: string[] } {
  if (argv[0] === '--url') return { url: argv[1], rest: argv.slice(2) };
  if (argv[0]?.startsWith('--url=')) return { url: argv[0].slice('--url='.length), rest: argv.slice(1) };
  return { url: undefined, rest: argv };
}

async function main(argv: string[]): Promise<number> {
  const { url: urlBefore, rest: args } = leadingUrl(argv);
  const local = findLocalCommand(args[0] ?? '');
  if (local) return runLocalOnly(local, urlBefore, args.slice(1));
  const name = findCommand(args[0] ?? '') ? args[0]! : args.slice(0, 2).join(' ');
  const command = findCommand(name);
  if (!command) {
    if (args.length === 0 || args.includes('--help') || args.includes('-h')) {
      console.log(overview());
      return 0;
    }
    console.error(`svc: unknown command "${args.join(' ')}".\n\n${overview()}`);
    return 1;
  }
  const rest = args.slice(name.split(' ').length);
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(commandHelp(command));
    return 0;
  }
  const parsed = readArguments(command, rest);
  if (!parsed) return 1;
  const { url: urlAfter, ...options } = parsed.values;
  const input: CommandInput = { positionals: parsed.positionals, options };
  const base = urlAfter ?? urlBefore ?? (process.env.SVC_OPERATOR_URL?.trim() || undefined);
  const outcome = base === undefined ? await runLocal(command, input) : await runOnDeployment(base, name, input);
  if (!outcome.ok) {
    console.error(`svc: ${outcome.message}`);
    return 1;
  }
  console.log(JSON.stringify(outcome.result));
  return 0;
}

/** A command of the database file's machine (backup): refused with a URL, which would send it to a deployment. */
async function runLocalOnly(command: LocalCommand, urlBefore: string | undefined, rest: string[]): Promise<number> {
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log([`Usage: npm run --silent svc -- ${command.usage}`, '', command.help].join('\n'));
    return 0;
  }
  const parsed = readArguments(command, rest);
  if (!parsed) return 1;
  const { url: urlAfter, ...options } = parsed.values;
  if (urlAfter !== undefined || urlBefore !== undefined || process.env.SVC_OPERATOR_URL?.trim()) {
    console.error(
      `svc: ${command.usage.split(' ')[0]} runs only on the machine that holds the database file (DATABASE_URL), never through the operator API: unset SVC_OPERATOR_URL and leave out --url. A Workers deployment's D1 is backed up with Time Travel or \`npm run wrangler -- d1 export\`.`,
    );
    return 1;
  }
  const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  try {
    console.log(
      JSON.stringify(await command.run({ positionals: parsed.positionals, options }, { databaseUrl, busyWaitMs: CLI_BUSY_WAIT_MS })),
    );
    return 0;
  } catch (error) {
    console.error(`svc: ${failureMessage(error)}`);
    return 1;
  }
}

function readArguments(command: Pick<Command, 'usage' | 'options'>, args: string[]) {
  try {
    return parseArgs({ args, options: { ...command.options, ...URL_OPTION }, allowPositionals: true, strict: true });
  } catch (error) {
    console.error(`svc: ${(error as Error).message}\nUsage: npm run --silent svc -- ${command.usage}`);
    return undefined;
  }
}

async function runLocal(command: Command, input: CommandInput): Promise<Outcome> {
  let opened: Awaited<ReturnType<typeof openDatabase>> | undefined;
  try {
    opened = await openDatabase(process.env.DATABASE_URL || DEFAULT_DATABASE_URL, process.env.DATABASE_AUTH_TOKEN, {
      busyWaitMs: CLI_BUSY_WAIT_MS,
      checkpointInCommits: false,
    });
    return { ok: true, result: await command.run(input, { db: opened.db, now: Date.now() }) };
  } catch (error) {
    return { ok: false, message: failureMessage(error) };
  } finally {
    opened?.client.close();
  }
}

async function runOnDeployment(base: string, name: string, input: CommandInput): Promise<Outcome> {
  const url = commandsUrl(base);
  if (typeof url === 'string') return { ok: false, message: url };
  const secret = process.env.SVC_OPERATOR_SECRET?.trim();
  if (!secret) {
    return {
      ok: false,
      message:
        "set SVC_OPERATOR_SECRET to the deployment's OPERATOR_SECRET (it is read from the environment only, never from an argument).",
    };
  }
  return runRemote(url, secret, name, input);
}

/** What the operator is told: a refusal as it is, the database's state with what to do, never a query's values. */
function failureMessage(error: unknown): string {
  if (error instanceof OperatorRefusal) return error.message;
  const database = databaseFailureMessage(error);
  if (database !== undefined) return `${database} (${describeError(error)})`;
  return [describeError(error), ...stackFrames(error)].join('\n    ');
}

process.exitCode = await main(process.argv.slice(2));
