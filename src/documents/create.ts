import { planOf } from '../accounts/plans.ts';
import { findAccount, renewPeriodIfEnded } from '../accounts/store.ts';
import { type AuthContext, requireScope } from '../auth/authenticate.ts';
import { isoSeconds } from '../clock.ts';
import { ApiError } from '../contract/api-error.ts';
import { HEADERS } from '../contract/headers.ts';
import { ENGINE_BUSY_RETRY_AFTER_SECONDS, IN_PROGRESS_RETRY_AFTER_SECONDS } from '../contract/limits.ts';
import { commitDocument } from '../credits/commit.ts';
import type { Database } from '../db/database.ts';
import { describeError } from '../db/failures.ts';
import { sha256Hex } from '../hash.ts';
import { wantsJson } from '../http/accept.ts';
import { readJsonBody } from '../http/body.ts';
import type { KeyedContext } from '../http/context.ts';
import { requestFingerprint } from '../idempotency/fingerprint.ts';
import { readIdempotencyKey } from '../idempotency/key.ts';
import { acquireLease, type Lease, releaseLease } from '../idempotency/lease.ts';
import { newId } from '../ids.ts';
import { isJsonObject, type JsonValue } from '../json/parse.ts';
import { finalBuckets, previewBuckets, replayBuckets } from '../limits/buckets.ts';
import { countRequest } from '../limits/count.ts';
import { EngineBusy, RenderTimedOut, UndrawableText } from '../render/errors.ts';
import { documentFilename } from './filename.ts';
import { findDocument } from './record.ts';
import { type DocumentRequest, parseDocumentRequest, renderInputOf } from './request.ts';
import { documentCreated } from './respond.ts';

/** Section 5.4: a final needs documents:create, a preview documents:preview; checked before the fields. */
function requireModeScope(auth: AuthContext, body: JsonValue): void {
  if (!isJsonObject(body)) return;
  if (body.mode === 'final') requireScope(auth, 'documents:create');
  if (body.mode === 'preview') requireScope(auth, 'documents:preview');
}

function inProgress(): ApiError {
  return new ApiError('idempotency_in_progress', {
    message: 'A request with this Idempotency-Key is still running; retry with the same key.',
    headers: { [HEADERS.retryAfter]: String(IN_PROGRESS_RETRY_AFTER_SECONDS) },
  });
}

function insufficientCredits(creditsRemaining: number, periodEnd: number): ApiError {
  return new ApiError('insufficient_credits', {
    message: 'No credit is left for a final document in this period.',
    body: { credits_remaining: creditsRemaining, period_end: isoSeconds(periodEnd) },
  });
}

/** Renders, refusing what the fonts cannot draw (422) and what is too large to send in the asked form (413). */
async function render(context: KeyedContext, document: DocumentRequest, asJson: boolean): Promise<Uint8Array<ArrayBuffer>> {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    const started = performance.now();
    bytes = await context.engine.render(renderInputOf(document));
    context.trace.renderMs = (context.trace.renderMs ?? 0) + performance.now() - started;
  } catch (error) {
    throw renderRefusal(error);
  }
  const limit = asJson ? context.deps.config.pdfJsonLimit : context.deps.config.pdfFileLimit;
  if (bytes.length > limit) {
    throw new ApiError('response_too_large', {
      message: `The PDF is ${bytes.length} bytes, over the ${limit}-byte limit of the ${asJson ? 'JSON' : 'file'} form; nothing was charged.`,
    });
  }
  return bytes;
}

