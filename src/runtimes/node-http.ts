import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { FetchHandler } from '../app.ts';

function toRequest(incoming: IncomingMessage, fallbackOrigin: string): Request {
  let url: URL;
  try {
    url = new URL(incoming.url ?? '/', `http://${incoming.headers.host ?? ''}`);
  } catch {
    url = new URL(incoming.url ?? '/', fallbackOrigin);
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD';
  return new Request(url, {
    method: incoming.method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(incoming) as unknown as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit);
}

async function writeResponse(response: Response, outgoing: ServerResponse): Promise<void> {
  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) {
    const reader = response.body.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) outgoing.write(chunk.value);
  }
  outgoing.end();
}

/** Serves a fetch handler with node:http; Node has no built-in fetch server. */
export function serveNode(fetch: FetchHandler, port: number, hostname: string): Server {
  const fallbackOrigin = `http://${hostname}:${port}`;
  const server = createServer(async (incoming, outgoing) => {
    try {
      await writeResponse(await fetch(toRequest(incoming, fallbackOrigin), { clientAddress: incoming.socket.remoteAddress }), outgoing);
    } catch {
      if (!outgoing.headersSent) outgoing.writeHead(400, { 'Content-Type': 'text/plain' });
      outgoing.end();
    }
  });
  return server.listen(port, hostname);
}
