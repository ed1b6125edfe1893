import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startBun, startNode, startWorker, tempDir, type RunningServer } from '../support/processes.ts';

const running: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(running.map((server) => server.stop()));
});

async function templatesBody(server: RunningServer): Promise<string> {
  running.push(server);
  const response = await fetch(`${server.url}/api/v1/templates`);
  expect(response.status).toBe(200);
  expect(response.headers.get('Svc-Version')).toBe('2026-10-01');
  return response.text();
}

describe('the same service on three runtimes', () => {
  const bodies: Record<string, string> = {};

  it('the real Bun server answers 200 on its embedded database file', async () => {
    const dir = tempDir();
    bodies.bun = await templatesBody(await startBun({ DATABASE_URL: `file:${join(dir, 'svc.db')}` }, await freePort()));
  });

  it('the real Node server answers 200 on its embedded database file', async () => {
    const dir = tempDir();
    bodies.node = await templatesBody(await startNode({ DATABASE_URL: `file:${join(dir, 'svc.db')}` }, await freePort()));
  });

  it('the Worker in workerd (wrangler dev --local, local D1) answers 200 with the same body', async () => {
    bodies.worker = await templatesBody(await startWorker(await freePort()));
    expect(bodies.worker).toBe(bodies.bun);
    expect(bodies.node).toBe(bodies.bun);
  }, 90_000);

  it('refuses to start with a clear message on an invalid setting', async () => {
    await expect(startBun({ PORT: 'eighty' }, await freePort())).rejects.toThrow(/PORT must be 0 to 65535/);
  });
});
