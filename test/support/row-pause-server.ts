import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pauseAfterRows } from '../../src/runtimes/pause-after-rows.ts';

/**
 * `bun test/support/row-pause-server.ts <folder> <pause ms>`: a Bun.serve server whose handlers are wrapped in
 * pauseAfterRows (handlers that kept the thread 50 ms or more followed by the pause given), for
 * test/smoke/pause-after-rows.test.ts. The first request keeps the thread FIRST_MS and writes `<folder>/first-started` as it starts (the test then sends the
 * second); every answer says, as JSON, when its handler started and ended (ms on this process's clock), so that the
 * test sees where the pause falls.
 */
const FIRST_MS = 1_000;
const folder = process.argv[2]!;
const pauseMs = Number(process.argv[3]);
let requests = 0;

const fetch = pauseAfterRows(
  async () => {
    const started = performance.now();
    if (requests++ === 0) {
      writeFileSync(join(folder, 'first-started'), '');
      while (performance.now() - started < FIRST_MS) {}
    }
    return Response.json({ started, ended: performance.now() });
  },
  { longRowMs: 50, pauseMs },
);
const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (request) => fetch(request) });
console.log(JSON.stringify({ port: server.port }));
