/**
 * The ways test/bench/constant-server.ts serves its requests (its ANSWERS), each with the label of its row in
 * `npm run bench:load`. `at-once` is how Bun.serve serves by itself: it reads the sockets that are ready in one go and
 * runs their handlers in a row, and a socket answered at the end of a row that sends its next request just after
 * that read waits for the whole next row as well (the p99 at 64 in flight then near twice the queueing bound, in
 * the runs where the share of such requests passes 1%). `at-once-paused` is how the service is served: the same,
 * with src/runtimes/pause-after-rows.ts. The two others start requests in the order they arrived, one an event-loop
 * turn, so their answers are made a turn after their requests: Bun.serve then writes each piece of the status line
 * and of every header in a send() of its own (an open Bun pull request, oven-sh/bun#41341, corks them), Bun's
 * node:http writes the answer in one.
 */
export const CONSTANT_SERVER_ANSWERS = {
  'at-once': 'Bun.serve at once',
  'at-once-paused': 'Bun.serve, paused',
  'arrival-order': 'Bun.serve in order',
  'node-http-arrival-order': 'node:http in order',
};

export type ConstantServerAnswers = keyof typeof CONSTANT_SERVER_ANSWERS;

/** The headers (without Date and Content-Length, which the server adds) and body length of a final the service gave. */
export interface AnswerShape {
  headers: [string, string][];
  bytes: number;
}
