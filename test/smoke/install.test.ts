import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, realpathSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, freePort, ROOT, type RunningServer, startProcess, tempDir } from '../support/processes.ts';

interface LockedPackage {
  version: string;
  integrity?: string;
  resolved?: string;
  hasInstallScript?: boolean;
  dev?: boolean;
  optional?: boolean;
}

const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> };
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { allowScripts: Record<string, boolean> };

/** The lockfile entry of the installed package that holds `file` (the innermost node_modules/… folder). */
function lockedPackageOf(file: string): [string, LockedPackage | undefined] {
  const path = relative(ROOT, realpathSync(file)).split('/');
  const last = path.lastIndexOf('node_modules');
  const name = path[last + 1]!.startsWith('@') ? path.slice(0, last + 3) : path.slice(0, last + 2);
  const key = name.join('/');
  return [key, lock.packages[key]];
}

describe('every binary that runs comes from the lockfile (issue 12, item 4)', () => {
  it.each(['node', 'bun'])('node_modules/.bin/%s is a file of a locked package with its integrity hash', (binary) => {
    const [key, locked] = lockedPackageOf(join(BIN, binary));
    expect(locked, `${key} is not in package-lock.json`).toBeDefined();
    expect(locked!.integrity).toMatch(/^sha512-/);
    const version = execFileSync(join(BIN, binary), ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
    expect(version).toBe(locked!.version);
  });

  it('installs nothing outside the lockfile: npm ls finds no extraneous or missing package', () => {
    const tree = execFileSync('npm', ['ls', '--all', '--json'], { cwd: ROOT, encoding: 'utf8' });
    expect(tree).not.toMatch(/"extraneous"|"missing"|"invalid"/);
  });

  it('runs install scripts only of the packages package.json allows, each of which links a locked binary', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([, locked]) => locked.hasInstallScript)
      .map(([key]) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(
      withScripts.every((name) => manifest.allowScripts[name] === true),
      withScripts.join(', '),
    ).toBe(true);
    expect(withScripts).not.toContain('node');
  });
});

describe('production install (issue 12, item 11)', () => {
  let server: RunningServer | undefined;
  afterAll(() => server?.stop());

  it('`npm ci --omit=dev` gives a service that `npm start` runs and a CLI that works', async () => {
    const folder = tempDir('svc-production-');
    const tracked = execFileSync(
      'git',
      ['ls-files', 'package.json', 'package-lock.json', 'bunfig.toml', 'src', 'db', 'fonts', 'native/zlib.wasm'],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    for (const file of tracked.split('\n').filter(Boolean)) cpSync(join(ROOT, file), join(folder, file));
    execFileSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: folder, stdio: 'pipe' });

    const env = { DATABASE_URL: `file:${join(folder, 'data/svc.db')}`, LOG_REQUESTS: 'false' };
    const port = await freePort();
    server = await startProcess('npm', ['start'], { port, cwd: folder, env: { ...env, PORT: String(port) } });
    const templates = await fetch(`${server.url}/api/v1/templates`);
    expect(templates.status).toBe(200);
    expect(server.output()).toMatch(/\(Bun \d/);

    const created = execFileSync('npm', ['run', '--silent', 'svc', '--', 'accounts', 'create', '--email', 'ops@example.com'], {
      cwd: folder,
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    expect(JSON.parse(created)).toMatchObject({ email: 'ops@example.com', plan: 'free' });
  }, 120_000);
});