/** The contract's answer to a renderer's refusal; anything else is not a refusal and goes on as it is. */
function renderRefusal(error: unknown): unknown {
  if (error instanceof UndrawableText) {
    return new ApiError('render_rejected', {
      message: `The document contains characters the bundled fonts cannot draw (${error.message.replace('cannot draw ', '')}); nothing was charged.`,
    });
  }
  if (error instanceof EngineBusy) {
    return new ApiError('engine_busy', {
      message: 'The PDF engine is at capacity; retry shortly. Nothing was charged.',
      headers: { [HEADERS.retryAfter]: String(ENGINE_BUSY_RETRY_AFTER_SECONDS) },
    });
  }
  if (error instanceof RenderTimedOut) return new ApiError('render_timeout', { message: 'Rendering took too long; nothing was charged.' });
  return error;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`commit took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => {
    if (timer !== undefined) clearTimeout(timer);
  });
}

async function makeNew(context: KeyedContext, document: DocumentRequest, lease: Lease | undefined, asJson: boolean): Promise<Response> {
  const { deps, auth } = context;
  const final = document.mode === 'final';
  const plan = planOf(auth.account.plan).limits;
  await countRequest(context, final ? finalBuckets(auth.key.id, plan) : previewBuckets(auth.account.id, auth.key.id, plan));
  const account = await renewPeriodIfEnded(deps.db, auth.account, deps.clock.now());
  if (final && account.creditsRemaining <= 0) throw insufficientCredits(account.creditsRemaining, account.periodEnd);

  const bytes = await render(context, document, asJson);
  const row = {
    id: newId('doc'),
    accountId: account.id,
    keyId: auth.key.id,
    template: document.template.slug,
    templateVersion: document.template.version,
    mode: document.mode,
    paper: document.paper,
    locale: document.locale,
    reference: document.reference,
    source: 'api',
    creditsConsumed: final ? 1 : 0,
    sha256: sha256Hex(bytes),
    bytes: bytes.length,
    createdAt: deps.clock.now(),
  };
  let outcome: Awaited<ReturnType<typeof commitDocument>>;
  try {
    outcome = await withTimeout(commitDocument(deps.db, { row, charge: final, lease }), deps.config.commitTimeoutMs);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError('commit_status_unknown', {
      message:
        'The document was made but the credit could not be confirmed. Wait 35 seconds, then retry with the same Idempotency-Key; you are charged at most once.',
      creditUsed: null,
    });
  }
  if (outcome.kind === 'lease_lost') throw inProgress();
  if (outcome.kind === 'no_credit') {
    const current = (await findAccount(deps.db, account.id)) ?? account;
    throw insufficientCredits(current.creditsRemaining, current.periodEnd);
  }
  return documentCreated(
    {
      row: { ...row, reference: row.reference },
      bytes,
      filename: documentFilename(document),
      totals: document.totals,
      digits: document.digits,
      creditUsed: final,
      creditsRemaining: outcome.creditsRemaining,
      replay: false,
    },
    asJson,
  );
}

/** Same key, same request, within 24 hours: the document again, re-rendered and checked against its record. */
async function replay(context: KeyedContext, document: DocumentRequest, documentId: string, asJson: boolean): Promise<Response> {
  const { deps, auth } = context;
  await countRequest(context, replayBuckets(document.mode, auth.account.id, auth.key.id, planOf(auth.account.plan).limits));
  const row = await findDocument(deps.db, auth.account.id, documentId, deps.clock.now());
  if (!row || row.templateVersion !== document.template.version) {
    throw new ApiError('idempotency_replay_unavailable', {
      detail: 'template_version_changed',
      message: `The ${document.template.slug} template has changed since this key was used; retry with a new key (a new document, which uses a credit).`,
    });
  }
  const bytes = await render(context, document, asJson);
  if (sha256Hex(bytes) !== row.sha256) {
    throw new ApiError('idempotency_replay_unavailable', {
      detail: 'output_changed',
      message: 'Making this document again no longer gives the recorded bytes; retry with a new key.',
    });
  }
  const account = (await findAccount(deps.db, auth.account.id)) ?? auth.account;
  return documentCreated(
    {
      row,
      bytes,
      filename: documentFilename(document),
      totals: document.totals,
      digits: document.digits,
      creditUsed: false,
      creditsRemaining: account.creditsRemaining,
      replay: true,
    },
    asJson,
  );
}

/** Pauses before each later try to give a key back: about 8 seconds in all, past a busy database's wait. */
const GIVE_BACK_RETRIES_MS = [250, 500, 1_000, 2_000, 4_000];

/**
 * Gives the key back when the attempt ends before its document exists, so that a corrected retry can use it.
 * A database too busy to take it now (the answer is then a 503 with Retry-After) gets it again in the
 * background for a few seconds, so that the retry Retry-After asks for finds the key free; should that fail
 * too, the key is taken over after 35 seconds, as a dead attempt's is.
 */
async function giveBackKey(db: Database, lease: Lease, requestId: string): Promise<void> {
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
    console.error(
      JSON.stringify({ level: 'warn', request_id: requestId, error: `Idempotency-Key not given back: ${describeError(outcome)}` }),
    );
  })();
}

/**
 * POST /api/v1/documents. Order: key header, body, scope by mode, every check of the validate route, the
 * idempotency decision, the credit check, render, then one atomic commit before anything is sent.
 */
export async function createDocument(context: KeyedContext): Promise<Response> {
  const { deps, auth, request } = context;
  const idempotencyKey = readIdempotencyKey(request);
  const body = await readJsonBody(request);
  requireModeScope(auth, body);
  const document = parseDocumentRequest(body);
  const asJson = wantsJson(request.headers.get('Accept'));

  let lease: Lease | undefined;
  if (idempotencyKey !== undefined) {
    const decision = await acquireLease(deps.db, {
      accountId: auth.account.id,
      key: idempotencyKey,
      fingerprint: requestFingerprint(document),
      now: deps.clock.now(),
    });
    if (decision.kind === 'reused') {
      throw new ApiError('idempotency_key_reused', { message: 'This Idempotency-Key was used for a different request; use a new key.' });
    }
    if (decision.kind === 'in_progress') throw inProgress();
    if (decision.kind === 'replay') return replay(context, document, decision.documentId, asJson);
    lease = decision.lease;
  }

  try {
    return await makeNew(context, document, lease, asJson);
  } catch (error) {
    const unconfirmed = error instanceof ApiError && error.code === 'commit_status_unknown';
    if (lease && !unconfirmed) await giveBackKey(deps.db, lease, context.requestId);
    throw error;
  }
}
