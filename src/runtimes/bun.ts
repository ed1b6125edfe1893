import { startServer } from './server.ts';

const { fetch, port, hostname, reusePort } = await startServer(process.env);
const server = Bun.serve({
  port,
  hostname,
  reusePort,
  fetch: (request, bun) => fetch(request, { clientAddress: bun.requestIP(request)?.address }),
});
console.log(`svc listening on http://${server.hostname}:${server.port} (Bun ${Bun.version})`);

/** Graceful stop: no new connections, requests in flight finish (a charge is never cut from its answer). */
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    await server.stop();
    process.exit(0);
  });
}
