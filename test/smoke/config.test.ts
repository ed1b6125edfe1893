import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, freePort, ROOT, tempDir, wranglerDevArguments } from '../support/processes.ts';

const RUNTIMES = [
  ['Bun', join(BIN, 'bun'), 'src/runtimes/bun.ts'],
  ['Node', process.execPath, 'src/runtimes/node.ts'],
] as const;

/** Runs an entry point until it exits (it must not start): its exit code and what it printed on stderr. */
function startAndExit(command: string, entry: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [entry], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: `file:${join(tempDir('svc-config-'), 'svc.db')}`, LOG_REQUESTS: 'false', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`it started instead of refusing:\n${stderr}`));
    }, 15_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe.each(RUNTIMES)('a bad setting stops %s with one line naming it', (_, command, entry) => {
  it.each([
    [{ DATABASE_URL: 'ftp://x' }, /^svc: invalid configuration: DATABASE_URL must start with one of .* got "ftp:"\.$/],
    [{ HOST: 'bad host' }, /^svc: invalid configuration: HOST must be an IP address or a host name, got "bad host"\.$/],
    [{ HOST: '192.0.2.1' }, /^svc: cannot listen on 192\.0\.2\.1:\d+ \(HOST, PORT\): EADDRNOTAVAIL$/],
    [
      { SMTP_HOST: 'smtp.example.com', MAIL_FROM: 'svc@example.com' },
      /^svc: invalid configuration: MAIL_TRANSPORT=smtp needs PUBLIC_BASE_URL \(such as https:\/\/docs\.example\.com\): .*never from the request\.$/,
    ],
    [
      { SMTP_HOST: 'smtp.example.com', MAIL_FROM: 'svc@example.com', PUBLIC_BASE_URL: 'http://docs.example.com' },
      /^svc: invalid configuration: MAIL_TRANSPORT=smtp needs an https:\/\/ PUBLIC_BASE_URL .*got "http:\/\/docs\.example\.com"\.$/,
    ],
  ])('%o', async (env, message) => {
    const { code, stderr } = await startAndExit(command, entry, { PORT: String(await freePort()), ...env });
    expect(code).toBe(1);
    expect(stderr.trimEnd().split('\n'), stderr).toHaveLength(1);
    expect(stderr.trimEnd()).toMatch(message);
  });

  it('a database that cannot be opened: one line, without the URL or its token', async () => {
    const { code, stderr } = await startAndExit(command, entry, {
      PORT: String(await freePort()),
      DATABASE_URL: `libsql://127.0.0.1:${await freePort()}?authToken=sekrit-query-token`,
      DATABASE_AUTH_TOKEN: 'sekrit-env-token',
    });
    expect(code).toBe(1);
    expect(stderr.trimEnd().split('\n'), stderr).toHaveLength(1);
    expect(stderr).toMatch(/^svc: cannot open the database of DATABASE_URL: \S/);
    expect(stderr).not.toMatch(/Failed query/);
    expect(stderr).not.toContain('sekrit');
  });
});

describe('a bad setting on the Worker', () => {
  it('answers every request with the contract 500 and logs the one line naming the setting', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, wranglerDevArguments(port, tempDir('svc-d1-'), { PUBLIC_BASE_URL: 'ftp://x' }), {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    try {
      let response: Response | undefined;
      for (const deadline = Date.now() + 90_000; !response && Date.now() < deadline; ) {
        response = await fetch(`http://127.0.0.1:${port}/api/v1/templates`).catch(() => undefined);
        if (!response) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(response, output).toBeDefined();
      expect(response!.status).toBe(500);
      const body = await response!.json();
      expect(body.error.code).toBe('internal_error');
      expect(body.error.request_id).toBe(response!.headers.get('Svc-Request-Id'));
      for (let tries = 0; tries < 40 && !output.includes('svc: invalid configuration'); tries++)
        await new Promise((resolve) => setTimeout(resolve, 250));
      expect(output).toContain('svc: invalid configuration: PUBLIC_BASE_URL must start with https:// or http://, got "ftp://x".');
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
    }
  }, 120_000);
});
