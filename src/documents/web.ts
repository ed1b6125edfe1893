import { sql } from 'drizzle-orm';
import { planOf } from '../accounts/plans.ts';
import { type AccountRow, hasCredit, periodEndAfter, renewalOf } from '../accounts/store.ts';
import type { Clock } from '../clock.ts';
import type { AppConfig } from '../config.ts';
import { ApiError } from '../contract/api-error.ts';
import { sendBatch } from '../db/batch.ts';
import type { Database } from '../db/database.ts';
import { preparedPerDatabase, statementOf } from '../db/prepared.ts';
import { accounts } from '../db/schema.ts';
import { attemptValues, leaseDecisionOf, leaseInBatch, MEMORY_MS } from '../idempotency/lease.ts';
import { base32, newId } from '../ids.ts';
import type { JsonValue } from '../json/parse.ts';
import { previewBuckets, replayBuckets, webFinalBuckets } from '../limits/buckets.ts';
import { countRequest } from '../limits/count.ts';
import type { RenderEngine } from '../render/engine.ts';
import { requestFingerprint } from './fingerprint.ts';
import { type CreatedDocument, giveBackKey, inProgress, insufficientCredits, REPLAY_ASKERS, recordMade, replayOf } from './made.ts';
import { type DocumentRow, recordOfAccount, SOURCES } from './record.ts';
import { renderDocument } from './render.ts';
import { type DocumentRequest, parseDocumentRequest } from './request.ts';

/** A document asked for in the web app: the signed-in account, the body its form makes, and the form's own id. */
export interface WebDocumentInput {
  readonly account: AccountRow;
  /** The request body the form's fields make (src/pages/document-form): checked exactly as the API checks it. */
  readonly body: JsonValue;
  /**
   * The random id the form was shown with: a final made from one form is made once, whatever the browser sends
   * again (a double click, a reload of the answer, the back button, a second tab with the same page).
   */
  readonly formId: string;
  readonly requestId: string;
  readonly onRendered: (renderMs: number) => void;
}

export interface WebDocumentDeps {
  readonly db: Database;
  readonly clock: Clock;
  readonly config: AppConfig;
  readonly engine: RenderEngine;
}

/**
 * The form sent again after its final was made, with other fields: it made its document already, and this would
 * be another one (another credit), which only a deliberate new form may make.
 */
export class FormAlreadyUsed extends Error {}

/**
 * A form older than the idempotency memory (24 hours): its final would no longer be found, so sent again it would
 * make a second document. Refused instead: the page offers a fresh form.
 */
export class FormExpired extends Error {}

const FORM_ID = /^([0-9a-z]{1,11})\.[0-9a-z]{52}$/;

/**
 * A form's id: the time it was made (base 36 milliseconds), then 256 random bits. The time lets a final refuse a
 * form its idempotency memory would have forgotten; the random part makes the form's key its own.
 */
export function newFormId(now: number): string {
  return `${now.toString(36)}.${base32(crypto.getRandomValues(new Uint8Array(32)))}`;
}

export function isFormId(text: string): boolean {
  return FORM_ID.test(text);
}

/** Whether a final of this form is still held by the idempotency memory (a form from the future is no form). */
function formStillRemembered(formId: string, now: number): boolean {
  const madeAt = Number.parseInt(FORM_ID.exec(formId)?.[1] ?? '', 36);
  return madeAt <= now && now - madeAt < MEMORY_MS;
}

/**
 * The Idempotency-Key a web form's final is held under, in the account's own keys (idempotency_keys). The API's
 * keys are visible ASCII only, so a key with spaces can never be one of the API's.
 */
function webIdempotencyKey(formId: string): string {
  return `web form ${formId}`;
}

const ACCOUNT_ID = sql.placeholder('account_id');

/**
 * A web final's statements before its render, in one batch: an ended credit period renewed, the form's key taken
 * where it is free and a credit is left (or found holding the document it made), and the account read after.
 */
