import { serveNode } from './node-http.ts';
import { cannotListen, startServer } from './server.ts';

const { fetch, tasksSettled, listening, closeDatabase, port, hostname, publicBaseUrl } = await startServer(
  process.env,
  process.argv.slice(2),
);
const server = serveNode(fetch, port, hostname, publicBaseUrl);
const failedToListen = (error: Error) => cannotListen(hostname, port, error);
server.once('error', failedToListen);
server.on('listening', () => {
  server.off('error', failedToListen);
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  console.log(`svc listening on http://${hostname}:${bound} (Node ${process.version})`);
  listening();
});

/**
 * Graceful stop: no new connections, idle keep-alive sockets closed, requests in flight finish, then the work they
 * left after their answers (a sign-in mail being sent), then the database closed.
 */
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    server.close(async () => {
      await tasksSettled();
      await closeDatabase();
      process.exit(0);
    });
    setInterval(() => server.closeIdleConnections(), 50).unref();
  });
}
