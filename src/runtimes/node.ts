import { serveNode } from './node-http.ts';
import { startServer } from './server.ts';

const { fetch, port, hostname } = await startServer(process.env);
const server = serveNode(fetch, port, hostname);
server.on('listening', () => {
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  console.log(`svc listening on http://${hostname}:${bound} (Node ${process.version})`);
});
