import { type AccountRow, findAccount } from '../accounts/store.ts';
import { arrivedWithin, type Clock, isoSeconds, LATE } from '../clock.ts';
import type { AppConfig } from '../config.ts';
import { ApiError } from '../contract/api-error.ts';
import { ERRORS } from '../contract/errors.ts';
import { HEADERS } from '../contract/headers.ts';
import { IN_PROGRESS_RETRY_AFTER_SECONDS } from '../contract/limits.ts';
import { commitDocument } from '../credits/commit.ts';
import type { Database } from '../db/database.ts';
import { describeError } from '../db/failures.ts';
import { sha256Hex } from '../hash.ts';
import { type Lease, releaseLease } from '../idempotency/lease.ts';
import { newTimeOrderedId } from '../ids.ts';
import { log } from '../log.ts';
import type { DocumentRow, Source } from './record.ts';
import type { DocumentRequest } from './request.ts';

/** A document made, or made again for a replay, with what the answer tells about it. */
export interface CreatedDocument {
  /** The request as checked and normalised. */
  readonly document: DocumentRequest;
  /** The new record, or for a replay the one recorded the first time. */
  readonly row: DocumentRow;
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly creditUsed: boolean;
  readonly creditsRemaining: number;
  readonly replay: boolean;
}

export function inProgress(): ApiError {
  return new ApiError('idempotency_in_progress', {
    message: `A request with this ${HEADERS.idempotencyKey} is still running; retry with the same key.`,
    headers: { [HEADERS.retryAfter]: String(IN_PROGRESS_RETRY_AFTER_SECONDS) },
  });
}

export function insufficientCredits(creditsRemaining: number, periodEnd: number): ApiError {
  return new ApiError('insufficient_credits', {
    message: 'No credit is left for a final document in this period.',
    body: { credits_remaining: creditsRemaining, period_end: isoSeconds(periodEnd) },
  });
}

/** Who asks for a replay, as a refusal names them: an Idempotency-Key of the API's, or a web form. */
export const REPLAY_ASKERS = {
  key: { since: 'this key was used', retry: 'retry with a new key' },
  form: { since: 'this form made its document', retry: 'start a new form' },
} as const;

/**
 * A replay (section 3): the document again, from its record, re-rendered and checked against it; free. Refused
 * 409 when the template has changed since, or the bytes would differ: never different bytes under an old id.
 */
export async function replayOf(
  record: DocumentRow | undefined,
  document: DocumentRequest,
  creditsRemaining: number,
  render: () => Promise<Uint8Array<ArrayBuffer>>,
  asker: (typeof REPLAY_ASKERS)[keyof typeof REPLAY_ASKERS],
): Promise<CreatedDocument> {
  if (!record || record.templateVersion !== document.template.version) {
    throw new ApiError('idempotency_replay_unavailable', {
      detail: 'template_version_changed',
      message: `The ${document.template.slug} template has changed since ${asker.since}; ${asker.retry} (a new document, which uses a credit).`,
    });
  }
  const bytes = await render();
  if (sha256Hex(bytes) !== record.sha256) {
    throw new ApiError('idempotency_replay_unavailable', {
      detail: 'output_changed',
      message: `Making this document again no longer gives the recorded bytes; ${asker.retry}.`,
    });
  }
  return { document, row: record, bytes, creditUsed: false, creditsRemaining, replay: true };
}

/** What was made and for whom: the record is built from it. */
interface MadeDocument {
  readonly document: DocumentRequest;
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly account: AccountRow;
  /** The key that made it; the web app's documents have none (''). */
  readonly keyId: string;
  readonly source: Source;
  readonly lease: Lease | undefined;
}

interface RecordDeps {
  readonly db: Database;
  readonly clock: Clock;
  readonly config: Pick<AppConfig, 'commitTimeoutMs'>;
}

/**
 * The one atomic commit after the PDF exists (credits/commit.ts), for the API and the web app alike: recorded,
 * charged (final) and its key completed, or nothing. A commit that does not answer in time, or fails without
 * saying it wrote nothing, is 500 commit_status_unknown; a lease taken over is 409; no credit left is 402.
 */
export async function recordMade(made: MadeDocument, deps: RecordDeps): Promise<CreatedDocument> {
  const { document, bytes, account, lease } = made;
  const final = document.mode === 'final';
  const createdAt = deps.clock.now();
  const row: DocumentRow = {
    id: newTimeOrderedId('doc', createdAt),
    accountId: account.id,
    keyId: made.keyId,
    template: document.template.slug,
    templateVersion: document.template.version,
    mode: document.mode,
    paper: document.paper,
    locale: document.locale,
    reference: document.reference,
    source: made.source,
    creditsConsumed: final ? 1 : 0,
    sha256: sha256Hex(bytes),
    bytes: bytes.length,
    createdAt,
  };
  let outcome: Awaited<ReturnType<typeof commitDocument>>;
  try {
    const committed = await arrivedWithin(commitDocument(deps.db, { row, charge: final, lease }), deps.config.commitTimeoutMs);
    if (committed === LATE) throw new Error(`commit took longer than ${deps.config.commitTimeoutMs} ms`);
    outcome = committed;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError('commit_status_unknown', {
      message: `The document was made but the credit could not be confirmed. ${ERRORS.commit_status_unknown.action}`,
      creditUsed: null,
    });
  }
  if (outcome.kind === 'lease_lost') throw inProgress();
  if (outcome.kind === 'no_credit') {
    const current = (await findAccount(deps.db, account.id)) ?? account;
    throw insufficientCredits(current.creditsRemaining, current.periodEnd);
  }
  return { document, row, bytes, creditUsed: final, creditsRemaining: outcome.creditsRemaining, replay: false };
}
/** Pauses before each later try to give a key back: together longer than a busy database's wait. */
const GIVE_BACK_RETRIES_MS = [250, 500, 1_000, 2_000, 4_000];

/**
 * Gives the key back when the attempt ends before its document exists, so that a corrected retry can use it.
 * A database too busy to take it now (the answer is then a 503 with Retry-After) gets it again in the
 * background for a few seconds, so that the retry Retry-After asks for finds the key free; should that fail
 * too, the key is taken over after 35 seconds, as a dead attempt's is.
 */
export async function giveBackKey(db: Database, lease: Lease, requestId: string): Promise<void> {
  const attempt = () =>
    releaseLease(db, lease).then(
      () => true,
      (error: unknown) => error,
    );
  let outcome = await attempt();
  if (outcome === true) return;
  void (async () => {
    for (const pause of GIVE_BACK_RETRIES_MS) {
      await new Promise((resolve) => setTimeout(resolve, pause));
      outcome = await attempt();
      if (outcome === true) return;
    }
    log('warn', 'idempotency_key_not_given_back', {
      request_id: requestId,
      error: `${HEADERS.idempotencyKey} not given back: ${describeError(outcome)}`,
    });
  })();
}
