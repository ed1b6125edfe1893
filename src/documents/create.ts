import { sql } from 'drizzle-orm';
import { planOf } from '../accounts/plans.ts';
import { hasCredit, periodEndAfter, renewalOf } from '../accounts/store.ts';
import { type AuthContext, admittedInSql, HASH, NOW, requireScope, type SigningIn, signedInCaller } from '../auth/authenticate.ts';
import { type SignInAnswers, SignInPart } from '../auth/sign-in-batch.ts';
import { callerInSql } from '../auth/store.ts';
import type { Clock } from '../clock.ts';
import type { AppConfig } from '../config.ts';
import { ApiError } from '../contract/api-error.ts';
import { HEADERS } from '../contract/headers.ts';
import { sendBatch } from '../db/batch.ts';
import type { Database } from '../db/database.ts';
import { statementOf, statementsPerDatabase } from '../db/prepared.ts';
import { attemptValues, type Lease, leaseDecisionOf, leaseFree, leaseInBatch, leaseTaken } from '../idempotency/lease.ts';
import { newId } from '../ids.ts';
import { isJsonObject, type JsonValue } from '../json/parse.ts';
import { finalBuckets, previewBuckets, replayBuckets } from '../limits/buckets.ts';
import { admissionOf, countingBound, countingStatements, limiterDown, openInSql, reportAdmission } from '../limits/count.ts';
import { bucketsInSql } from '../limits/in-sql.ts';
import type { RateLimitReport } from '../limits/report.ts';
import type { RenderEngine } from '../render/engine.ts';
import { requestFingerprint } from './fingerprint.ts';
import { type CreatedDocument, giveBackKey, inProgress, insufficientCredits, REPLAY_ASKERS, recordMade, replayOf } from './made.ts';
import { type DocumentRow, recordOfAccount, SOURCES } from './record.ts';
import { renderDocument } from './render.ts';
import { type DocumentRequest, parseDocumentRequest } from './request.ts';

interface CreateDocumentInput {
  /** The calling key and its account. */
  readonly auth: AuthContext;
  /** The request body as read, not yet checked. */
  readonly body: JsonValue;
  /** The key of the Idempotency-Key header (readIdempotencyKey); undefined without one. */
  readonly idempotencyKey: string | undefined;
  /** The JSON form was asked for: its size limit applies instead of the file's. */
  readonly asJson: boolean;
  /** For the log lines. */
  readonly requestId: string;
  /** The request's RateLimit report: the document's buckets go into it. */
  readonly rateLimits: RateLimitReport;
  /** Told the render time once the PDF exists, so that the request log has it even if the request then fails. */
  readonly onRendered: (renderMs: number) => void;
}

interface CreateDocumentDeps {
  readonly db: Database;
  readonly clock: Clock;
  readonly config: AppConfig;
  readonly engine: RenderEngine;
}

/** Section 5.4: a final needs documents:create, a preview documents:preview; checked before the fields. */
function requireModeScope(auth: AuthContext, body: JsonValue): void {
  if (!isJsonObject(body)) return;
  if (body.mode === 'final') requireScope(auth, 'documents:create');
  if (body.mode === 'preview') requireScope(auth, 'documents:preview');
}

/** The PDF made anew and committed: charged (final), recorded, the key completed. */
async function makeNew(
  document: DocumentRequest,
  lease: Lease | undefined,
  input: CreateDocumentInput,
  deps: CreateDocumentDeps,
  sent: CreateAnswers,
): Promise<CreatedDocument> {
  const { auth } = input;
  const final = document.mode === 'final';
  // Read in the sign-in's batch after its renewal of an ended credit period.
  const account = auth.account;
  if (deps.config.rateLimitsEnabled) {
    const plan = planOf(account.plan).limits;
    const { now } = sent.prepared;
    const buckets = final ? finalBuckets(auth.key.id, plan) : previewBuckets(account.id, auth.key.id, plan);
    reportAdmission(admissionOf(buckets, now, sent.of('counts')), now, input);
  }
  if (final && account.creditsRemaining <= 0) throw insufficientCredits(account.creditsRemaining, account.periodEnd);
  // A free key is taken in the same batch unless the buckets or the credit refused, both answered above.
  if (input.idempotencyKey !== undefined && !lease) throw inProgress();

  const bytes = await renderDocument(document, input, deps);
  return recordMade({ document, bytes, account, keyId: auth.key.id, source: SOURCES.api, lease }, deps);
}

/**
 * A replay's own batch, once the sign-in's batch has found the key holding a document for the same request: its buckets
 * counted and the document's record read. A round trip of its own (a replay makes two before its render), so that
 * every other keyed request, far more frequent, sends neither part with its sign-in.
 */
