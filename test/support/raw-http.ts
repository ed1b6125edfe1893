import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The bytes of a chunked body (Node sends its answers so). */
function dechunked(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    const size = parseInt(raw.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) return Buffer.concat(parts);
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/**
 * Sends bytes as they are (fetch would repair them) on a new connection to `port`, or on a connection already open,
 * and reads one answer, or undefined if the connection closes without one.
 */
export function rawExchange(target: number | Socket, bytes: string | Buffer): Promise<RawAnswer | undefined> {
  return new Promise((resolve, reject) => {
    const socket = typeof target === 'number' ? connect(target, '127.0.0.1') : target;
    let received = Buffer.alloc(0);
    const finish = () => {
      socket.destroy();
      const text = received.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return resolve(undefined);
      const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      const raw = received.subarray(end + 4);
      const body = headers['transfer-encoding'] === 'chunked' ? dechunked(raw) : raw;
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: body.toString('utf8') });
    };
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      const text = received.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end + 2));
      if (end >= 0 && length && received.byteLength >= end + 4 + Number(length[1])) finish();
    });
    socket.on('end', finish);
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? finish() : reject(error)));
    socket.setTimeout(10_000, finish);
    socket.write(bytes);
  });
}
