import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FetchHandler } from '../app.ts';
import { ApiError } from '../contract/api-error.ts';
import { answerWithoutHandler } from './answer.ts';

/**
 * The request body as a web stream. Not Readable.toWeb: after the handler cancels the stream (a body over the
 * limit), Node 24's adapter still enqueues arriving chunks and throws "Controller is already closed" outside
 * any handler, which stops the process. Here the rest of a cancelled body is read and dropped, so that the
 * client, still sending, gets the answer; past DISCARD_LIMIT the connection is closed.
 */
const DISCARD_LIMIT = 8 * 1024 * 1024;

/** The rest of a request body, read and dropped: what the handler left unread when it answered. */
const DROP_REST = Symbol('drop the rest of the body');
type BodyStream = ReadableStream<Uint8Array> & { [DROP_REST]?: () => void };

function bodyOf(incoming: IncomingMessage): BodyStream {
  let cancelled = false;
  let discarded = 0;
  const stream: BodyStream = new ReadableStream<Uint8Array>({
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
  stream[DROP_REST] = () => {
    cancelled = true;
    incoming.resume();
  };
  return stream;
}

/**
 * Methods node:http parses but the web Request refuses to carry. Bun hands TRACE and CONNECT to the handler,
 * which answers them like any method a path does not take (405 with Allow, or 404); so does Node: the Request
 * is made under a name no route takes, and its `method` then tells the real one.
 */
const METHODS_REQUEST_REFUSES = new Set(['CONNECT', 'TRACE', 'TRACK']);
const STAND_IN_METHOD = 'X-UNSERVED';

function toRequest(incoming: IncomingMessage, fallbackOrigin: string): { request: Request; body: BodyStream | undefined } {
  // An origin-form target is a path, and stays one: resolved against a base, `//evil.example/x` would name
  // another host, where Bun and workerd keep the path `//evil.example/x`.
  const target = incoming.url ?? '/';
  const at = (origin: string) => (target.startsWith('/') ? new URL(`${origin}${target}`) : new URL(target, origin));
  let url: URL;
  try {
    url = at(`http://${incoming.headers.host ?? ''}`);
  } catch {
    url = at(fallbackOrigin);
  }
  // From rawHeaders: `incoming.headers` keeps only the first of some repeated headers (Authorization among
  // them), where Bun and workerd join every value; the answer must not depend on the runtime.
  const headers = new Headers();
  for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2) headers.append(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
  const method = incoming.method ?? 'GET';
  const refused = METHODS_REQUEST_REFUSES.has(method);
  const hasBody = method !== 'GET' && method !== 'HEAD' && !refused;
  const body = hasBody ? bodyOf(incoming) : undefined;
  const request = new Request(url, {
    method: refused ? STAND_IN_METHOD : method,
    headers,
    ...(body ? { body, duplex: 'half' } : {}),
  } as RequestInit);
  if (refused) Object.defineProperty(request, 'method', { value: method });
  return { request, body };
}

async function writeResponse(response: Response, outgoing: ServerResponse): Promise<void> {
  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) {
    const reader = response.body.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) outgoing.write(chunk.value);
  }
  outgoing.end();
}

/** A whole answer written straight to a socket that node:http no longer manages; the connection then closes. */
async function endSocketWith(socket: Duplex, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`];
  for (const [name, value] of response.headers) lines.push(`${name}: ${value}`);
  lines.push(`Content-Length: ${body.byteLength}`, 'Connection: close');
  socket.end(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]));
}

/** Node's own limit on the request line and headers together (node:http maxHeaderSize, 16 KiB by default). */
const MAX_HEADER_KIB = 16;

const unreadable = (message: string) => new ApiError('invalid_request', { message });

/** Serves a fetch handler with node:http; Node has no built-in fetch server. */
export function serveNode(fetch: FetchHandler, port: number, hostname: string, publicBaseUrl?: string): Server {
  const fallbackOrigin = `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`;
  const baseUrl = publicBaseUrl ?? fallbackOrigin;
  const answer = async (incoming: IncomingMessage): Promise<{ response: Response; body?: BodyStream | undefined }> => {
    let made: ReturnType<typeof toRequest>;
    try {
      made = toRequest(incoming, fallbackOrigin);
    } catch {
      return { response: answerWithoutHandler(unreadable('The request target is not a valid URL.'), baseUrl) };
    }
    try {
      return { response: await fetch(made.request, { clientAddress: incoming.socket.remoteAddress }), body: made.body };
    } catch {
      // The handler answers every failure itself; this only keeps a rejection from stopping the process.
      return { response: answerWithoutHandler(new ApiError('internal_error'), baseUrl), body: made.body };
    }
  };

  const server = createServer(async (incoming, outgoing) => {
    const { response, body } = await answer(incoming);
    // An answer given before the body was read (413, 415, 401…): the rest is read and dropped while it goes out, so
    // that a client still sending gets it, and the connection stays open for its next request.
    if (!incoming.complete) body?.[DROP_REST]?.();
    try {
      await writeResponse(response, outgoing);
    } catch {
      outgoing.destroy();
    }
  });
  // CONNECT is not a request node:http answers through `request`; without a listener it drops the connection.
  server.on('connect', async (incoming: IncomingMessage, socket: Duplex) => {
    await endSocketWith(socket, (await answer(incoming)).response).catch(() => socket.destroy());
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // As node:http's own handler: no answer once a response on this connection has started (a pipelined bad
    // request must not write into the answer before it).
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const message =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? `The request line and headers are over ${MAX_HEADER_KIB} KiB.`
        : 'The request is not valid HTTP/1.1.';
    endSocketWith(socket, answerWithoutHandler(unreadable(message), baseUrl)).catch(() => socket.destroy());
  });
  return server.listen(port, hostname);
}
