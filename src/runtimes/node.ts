import { serveNode } from './node-http.ts';
import { cannotListen, startServer } from './server.ts';

const { fetch, tasksSettled, port, hostname, publicBaseUrl } = await startServer(process.env, process.argv.slice(2));
const server = serveNode(fetch, port, hostname, publicBaseUrl);
const failedToListen = (error: Error) => cannotListen(hostname, port, error);
server.once('error', failedToListen);
server.on('listening', () => {
  server.off('error', failedToListen);
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  console.log(`svc listening on http://${hostname}:${bound} (Node ${process.version})`);
});

/**
 * Graceful stop: no new connections, idle keep-alive sockets closed, requests in flight finish, then the work they
 * left after their answers (a sign-in mail being sent).
 */
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    server.close(async () => {
      await tasksSettled();
      process.exit(0);
    });
    setInterval(() => server.closeIdleConnections(), 50).unref();
  });
}
