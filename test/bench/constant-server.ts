/**
 * A Bun server whose every answer takes a constant CPU time (SERVICE_MS, default 0.8 ms: about a final's server
 * time), for `npm run bench:load`'s reference row: the tail the HTTP server itself gives a constant workload, which
 * the service's rows at 64 in flight are read against.
 */
const serviceMs = Number(process.env.SERVICE_MS ?? 0.8);
Bun.serve({
  port: Number(process.env.PORT),
  hostname: '127.0.0.1',
  fetch() {
    const end = performance.now() + serviceMs;
    while (performance.now() < end) {}
    return new Response('ok');
  },
});
console.log('listening');