async function replayBatch(documentId: string, input: CreateDocumentInput, deps: CreateDocumentDeps, mode: DocumentRequest['mode']) {
  const { auth } = input;
  const now = deps.clock.now();
  const counting = deps.config.rateLimitsEnabled;
  const buckets = replayBuckets(mode, auth.account.id, auth.key.id, planOf(auth.account.plan).limits);
  let answers: readonly unknown[];
  try {
    const statements = [
      ...(counting ? countingBound(deps.db, buckets, now) : []),
      recordOfAccount(deps.db, auth.account.id, documentId, now),
    ];
    answers = await sendBatch(deps.db, statements);
  } catch (error) {
    // The batch writes only when it counts: then, as the sign-in's, a database out of reach is a limiter out of reach.
    if (counting) throw limiterDown(input.requestId, error);
    throw error;
  }
  if (counting) reportAdmission(admissionOf(buckets, now, answers.slice(0, -1)), now, input);
  const [row] = answers.at(-1) as DocumentRow[];
  return row;
}

/** Same key, same request, within 24 hours: the document again, re-rendered and checked against its record. */
async function replay(
  documentId: string,
  document: DocumentRequest,
  input: CreateDocumentInput,
  deps: CreateDocumentDeps,
): Promise<CreatedDocument> {
  const row = await replayBatch(documentId, input, deps, document.mode);
  const render = () => renderDocument(document, input, deps);
  return replayOf(row, document, input.auth.account.creditsRemaining, render, REPLAY_ASKERS.key);
}

/** What prepareCreate worked out to make its statements, which reading their answers needs. */
interface PreparedCreate {
  readonly document: DocumentRequest;
  readonly fingerprint: string;
  readonly leaseId: string;
  readonly now: number;
}

/** The parts of a create's statements, in the order they are sent. */
type Part = 'renewal' | 'lease' | 'counts';
/** What prepareCreate sends with the sign-in (or after it: prepareAfterSignIn). */
export type CreateStatements = SignInPart<Part, PreparedCreate>;
type CreateAnswers = SignInAnswers<Part, PreparedCreate>;

/**
 * The database's part of a create, as statements sent in the sign-in's round trip (one batch, one transaction),
 * each only where the request gets that far: the key active, the request admitted by its requests bucket and
 * the key holding the mode's scope (`ok`). In order: an ended credit period renewed; with an Idempotency-Key,
 * the key's row read and the key taken where free, only while the mode's buckets are open and, for a final, a
 * credit is left (a replay is found there, and sends its own batch: replayBatch); the mode's buckets counted for a
 * new document (with a key: once the key is taken, or for a final refused 402 because no credit is left). Undefined
 * when the body is no document request: createDocument refuses it, nothing to send.
 */
export function prepareCreate(
  input: Pick<CreateDocumentInput, 'body' | 'idempotencyKey'>,
  deps: Pick<CreateDocumentDeps, 'db' | 'config'>,
  caller: SigningIn,
): CreateStatements | undefined {
  let document: DocumentRequest;
  try {
    document = parseDocumentRequest(input.body);
  } catch {
    return undefined;
  }
  return prepareDocument(document, input.idempotencyKey, deps, caller);
}

/** What changes the text of a create's statements (each combination built once per database). */
interface CreateVariant {
  readonly final: boolean;
  readonly idempotent: boolean;
  readonly limits: boolean;
  /** The sign-in counts the request in the same batch (SigningIn). */
  readonly counting: boolean;
}

const PERIOD_END = sql.placeholder('period_end');

/**
 * prepareCreate's statements for one variant, by part, with placeholders for the caller's hash, the time and the
 * attempt (bound per request).
 */
