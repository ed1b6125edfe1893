import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'node_modules/.bin');

export function tempDir(prefix = 'svc-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface RunningServer {
  url: string;
  process: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Starts a server process and waits until `readyPath` answers, or fails with what the process printed. */
export async function startProcess(
  command: string,
  args: string[],
  options: { port: number; env?: Record<string, string>; readyPath?: string; timeoutMs?: number; cwd?: string },
): Promise<RunningServer> {
  const url = `http://127.0.0.1:${options.port}`;
  const child = spawn(command, args, {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  let exited = false;
  let exitedWith = '';
  child.on('exit', (code, signal) => {
    exited = true;
    exitedWith = signal ? `signal ${signal}` : `code ${code}`;
  });

  const stop = async () => {
    if (exited) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {}
    }, 5_000);
    await gone;
    clearTimeout(timer);
  };

  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${command} exited (${exitedWith}) before it was ready:\n${output}`);
    try {
      const response = await fetch(`${url}${options.readyPath ?? '/api/v1/templates'}`);
      if (response.status < 500) return { url, process: child, output: () => output, stop };
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`${command} was not ready in time:\n${output}`);
}

export function startBun(env: Record<string, string>, port: number) {
  return startProcess(join(BIN, 'bun'), ['src/runtimes/bun.ts'], { port, env: { PORT: String(port), ...env } });
}

export function startNode(env: Record<string, string>, port: number) {
  return startProcess(process.execPath, ['src/runtimes/node.ts'], { port, env: { PORT: String(port), ...env } });
}

const WRANGLER = join(ROOT, '.ci/wrangler.mjs');

/** Runs a wrangler command to completion, failing with its output. */
export function wrangler(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRANGLER, ...args], { cwd: ROOT, stdio: 'pipe' });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`wrangler ${args.join(' ')} failed:\n${output}`))));
  });
}

/**
 * The Worker in workerd through `wrangler dev --local`, on a fresh local D1 database with migrations applied;
 * `seedSql` runs against that database first (accounts and keys for the test).
 */
export async function startWorker(
  port: number,
  seedSql?: string,
  options: { persist?: string; vars?: Record<string, string> } = {},
): Promise<RunningServer> {
  const persist = options.persist ?? tempDir('svc-d1-');
  await wrangler(['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persist]);
  if (seedSql) await wrangler(['d1', 'execute', 'DB', '--local', '--persist-to', persist, '--command', seedSql]);
  return startProcess(process.execPath, wranglerDevArguments(port, persist, options.vars), { port, timeoutMs: 60_000 });
}

/**
 * The arguments of `wrangler dev --local` for the Worker on a port, with a local D1 database and settings; `config`
 * names another Worker's wrangler.toml (a benchmark's).
 */
export function wranglerDevArguments(port: number, persist: string, vars: Record<string, string> = {}, config?: string): string[] {
  const settings = Object.entries(vars).flatMap(([name, value]) => ['--var', `${name}:${value}`]);
  return [
    WRANGLER,
    'dev',
    '--local',
    ...(config ? ['--config', config] : []),
    '--port',
    String(port),
    '--ip',
    '127.0.0.1',
    '--persist-to',
    persist,
    // The inspector on a port the system picks: by default each wrangler takes the first free port from 9229 and
    // binds it later, and two started together took the same one (CI failed on `Address already in use`).
    '--inspector-port',
    '0',
    '--show-interactive-dev-session=false',
    ...settings,
  ];
}
