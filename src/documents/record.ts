import { and, desc, eq, gt, gte, lt, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { HASH, type SigningIn } from '../auth/authenticate.ts';
import { callerInSql } from '../auth/store.ts';
import { isoSeconds } from '../clock.ts';
import { LIMITS } from '../contract/limits.ts';
import type { Database } from '../db/database.ts';
import { statementOf, statementsPerDatabase } from '../db/prepared.ts';
import { documents } from '../db/schema.ts';

export type DocumentRow = typeof documents.$inferSelect;

export const RETENTION_MS = LIMITS.historyRetentionDays * 24 * 60 * 60 * 1000;

/** The Document object of spec 2.6: metadata only, never the fields, never the PDF. */
export function documentObject(row: DocumentRow) {
  return {
    id: row.id,
    object: 'document',
    template: row.template,
    template_version: row.templateVersion,
    mode: row.mode,
    paper: row.paper,
    locale: row.locale,
    reference: row.reference,
    source: row.source,
    credits_consumed: row.creditsConsumed,
    sha256: row.sha256,
    bytes: row.bytes,
    content_type: 'application/pdf',
    created_at: isoSeconds(row.createdAt),
    file_url: null,
  };
}

/**
 * An account's id: known, as SQL read in the same batch (the account of the key signing in, CallerInSql), so
 * that a route's read goes with the sign-in, or a placeholder bound per request.
 */
type AccountId = string | SQL | Placeholder;

/**
 * Records are visible to their account for 90 days, and gone from view the moment they are older: made after
 * `visibleAfter`, RETENTION_MS before the request's time (a placeholder in statements built once).
 */
const visible = (accountId: AccountId, visibleAfter: number | Placeholder) =>
  and(eq(documents.accountId, accountId), gt(documents.createdAt, visibleAfter));

/** The query of findDocument: at most one row, made after `visibleAfter` (see visible). */
function documentQuery(db: Database, accountId: AccountId, id: string | Placeholder, visibleAfter: number | Placeholder) {
  return db
    .select()
    .from(documents)
    .where(and(visible(accountId, visibleAfter), eq(documents.id, id)));
}

const RECORD_ID = sql.placeholder('record_id');
const VISIBLE_AFTER = sql.placeholder('visible_after');

/**
 * documentQuery as a statement built once per database, for a batch: the caller's account named by its key's hash
 * (`caller`, bound from SigningIn's values) or by its id (`account`). Drizzle building it for each request cost
 * 20 µs of a replay's or a GET's time (issue 19).
 */
const recordStatements = statementsPerDatabase((db, { of }: { of: 'caller' | 'account' }) =>
  statementOf(documentQuery(db, of === 'caller' ? callerInSql(HASH).accountId : sql.placeholder('account_id'), RECORD_ID, VISIBLE_AFTER)),
);

/** The caller's record `id` visible at `now`, read in the sign-in's batch (at most one row). */
export function recordOfCaller(db: Database, caller: SigningIn, id: string, now: number) {
  return recordStatements(db, { of: 'caller' }).bind({ ...caller.values, record_id: id, visible_after: now - RETENTION_MS });
}

/** The account's record `id` visible at `now`, for a batch (at most one row). */
export function recordOfAccount(db: Database, accountId: string, id: string, now: number) {
  return recordStatements(db, { of: 'account' }).bind({ account_id: accountId, record_id: id, visible_after: now - RETENTION_MS });
}

async function findDocument(db: Database, accountId: AccountId, id: string, now: number): Promise<DocumentRow | undefined> {
  const [row] = await documentQuery(db, accountId, id, now - RETENTION_MS);
  return row;
}

/**
 * How a document was made (2.6 `source`). GET /api/v1/documents lists the documents "the account made through the
 * API" (4.4): `api` only; Settings' history lists every source. GET /api/v1/documents/{id} shows any of the account's.
 */
export const SOURCES = { api: 'api', web: 'web' } as const;
export type Source = (typeof SOURCES)[keyof typeof SOURCES];

/** created_at as the Document object shows it: whole seconds (the stored value has milliseconds). */
const createdSecond = sql`${documents.createdAt} / 1000`;

/**
 * The query of a page of the history, newest first by created_at as shown (whole seconds) then id, both descending (section
 * 2.8); one extra row tells has_more. The stored milliseconds must not order documents of one second, so the
 * page is sorted on the second; to keep that sort small and the index in use, only rows at or after the second
 * of the page's last row in stored order are read: every row of the page is among them.
 */
export function listQuery(
  db: Database,
  input: { accountId: AccountId; now: number; limit: number; reference?: string; source?: Source; after?: DocumentRow },
) {
  const { after } = input;
  const afterSecondStart = after ? Math.floor(after.createdAt / 1000) * 1000 : undefined;
  // One lower bound on created_at, so that SQLite searches the index by it rather than by the retention bound.
  const listed = (createdFrom: SQL) =>
    and(
      eq(documents.accountId, input.accountId),
      gte(documents.createdAt, createdFrom),
      input.reference === undefined ? undefined : eq(documents.reference, input.reference),
      input.source === undefined ? undefined : eq(documents.source, input.source),
      after && afterSecondStart !== undefined
        ? and(lt(documents.createdAt, afterSecondStart + 1000), or(lt(documents.createdAt, afterSecondStart), lt(documents.id, after.id)))
        : undefined,
    );
  const firstVisible = input.now - RETENTION_MS + 1;
  const lastInStoredOrder = db
    .select({ createdAt: documents.createdAt })
    .from(documents)
    .where(listed(sql`${firstVisible}`))
    .orderBy(desc(documents.createdAt))
    .limit(input.limit + 1);
  return db
    .select()
    .from(documents)
    .where(listed(sql`max(${firstVisible}, (SELECT min(created_at) / 1000 * 1000 FROM (${lastInStoredOrder})))`))
    .orderBy(desc(createdSecond), desc(documents.id))
    .limit(input.limit + 1);
}

/** A page from the rows of listQuery, which reads one more than the page holds. */
export function pageOf(rows: DocumentRow[], limit: number): { rows: DocumentRow[]; hasMore: boolean } {
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

/**
 * A page of the history after the document `startingAfter` (the cursor the API calls `starting_after` and
 * Settings `cursor`), or undefined when that is not one of the account's listable documents; with `source`, of
 * that source only.
 */
export async function historyPage(
  db: Database,
  input: { accountId: string; now: number; limit: number; reference?: string; source?: Source; startingAfter?: string },
): Promise<{ rows: DocumentRow[]; hasMore: boolean } | undefined> {
  const { startingAfter, ...page } = input;
  if (startingAfter === undefined) return pageOf(await listQuery(db, page), page.limit);
  const found =
    startingAfter.length <= LIMITS.startingAfterChars ? await findDocument(db, input.accountId, startingAfter, input.now) : undefined;
  // A cursor must be one of the documents the page lists: of its source, when it lists one.
  const after = found && (input.source === undefined || found.source === input.source) ? found : undefined;
  return after ? pageOf(await listQuery(db, { ...page, after }), page.limit) : undefined;
}
