import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/libsql.ts';
import { freePort, type RunningServer, startBun, startNode, startWorker, tempDir } from './processes.ts';
import { type ApiTarget, SUITE_SERVER_ENV, targetKind } from './target.ts';

/** Debian tools the render tests read PDFs back with: a clear message up front rather than failures later. */
const PDF_TOOLS = [
  ['qpdf', 'qpdf'],
  ['pdftotext', 'poppler-utils'],
] as const;

function requirePdfTools(): void {
  const missing = PDF_TOOLS.filter(([tool]) => spawnSync(tool, ['-v']).error);
  if (missing.length) {
    throw new Error(
      `the tests need ${missing.map(([tool]) => tool).join(' and ')}: apt-get install ${missing.map(([, pkg]) => pkg).join(' ')}`,
    );
  }
}

/** Starts the one real server the HTTP suite runs against when API_TARGET names a runtime. */
export default async function setup(project: TestProject) {
  requirePdfTools();
  const kind = targetKind();
  let server: RunningServer | undefined;
  let target: ApiTarget = { kind };
  if (kind === 'bun' || kind === 'node') {
    const databaseUrl = `file:${join(tempDir('svc-suite-'), 'svc.db')}`;
    (await openDatabase(databaseUrl)).client.close();
    server = await (kind === 'bun' ? startBun : startNode)({ ...SUITE_SERVER_ENV, DATABASE_URL: databaseUrl }, await freePort());
    target = { kind, url: server.url, databaseUrl };
  }
  if (kind === 'worker') {
    const persist = tempDir('svc-suite-d1-');
    server = await startWorker(await freePort(), undefined, { persist, vars: SUITE_SERVER_ENV });
    const folder = join(persist, 'v3/d1/miniflare-D1DatabaseObject');
    const file = readdirSync(folder).find((name) => name.endsWith('.sqlite') && name !== 'metadata.sqlite');
    target = { kind, url: server.url, databaseUrl: `file:${join(folder, file!)}` };
  }
  project.provide('apiTarget', target);
  return async () => {
    if (server && server.process.exitCode !== null) {
      console.error(`the ${kind} server died during the run:\n${server.output().slice(-4000)}`);
    }
    await server?.stop();
  };
}