const createStatements = statementsPerDatabase((db, { final, idempotent, limits, counting }: CreateVariant) => {
  const caller = callerInSql(HASH);
  const ok = sql`${admittedInSql(caller, counting)} AND ${caller.hasScope(final ? 'documents:create' : 'documents:preview')}`;
  // Without rate limits no bucket is named in SQL.
  const buckets = limits
    ? bucketsInSql((keyId, accountId, plan) => (final ? finalBuckets(keyId, plan) : previewBuckets(accountId, keyId, plan)), caller)
    : [];
  const parts: Record<Part, readonly Parameters<typeof statementOf>[0][]> = {
    renewal: [renewalOf(db, caller.accountId, { now: NOW, periodEnd: PERIOD_END }, ok)],
    lease: [],
    counts: [],
  };
  let counted = ok;
  if (idempotent) {
    const { accountId } = caller;
    const credit = final ? hasCredit(accountId) : sql`1 = 1`;
    const open = limits ? openInSql(buckets, { key: caller.keyRow }) : sql`1 = 1`;
    parts.lease = leaseInBatch(db, accountId, sql`${ok} AND ${leaseFree(accountId)} AND ${credit} AND ${open}`);
    // The lease this batch took was taken only where `ok` held (this attempt's lease id is new): SQLite works
    // `ok` out again only for the other case, and each term only while the ones before it hold.
    counted = sql`(${leaseTaken(accountId)} OR (${ok} AND NOT ${credit} AND ${leaseFree(accountId)}))`;
  }
  // A final counts on the key's row, a preview in its windows: where each bucket is stored (src/limits/buckets.ts).
  if (limits) parts.counts = countingStatements(db, buckets, { condition: counted, key: caller.keyRow });
  return {
    renewal: parts.renewal.map(statementOf),
    lease: parts.lease.map(statementOf),
    counts: parts.counts.map(statementOf),
  };
});

/** prepareCreate's statements for a request already checked, bound to its values. */
function prepareDocument(
  document: DocumentRequest,
  idempotencyKey: string | undefined,
  deps: Pick<CreateDocumentDeps, 'db' | 'config'>,
  caller: SigningIn,
): CreateStatements {
  const now = caller.values.now as number;
  const final = document.mode === 'final';
  const idempotent = idempotencyKey !== undefined;
  const variant = { final, idempotent, limits: deps.config.rateLimitsEnabled, counting: caller.counting };
  const statements = createStatements(deps.db, variant);
  const fingerprint = requestFingerprint(document);
  const leaseId = newId('lease');
  const values = {
    ...caller.values,
    period_end: periodEndAfter(now),
    ...(idempotent ? attemptValues({ key: idempotencyKey, fingerprint, leaseId, now }) : {}),
  };
  const bound = (part: Part) => statements[part].map((statement) => statement.bind(values));
  return new SignInPart<Part, PreparedCreate>({ document, fingerprint, leaseId, now })
    .add('renewal', bound('renewal'))
    .add('lease', bound('lease'))
    .add('counts', bound('counts'));
}

/**
 * A body that came too late to go with the sign-in (the route waits for it only so long): the same statements in
 * a batch of their own, for the caller already signed in and counted in its requests bucket. A body that is no
 * document request is refused here, in the contract's order, with nothing sent.
 */
async function prepareAfterSignIn(input: CreateDocumentInput, deps: CreateDocumentDeps): Promise<CreateAnswers> {
  const caller = signedInCaller(input.auth, deps.clock.now());
  const part = prepareDocument(parseDocumentRequest(input.body), input.idempotencyKey, deps, caller);
  return part.answered(await sendBatch(deps.db, part.statements()));
}

/**
 * Makes a document (section 4.2), or gives the one an Idempotency-Key already made. Order: scope by mode, every
 * check of the validate route, the idempotency decision, the document's rate limits, the credit check, render,
 * then one atomic commit; the caller reads the key header and the body before, and sends nothing until this
 * returns. The database work before the render was done by prepareCreate's statements in the sign-in's batch
 * (`sent`, with their answers; undefined when they could not go with it); this reads their answers in the contract's
 * order.
 */
export async function createDocument(
  input: CreateDocumentInput,
  deps: CreateDocumentDeps,
  sent: CreateAnswers | undefined,
): Promise<CreatedDocument> {
  const { auth, body, idempotencyKey } = input;
  requireModeScope(auth, body);
  const answers = sent ?? (await prepareAfterSignIn(input, deps));
  const { prepared } = answers;
  const { document } = prepared;

  let lease: Lease | undefined;
  if (idempotencyKey !== undefined) {
    const { fingerprint, leaseId } = prepared;
    const decision = leaseDecisionOf({ accountId: auth.account.id, key: idempotencyKey, fingerprint, leaseId }, answers.of('lease'));
    if (decision.kind === 'reused') {
      throw new ApiError('idempotency_key_reused', {
        message: `This ${HEADERS.idempotencyKey} was used for a different request; use a new key.`,
      });
    }
    if (decision.kind === 'in_progress') throw inProgress();
    if (decision.kind === 'replay') return replay(decision.documentId, document, input, deps);
    if (decision.kind === 'acquired') lease = decision.lease;
  }

  try {
    return await makeNew(document, lease, input, deps, answers);
  } catch (error) {
    const unconfirmed = error instanceof ApiError && error.code === 'commit_status_unknown';
    if (lease && !unconfirmed) await giveBackKey(deps.db, lease, input.requestId);
    throw error;
  }
}
