import { startServer } from './server.ts';

const { fetch, port, hostname } = await startServer(process.env);
const server = Bun.serve({ port, hostname, fetch });
console.log(`svc listening on http://${server.hostname}:${server.port} (Bun ${Bun.version})`);
