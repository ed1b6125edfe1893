import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FetchHandler } from '../app.ts';

/**
 * The request body as a web stream. Not Readable.toWeb: after the handler cancels the stream (a body over the
 * limit), Node 24's adapter still enqueues arriving chunks and throws "Controller is already closed" outside
 * any handler, which stops the process. Here the rest of a cancelled body is read and dropped, so that the
 * client, still sending, gets the answer; past DISCARD_LIMIT the connection is closed.
 */
const DISCARD_LIMIT = 8 * 1024 * 1024;

function bodyOf(incoming: IncomingMessage): ReadableStream<Uint8Array> {
  let cancelled = false;
  let discarded = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      incoming.on('data', (chunk: Buffer) => {
        if (cancelled) {
          discarded += chunk.byteLength;
          if (discarded > DISCARD_LIMIT) incoming.socket.destroy();
          return;
        }
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
      });
      incoming.on('end', () => {
        if (!cancelled) controller.close();
      });
      incoming.on('error', (error) => {
        if (!cancelled) controller.error(error);
      });
    },
    pull() {
      incoming.resume();
    },
    cancel() {
      cancelled = true;
      incoming.resume();
    },
  });
}

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
    ...(hasBody ? { body: bodyOf(incoming), duplex: 'half' } : {}),
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