const webFinalStatements = preparedPerDatabase((db) => {
  const accountId = sql`${ACCOUNT_ID}`;
  return [
    renewalOf(db, accountId, { now: sql.placeholder('now'), periodEnd: sql.placeholder('period_end') }, sql`1 = 1`),
    ...leaseInBatch(db, accountId, hasCredit(accountId)),
    db.select().from(accounts).where(sql`${accounts.id} = ${ACCOUNT_ID}`),
  ].map(statementOf);
});

/**
 * Makes a document for the web app (section 4.2's checks and order, without a key): a preview counted in the
 * account's preview buckets and everyone's together, never a key's; a final charged once per form through the
 * same atomic commit as the API's (credits/commit.ts), counted in the account's web finals per minute. The record
 * says `source: "web"` and names no key; the fields are not stored.
 */
export async function makeWebDocument(input: WebDocumentInput, deps: WebDocumentDeps): Promise<CreatedDocument> {
  const document = parseDocumentRequest(input.body);
  const plan = planOf(input.account.plan).limits;
  const counted = { requestId: input.requestId };
  const render = () => renderDocument(document, { asJson: false, onRendered: input.onRendered }, deps);
  if (document.mode === 'preview') {
    await countRequest(previewBuckets(input.account.id, undefined, plan), deps, counted);
    const bytes = await render();
    return recordMade({ document, bytes, account: input.account, keyId: '', source: SOURCES.web, lease: undefined }, deps);
  }

  const now = deps.clock.now();
  if (!formStillRemembered(input.formId, now)) throw new FormExpired();
  const key = webIdempotencyKey(input.formId);
  const fingerprint = requestFingerprint(document);
  const leaseId = newId('lease');
  const values = {
    account_id: input.account.id,
    now,
    period_end: periodEndAfter(now),
    ...attemptValues({ key, fingerprint, leaseId, now }),
  };
  const statements = webFinalStatements(deps.db).map((statement) => statement.bind(values));
  const [, before, taken, accountRows] = await sendBatch(deps.db, statements);
  const account = (accountRows as AccountRow[])[0] ?? input.account;
  const decision = leaseDecisionOf({ accountId: account.id, key, fingerprint, leaseId }, [before, taken]);
  if (decision.kind === 'reused') throw new FormAlreadyUsed();
  if (decision.kind === 'in_progress') throw inProgress();
  if (decision.kind === 'replay') return replay(decision.documentId, document, account, render, counted, deps);
  // The key was free and not taken: the one condition of taking it, a credit left, did not hold.
  if (decision.kind === 'free') throw insufficientCredits(account.creditsRemaining, account.periodEnd);

  const { lease } = decision;
  try {
    await countRequest(webFinalBuckets(account.id, plan), deps, counted);
    const bytes = await render();
    return await recordMade({ document, bytes, account, keyId: '', source: SOURCES.web, lease }, deps);
  } catch (error) {
    const unconfirmed = error instanceof ApiError && error.code === 'commit_status_unknown';
    if (!unconfirmed) await giveBackKey(deps.db, lease, input.requestId);
    throw error;
  }
}

/** The form's final again: its document re-rendered, checked against its record, free (section 3's replay). */
async function replay(
  documentId: string,
  document: DocumentRequest,
  account: AccountRow,
  render: () => Promise<Uint8Array<ArrayBuffer>>,
  counted: { readonly requestId: string },
  deps: WebDocumentDeps,
): Promise<CreatedDocument> {
  await countRequest(replayBuckets('final', account.id, undefined, planOf(account.plan).limits), deps, counted);
  const [rows] = await sendBatch(deps.db, [recordOfAccount(deps.db, account.id, documentId, deps.clock.now())]);
  return replayOf((rows as DocumentRow[])[0], document, account.creditsRemaining, render, REPLAY_ASKERS.form);
}
