import { serveNode } from './node-http.ts';
import { cannotListen, startServer } from './server.ts';

const { fetch, port, hostname, publicBaseUrl } = await startServer(process.env, process.argv.slice(2));
const server = serveNode(fetch, port, hostname, publicBaseUrl);
const failedToListen = (error: Error) => cannotListen(hostname, port, error);
server.once('error', failedToListen);
server.on('listening', () => {
  server.off('error', failedToListen);
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  console.log(`svc listening on http://${hostname}:${bound} (Node ${process.version})`);
});

/** Graceful stop: no new connections, idle keep-alive sockets closed, requests in flight finish. */
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    setInterval(() => server.closeIdleConnections(), 50).unref();
  });
}
