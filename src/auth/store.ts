import { and, eq, isNull, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { AccountRow } from '../accounts/store.ts';
import { KEY_KINDS, type KeyKind, type Scope } from '../contract/scopes.ts';
import type { Database } from '../db/database.ts';
import { EXISTS } from '../db/exists.ts';
import { fragmentPerValue } from '../db/prepared.ts';
import { accounts, apiKeys } from '../db/schema.ts';
import { newId } from '../ids.ts';
import type { CallerInSql } from '../limits/in-sql.ts';
import { displayPrefix, generateKey, hashKey } from './key-format.ts';

export const MAX_ACTIVE_KEYS = 3;
/** last_used_at is written at most once a minute per key, not on every request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export type KeyRow = typeof apiKeys.$inferSelect;

interface NewKey {
  id: string;
  key: string;
  prefix: string;
  name: string;
  scopes: Scope[];
}

export type CreateKeyFailure = 'account_not_found' | 'email_not_confirmed' | 'too_many_keys' | 'form_already_used';

export function scopesOf(row: Pick<KeyRow, 'scopes'>): Scope[] {
  return row.scopes.split(' ') as Scope[];
}

/**
 * Creates a key in one INSERT … SELECT whose WHERE checks the confirmed email and fewer than three active keys,
 * so concurrent creations cannot pass the limit together. `formId` is the Settings form that asks (one random id
 * per form shown): the unique (account, form) index makes a form sent twice, a reload of the page that answered
 * it, create nothing the second time.
 */
export async function createKey(
  db: Database,
  input: { accountId: string; kind: KeyKind; name: string; now: number; formId?: string },
): Promise<NewKey | CreateKeyFailure> {
  const key = generateKey();
  const id = newId('key');
  const prefix = displayPrefix(key);
  const scopes = [...KEY_KINDS[input.kind].scopes];
  const inserted = await db.all<{ id: string }>(sql`
    INSERT INTO ${apiKeys} (id, account_id, name, kind, prefix, hash, scopes, created_at, form_id)
    SELECT ${id}, ${input.accountId}, ${input.name}, ${input.kind}, ${prefix}, ${hashKey(key)}, ${scopes.join(' ')}, ${input.now}, ${input.formId ?? null}
    WHERE ${EXISTS} (SELECT 1 FROM ${accounts} WHERE id = ${input.accountId} AND email_confirmed = 1)
      AND (SELECT COUNT(*) FROM ${apiKeys} WHERE account_id = ${input.accountId} AND revoked_at IS NULL) < ${MAX_ACTIVE_KEYS}
    ON CONFLICT (account_id, form_id) DO NOTHING
    RETURNING id`);
  if (inserted.length === 1) return { id, key, prefix, name: input.name, scopes };
  const [account] = await db.select().from(accounts).where(eq(accounts.id, input.accountId));
  if (!account) return 'account_not_found';
  if (input.formId !== undefined) {
    const [sent] = await db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(and(eq(apiKeys.accountId, input.accountId), eq(apiKeys.formId, input.formId)));
    if (sent) return 'form_already_used';
  }
  return account.emailConfirmed ? 'too_many_keys' : 'email_not_confirmed';
}

export async function listKeys(db: Database, accountId: string): Promise<KeyRow[]> {
  return db.select().from(apiKeys).where(eq(apiKeys.accountId, accountId)).orderBy(apiKeys.createdAt, apiKeys.id);
}

/** The active key `id`; with `accountId`, only if it is that account's (Settings acts on its own keys only). */
function activeKey(id: string, accountId: string | undefined) {
  return and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt), accountId === undefined ? undefined : eq(apiKeys.accountId, accountId));
}

/** The active key `id` of the account, for the page that asks before it is revoked or regenerated. */
export async function findActiveKey(db: Database, id: string, accountId: string): Promise<KeyRow | undefined> {
  const [row] = await db.select().from(apiKeys).where(activeKey(id, accountId));
  return row;
}

/** Revokes an active key; with `accountId`, only a key of that account, checked in the UPDATE's WHERE. */
export async function revokeKey(db: Database, id: string, now: number, accountId?: string): Promise<KeyRow | undefined> {
  const [row] = await db.update(apiKeys).set({ revokedAt: now }).where(activeKey(id, accountId)).returning();
  return row;
}

/**
 * New secret for an active key: one batch inserts the successor (copying account, name, kind and scopes from
 * the old row, only while it is active) and revokes the old key. With `accountId`, only a key of that account.
 */
export async function regenerateKey(db: Database, id: string, now: number, accountId?: string): Promise<NewKey | undefined> {
  const key = generateKey();
  const newKeyId = newId('key');
  const prefix = displayPrefix(key);
  const hash = hashKey(key);
  const [inserted] = await db.batch([
    db.all<{ name: string; scopes: string }>(sql`
      INSERT INTO ${apiKeys} (id, account_id, name, kind, prefix, hash, scopes, created_at)
      SELECT ${newKeyId}, account_id, name, kind, ${prefix}, ${hash}, scopes, ${now}
      FROM ${apiKeys} WHERE ${activeKey(id, accountId)}
      RETURNING name, scopes`),
    db.update(apiKeys).set({ revokedAt: now }).where(activeKey(id, accountId)),
  ]);
  const row = (inserted as { name: string; scopes: string }[])[0];
  return row ? { id: newKeyId, key, prefix, name: row.name, scopes: scopesOf(row) } : undefined;
}

