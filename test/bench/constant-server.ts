import { createServer } from 'node:http';
import { HEADERS } from '../../src/contract/headers.ts';
import { CONSTANT_SERVER_ANSWERS } from './constant-answers.ts';

/**
 * A server whose every answer takes a constant CPU time (SERVICE_MS, default 0.8 ms: about a final's server time) and
 * is shaped like a final's (its headers, a 22 KB body), for `npm run bench:load`'s reference rows: the tail the HTTP
 * server itself gives a constant workload, which the service's rows at 64 in flight are read against. ANSWERS says
 * how requests are served (constant-answers.ts).
 */
const serviceMs = Number(process.env.SERVICE_MS ?? 0.8);
const answers = process.env.ANSWERS ?? 'at-once';
if (!Object.hasOwn(CONSTANT_SERVER_ANSWERS, answers)) throw new Error(`ANSWERS ${answers}: not a way of serving`);
const port = Number(process.env.PORT);

const FINAL_HEADER_NAMES = [
  HEADERS.contentType,
  HEADERS.contentDisposition,
  HEADERS.location,
  HEADERS.version,
  HEADERS.requestId,
  HEADERS.documentId,
  HEADERS.documentSha256,
  HEADERS.template,
  HEADERS.templateVersion,
  HEADERS.mode,
  HEADERS.creditUsed,
  HEADERS.creditsRemaining,
  HEADERS.idempotentReplay,
  HEADERS.rateLimitLimit,
  HEADERS.rateLimitRemaining,
  HEADERS.rateLimitReset,
  HEADERS.accessControlAllowOrigin,
  HEADERS.vary,
];
const body = new Uint8Array(22_000).fill(0x41);
const headers: Record<string, string> = {
  ...Object.fromEntries(FINAL_HEADER_NAMES.map((name) => [name, `value-of-${name.toLowerCase()}`])),
  [HEADERS.contentLength]: String(body.byteLength),
};

function work(): void {
  const end = performance.now() + serviceMs;
  while (performance.now() < end) {}
}

/**
 * Runs each function in the order given, one an event-loop turn (setImmediate between two), so that the server reads
 * its sockets between two of them and a request that arrives queues behind those before it.
 */
function inArrivalOrder(): (start: () => void) => void {
  const waiting: (() => void)[] = [];
  let draining = false;
  const drain = () => {
    const start = waiting.shift();
    if (!start) {
      draining = false;
      return;
    }
    start();
    setImmediate(drain);
  };
  return (start) => {
    waiting.push(start);
    if (!draining) {
      draining = true;
      drain();
    }
  };
}

const enqueue = inArrivalOrder();
if (answers === 'node-http-arrival-order') {
  createServer((request, response) => {
    request.resume();
    enqueue(() => {
      work();
      response.writeHead(200, headers).end(body);
    });
  }).listen(port, '127.0.0.1', () => console.log('listening'));
} else {
  const answer = () => {
    work();
    return new Response(body, { headers });
  };
  Bun.serve({
    port,
    hostname: '127.0.0.1',
    fetch: answers === 'arrival-order' ? () => new Promise<Response>((resolve) => enqueue(() => resolve(answer()))) : answer,
  });
  console.log('listening');
}
