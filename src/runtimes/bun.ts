import { pauseAfterRows } from './pause-after-rows.ts';
import { cannotListen, startServer } from './server.ts';

const { fetch, tasksSettled, listening, closeDatabase, port, hostname, reusePort } = await startServer(process.env, process.argv.slice(2));
// After a long row of handlers, a short pause before Bun's server reads its sockets again (pause-after-rows.ts).
const answer = pauseAfterRows(fetch);
let server: ReturnType<typeof Bun.serve>;
try {
  server = Bun.serve({
    port,
    hostname,
    reusePort,
    // Bun's own limit (128 MiB by default) would answer a larger Content-Length with an empty 413 before the
    // handler runs; the handler reads at most the contract's limit and answers 413 payload_too_large itself.
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    fetch: (request, bun) => answer(request, { clientAddress: bun.requestIP(request)?.address }),
  });
} catch (error) {
  cannotListen(hostname, port, error);
}
console.log(`svc listening on http://${server.hostname}:${server.port} (Bun ${Bun.version})`);
listening();

/**
 * Graceful stop: no new connections, requests in flight finish (a charge is never cut from its answer), then the
 * work they left after their answers (a sign-in mail being sent), then the database closed.
 */
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    await server.stop();
    await tasksSettled();
    await closeDatabase();
    process.exit(0);
  });
}