export interface KeyWithAccount {
  key: KeyRow;
  account: AccountRow;
}

/** The active key with this hash. */
const activeByHash = (hash: Placeholder) => sql`${apiKeys.hash} = ${hash} AND ${apiKeys.revokedAt} IS NULL`;

/**
 * The caller as SQL: whether its key is active, the condition selecting its active row (for the key's own buckets:
 * src/limits/key-counters.ts), whether it has a scope, and the ids and plan of CallerInSql.
 */
export type CallerFragments = CallerInSql & { readonly active: SQL; readonly keyRow: SQL; hasScope(scope: Scope): SQL };

const ofActiveKey = (column: SQL, hash: Placeholder) => sql`(SELECT ${column} FROM ${apiKeys} WHERE ${activeByHash(hash)})`;
const activeOf = (hash: Placeholder) => sql`${EXISTS} (SELECT 1 FROM ${apiKeys} WHERE ${activeByHash(hash)})`;
const keyIdOf = (hash: Placeholder) => ofActiveKey(sql`${apiKeys.id}`, hash);
const accountIdOf = (hash: Placeholder) => ofActiveKey(sql`${apiKeys.accountId}`, hash);
const planOfKey = (hash: Placeholder) =>
  sql`(SELECT ${accounts.plan} FROM ${accounts} WHERE ${accounts.id} = ${ofActiveKey(sql`${apiKeys.accountId}`, hash)})`;
/** scopesOf's reading of the space-separated list, in SQL. */
const hasScopeOf = (scope: Scope) => (hash: Placeholder) =>
  sql`${EXISTS} (SELECT 1 FROM ${apiKeys} WHERE ${activeByHash(hash)} AND instr(' ' || ${apiKeys.scopes} || ' ', ${` ${scope} `}) > 0)`;

/**
 * The caller of a request as SQL, for statements batched with the key's own look-up: whether the key with the
 * hash `hash` (a placeholder, for statements built once: src/db/prepared.ts) is active, its id, its account's id
 * and plan (NULL when there is no such active key).
 */
export function callerInSql(hash: Placeholder): CallerFragments {
  return {
    active: activeOf(hash),
    keyRow: activeByHash(hash),
    hasScope: (scope) => hasScopeOf(scope)(hash),
    keyId: keyIdOf(hash),
    accountId: accountIdOf(hash),
    plan: planOfKey(hash),
  };
}

/** The caller's account id as SQL for a known hash, for a route's statements built per request (documents.get, documents.list). */
export const accountIdInSql = fragmentPerValue(accountIdOf);

/**
 * One indexed look-up by hash for every well-formed key, found or not, active or revoked, and its account: two
 * queries for a batch rather than a join, whose columns of the same name (id, created_at) D1's batch answers
 * would merge (it answers rows as objects by column name). keyWithAccount reads their answers.
 */
export function keyByHash(db: Database, hash: Placeholder) {
  return [
    db.select().from(apiKeys).where(eq(apiKeys.hash, hash)),
    db.select().from(accounts).where(sql`${accounts.id} = (SELECT ${apiKeys.accountId} FROM ${apiKeys} WHERE ${apiKeys.hash} = ${hash})`),
  ] as const;
}

/** The key and its account from keyByHash's answers; undefined when no key has the hash. */
export function keyWithAccount([keys, accountRows]: readonly unknown[]): KeyWithAccount | undefined {
  const [key] = keys as KeyRow[];
  const [account] = accountRows as AccountRow[];
  return key && account ? { key, account } : undefined;
}

/** last_used_at was last written at `lastUsedBefore` (LAST_USED_RESOLUTION_MS before now) or earlier. */
const lastUsedStale = (lastUsedBefore: Placeholder) => sql`(${apiKeys.lastUsedAt} IS NULL OR ${apiKeys.lastUsedAt} <= ${lastUsedBefore})`;

/**
 * last_used_at of the active key with the hash `hash`, set to `now` when stale (lastUsedStale); placeholders, for a
 * statement built once.
 */
export function touchKey(db: Database, hash: Placeholder, now: Placeholder, lastUsedBefore: Placeholder) {
  return db
    .update(apiKeys)
    .set({ lastUsedAt: sql`${now}` })
    .where(sql`${activeByHash(hash)} AND ${lastUsedStale(lastUsedBefore)}`);
}

/** touchKey's value of last_used_at, for a statement that writes the key's row anyway (the requests bucket's count). */
export function touchedLastUsed(now: Placeholder, lastUsedBefore: Placeholder): SQL {
  return sql`CASE WHEN ${lastUsedStale(lastUsedBefore)} THEN ${now} ELSE ${apiKeys.lastUsedAt} END`;
}
