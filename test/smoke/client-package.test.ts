import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDatabaseFile } from '../support/accounts.ts';
import { BIN, freePort, ROOT, type RunningServer, startBun, startProcess, tempDir, wranglerDevArguments } from '../support/processes.ts';

/**
 * The client as an integrator gets it: `packages/client` built (`npm run client:package`), packed with `npm pack`,
 * installed from the tarball into an empty project, type-checked there by a consumer's TypeScript (NodeNext), and
 * run by one program in Node, in Bun and in workerd (a Worker with no compatibility flag, bundled by wrangler from
 * the project's node_modules) against a real Bun server.
 */
const PROGRAM = `import { createClient, newIdempotencyKey, SvcApiError } from 'svc-documents-client';

export async function run(baseUrl, apiKey) {
  const svc = createClient({ baseUrl, apiKey, retry: false });
  const body = {
    template: 'invoice',
    mode: 'final',
    fields: { seller_name: 'Seller Ltd', client_name: 'Client Inc', invoice_number: 'PKG-1', date: '2026-10-01',
      currency: 'EUR', items: [{ description: 'Work', quantity: '2', unit_price: '50.00' }] },
  };
  const key = newIdempotencyKey();
  const made = await svc.createDocument(body, { idempotencyKey: key });
  const replay = await svc.createDocument(body, { idempotencyKey: key });
  const refused = await svc.validateDocument({ ...body, fields: { ...body.fields, date: '2026-02-30' } }).catch((error) => error);
  return {
    templates: (await svc.listTemplates()).map((template) => template.slug),
    filename: made.filename,
    total: made.totals.total,
    pdf: new TextDecoder().decode(made.pdf.slice(0, 5)),
    replay: replay.replay && replay.documentId === made.documentId,
    refused: refused instanceof SvcApiError ? [refused.status, refused.code, refused.details.map((detail) => detail.field)] : String(refused),
  };
}
`;

const MAIN = `import { run } from './program.mjs';
console.log(JSON.stringify(await run(process.argv[2], process.argv[3])));
`;

const WORKER = `import { run } from './program.mjs';
export default {
  async fetch(request) {
    if (request.method !== 'POST') return new Response('ready');
    const { baseUrl, apiKey } = await request.json();
    return Response.json(await run(baseUrl, apiKey));
  },
};
`;

/** What a consumer's TypeScript must accept, and refuse: the bodies are typed per template. */
const CHECKED = `import { createClient, type InvoiceRequest, SvcApiError } from 'svc-documents-client';

const invoice: InvoiceRequest = {
  template: 'invoice',
  mode: 'preview',
  fields: { seller_name: 'A', client_name: 'B', invoice_number: '1', date: '2026-10-01', currency: 'EUR', items: 'Work | 1 | 5' },
};
const wrong: InvoiceRequest = {
  template: 'invoice',
  mode: 'preview',
  // @ts-expect-error: an invoice has no such field
  fields: { seller_name: 'A', client_name: 'B', invoice_number: '1', date: '2026-10-01', currency: 'EUR', items: 'x', valid_until: '2026-11-01' },
};
const svc = createClient({ baseUrl: 'http://127.0.0.1:1' });
export async function total(): Promise<string> {
  const document = await svc.createDocument(invoice);
  return document.totals.total ?? '';
}
export const isApiError = (error: unknown): boolean => error instanceof SvcApiError;
export { wrong };
`;

const EXPECTED = {
  templates: ['invoice', 'quote', 'receipt'],
  filename: 'invoice-PKG-1.pdf',
  total: '100.00',
  pdf: '%PDF-',
  replay: true,
  refused: [422, 'validation_failed', ['fields.date']],
};

let project: string;
let server: RunningServer;
let worker: RunningServer;
let key: string;

beforeAll(async () => {
  execFileSync(process.execPath, [join(ROOT, 'packages/client/build.ts')], { stdio: 'pipe' });
  const packed = tempDir('svc-client-pack-');
  execFileSync('npm', ['pack', '--silent', '--pack-destination', packed], { cwd: join(ROOT, 'packages/client'), stdio: 'pipe' });
  const tarball = join(packed, readdirSync(packed).find((name) => name.endsWith('.tgz'))!);
  project = tempDir('svc-client-consumer-');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', tarball], { cwd: project, stdio: 'pipe' });
  writeFileSync(join(project, 'program.mjs'), PROGRAM);
  writeFileSync(join(project, 'main.mjs'), MAIN);
  writeFileSync(join(project, 'worker.mjs'), WORKER);
  writeFileSync(join(project, 'checked.ts'), CHECKED);
  writeFileSync(
    join(project, 'wrangler.toml'),
    'name = "svc-client-package"\nmain = "worker.mjs"\ncompatibility_date = "2026-10-01"\nsend_metrics = false\n',
  );
  const seeded = await seedDatabaseFile({ plan: 'free', credits: 5 });
  seeded.client.close();
  key = seeded.key;
  const workerPort = await freePort();
  [server, worker] = await Promise.all([
    startBun({ DATABASE_URL: seeded.url }, await freePort()),
    startProcess(
      process.execPath,
      wranglerDevArguments(workerPort, tempDir('svc-client-package-d1-'), {}, join(project, 'wrangler.toml')),
      {
        port: workerPort,
        readyPath: '/',
        timeoutMs: 60_000,
      },
    ),
  ]);
}, 180_000);

afterAll(async () => {
  await Promise.all([server?.stop(), worker?.stop()]);
});

// The type check runs the TypeScript compiler: seconds on an idle machine, far more on a busy one. The limit only
// stops a compiler that hangs.
describe('the client package, installed from its tarball into an empty project', { timeout: 300_000 }, () => {
  it('type-checks a consumer under NodeNext resolution, typed bodies included', () => {
    const tsc = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/typescript/bin/tsc'),
        '--noEmit',
        '--strict',
        '--module',
        'NodeNext',
        '--moduleResolution',
        'NodeNext',
        '--target',
        'ES2023',
        '--lib',
        'ES2023,DOM',
        '--types',
        'node',
        '--typeRoots',
        join(ROOT, 'node_modules/@types'),
        'checked.ts',
      ],
      { cwd: project, encoding: 'utf8' },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });

  it('runs in Node', () => {
    const run = spawnSync(process.execPath, ['main.mjs', server.url, key], { cwd: project, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(EXPECTED);
  });

  it('runs in Bun', () => {
    const run = spawnSync(join(BIN, 'bun'), ['main.mjs', server.url, key], { cwd: project, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(EXPECTED);
  });

  it('runs in workerd', async () => {
    const response = await fetch(worker.url, { method: 'POST', body: JSON.stringify({ baseUrl: server.url, apiKey: key }) });
    const text = await response.text();
    expect(response.status, `${text}\n${worker.output().slice(-2000)}`).toBe(200);
    expect(JSON.parse(text)).toEqual(EXPECTED);
  });
});
