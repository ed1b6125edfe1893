import { createServer } from 'node:http';
import { HEADERS } from '../../src/contract/headers.ts';
import { pauseAfterRows } from '../../src/runtimes/pause-after-rows.ts';
import { type AnswerShape, CONSTANT_SERVER_ANSWERS, type ConstantServerAnswers } from './constant-answers.ts';

/**
 * A server whose every answer takes a constant CPU time (SERVICE_MS, default 0.8 ms: about a final's server time) and
 * has the shape ANSWER_SHAPE gives (a final's headers and body length, from the service in the same run), for
 * `npm run bench:load`'s reference rows: the tail the HTTP server itself gives a constant workload, which the
 * service's rows at 64 in flight are read against. ANSWERS says how requests are served (constant-answers.ts).
 */
const serviceMs = Number(process.env.SERVICE_MS ?? 0.8);
const answers = (process.env.ANSWERS ?? 'at-once') as ConstantServerAnswers;
if (!Object.hasOwn(CONSTANT_SERVER_ANSWERS, answers)) throw new Error(`ANSWERS ${answers}: not a way of serving`);
if (!process.env.ANSWER_SHAPE) throw new Error('ANSWER_SHAPE: the shape of a final answer, as JSON, is needed');
const shape = JSON.parse(process.env.ANSWER_SHAPE) as AnswerShape;
const port = Number(process.env.PORT);
const body = new Uint8Array(shape.bytes).fill(0x41);

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
      response.writeHead(200, { ...Object.fromEntries(shape.headers), [HEADERS.contentLength]: String(body.byteLength) }).end(body);
    });
  }).listen(port, '127.0.0.1', () => console.log('listening'));
} else {
  const answer = () => {
    work();
    return new Response(body, { headers: shape.headers });
  };
  const fetchOf: Record<Exclude<ConstantServerAnswers, 'node-http-arrival-order'>, (request: Request) => Response | Promise<Response>> = {
    'at-once': answer,
    'at-once-paused': pauseAfterRows(async () => answer()),
    'arrival-order': () => new Promise<Response>((resolve) => enqueue(() => resolve(answer()))),
  };
  Bun.serve({ port, hostname: '127.0.0.1', fetch: fetchOf[answers] });
  console.log('listening');
}
