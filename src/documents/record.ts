import { and, desc, eq, gt, lt, or } from 'drizzle-orm';
import { isoSeconds } from '../clock.ts';
import { LIMITS } from '../contract/limits.ts';
import type { Database } from '../db/database.ts';
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

/** Records are visible to their account for 90 days, and gone from view the moment they are older. */
const visible = (accountId: string, now: number) => and(eq(documents.accountId, accountId), gt(documents.createdAt, now - RETENTION_MS));

export async function findDocument(db: Database, accountId: string, id: string, now: number): Promise<DocumentRow | undefined> {
  const [row] = await db.select().from(documents).where(and(visible(accountId, now), eq(documents.id, id)));
  return row;
}

/** A page of the history, newest first by created_at then id, both descending; one extra row tells has_more. */
export async function listDocuments(
  db: Database,
  input: { accountId: string; now: number; limit: number; reference?: string; after?: DocumentRow },
): Promise<{ rows: DocumentRow[]; hasMore: boolean }> {
  const { after } = input;
  const rows = await db
    .select()
    .from(documents)
    .where(
      and(
        visible(input.accountId, input.now),
        input.reference === undefined ? undefined : eq(documents.reference, input.reference),
        after
          ? or(lt(documents.createdAt, after.createdAt), and(eq(documents.createdAt, after.createdAt), lt(documents.id, after.id)))
          : undefined,
      ),
    )
    .orderBy(desc(documents.createdAt), desc(documents.id))
    .limit(input.limit + 1);
  return { rows: rows.slice(0, input.limit), hasMore: rows.length > input.limit };
}
