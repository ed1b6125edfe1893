import { startServer } from './server.ts';

const { fetch, port, hostname } = await startServer(process.env);
const server = Bun.serve({
  port,
  hostname,
  fetch: (request, bun) => fetch(request, { clientAddress: bun.requestIP(request)?.address }),
});
console.log(`svc listening on http://${server.hostname}:${server.port} (Bun ${Bun.version})`);
