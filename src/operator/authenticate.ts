import { ApiError } from '../contract/api-error.ts';
import { HEADERS } from '../contract/headers.ts';
import { sha256Hex } from '../hash.ts';
import { authFailureBucket } from '../limits/buckets.ts';
import { countRequest, type LimiterDeps } from '../limits/count.ts';
import { networkOf } from '../limits/network.ts';

/** What an operator request presents: the Authorization header as sent (null without one) and where it came from. */
interface OperatorAttempt {
  readonly authorization: string | null;
  readonly clientAddress: string | undefined;
  readonly requestId: string;
}

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * Whether two hex digests of the same length are equal, looking at every character whatever the first
 * difference: comparing digests rather than the texts themselves keeps the secret's length out of the timing too.
 */
function sameDigest(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i % b.length);
  return difference === 0;
}

/**
 * Lets an operator request through when it carries `Authorization: Bearer <OPERATOR_SECRET>`, compared in
 * constant time through SHA-256 digests; otherwise 401, one answer for a missing, malformed or wrong secret.
 * Each failure is counted for the client's network in the same window as the API's failed sign-ins, and past
 * that limit answered 429 instead; as for a key, the right secret is never refused by it. The secret is never
 * put in an answer or a log line.
 */
export async function authenticateOperator(attempt: OperatorAttempt, secretDigest: string, deps: LimiterDeps): Promise<void> {
  const presented = BEARER.exec(attempt.authorization ?? '')?.[1] ?? '';
  if (sameDigest(sha256Hex(presented), secretDigest)) return;
  await countRequest([authFailureBucket(networkOf(attempt.clientAddress))], deps, { requestId: attempt.requestId });
  throw new ApiError('unauthorized', {
    message: `Send the header ${HEADERS.authorization}: Bearer <OPERATOR_SECRET>, the secret the deployment is configured with.`,
  });
}
