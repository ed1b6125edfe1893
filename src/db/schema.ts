import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/** Times are integer milliseconds since the epoch (UTC), so that SQL can compare them in atomic statements. */

export const accounts = sqliteTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    emailConfirmed: integer('email_confirmed', { mode: 'boolean' }).notNull().default(false),
    plan: text('plan').notNull(),
    creditsRemaining: integer('credits_remaining').notNull(),
    periodEnd: integer('period_end').notNull(),
    createdAt: integer('created_at').notNull(),
    /**
     * When its holder deleted it in Settings: the address is gone (email holds `deleted:<id>`, no address), no key
     * or session is left, and the row stays for the document records that name it until their 90 days end.
     */
    deletedAt: integer('deleted_at'),
  },
  // One account per email address, whatever its case: addresses are stored as written, compared by lower().
  (table) => [uniqueIndex('accounts_email').on(sql`lower(${table.email})`)],
);

export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    /** Display prefix, never the secret. */
    prefix: text('prefix').notNull(),
    /** SHA-256 of the whole key, hex. */
    hash: text('hash').notNull(),
    scopes: text('scopes').notNull(),
    createdAt: integer('created_at').notNull(),
    lastUsedAt: integer('last_used_at'),
    revokedAt: integer('revoked_at'),
    /** The Settings form that created the key (a random id per form shown): a form sent twice makes one key. */
    formId: text('form_id'),
    /**
     * The key's own rate-limit buckets of section 8 (requests and finals per key a minute), on its row rather than
     * in rate_limit_windows: the row every keyed request looks up and writes anyway (src/limits/key-counters.ts).
     * Each is the start of the window it counts in (NULL: never counted) and the count in it.
     */
    requestsWindowStart: integer('requests_window_start'),
    requestsInWindow: integer('requests_in_window').notNull().default(0),
    finalsWindowStart: integer('finals_window_start'),
    finalsInWindow: integer('finals_in_window').notNull().default(0),
  },
  (table) => [
    uniqueIndex('api_keys_hash').on(table.hash),
    index('api_keys_account').on(table.accountId),
    uniqueIndex('api_keys_account_form').on(table.accountId, table.formId),
  ],
);

/** The 90-day metadata record of spec 2.6; never the submitted fields, never the PDF. */
export const documents = sqliteTable(
  'documents',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    keyId: text('key_id').notNull(),
    template: text('template').notNull(),
    templateVersion: text('template_version').notNull(),
    mode: text('mode').notNull(),
    paper: text('paper').notNull(),
    locale: text('locale').notNull(),
    reference: text('reference'),
    source: text('source').notNull(),
    creditsConsumed: integer('credits_consumed').notNull(),
    sha256: text('sha256').notNull(),
    bytes: integer('bytes').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (table) => [
    index('documents_account_created').on(table.accountId, table.createdAt, table.id),
    // Only documents with a reference: the index serves the history filtered by one, which a document without
    // one never matches, and a final without one writes one b-tree fewer (issue 19).
    index('documents_account_reference')
      .on(table.accountId, table.reference, table.createdAt, table.id)
      .where(sql`${table.reference} IS NOT NULL`),
  ],
);

/** One row per (account, Idempotency-Key): a lease while running, the document once committed. */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    accountId: text('account_id').notNull(),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    /** Random id of the attempt holding the lease; a commit must present it. */
    leaseId: text('lease_id').notNull(),
    leaseStartedAt: integer('lease_started_at').notNull(),
    documentId: text('document_id'),
    createdAt: integer('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.key] })],
);

/** Fixed-window counters: one row per bucket and window start. */
export const rateLimitWindows = sqliteTable(
  'rate_limit_windows',
  {
    bucket: text('bucket').notNull(),
    windowStart: integer('window_start').notNull(),
    count: integer('count').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.bucket, table.windowStart] }), index('rate_limit_expires').on(table.expiresAt)],
);

/** A signed-in Settings session: the cookie's token is stored only as its SHA-256; expired rows are absent. */
export const sessions = sqliteTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (table) => [index('sessions_account').on(table.accountId)],
);

/** One-time sign-in links sent by email, stored only as the SHA-256 of their token. */
export const signInLinks = sqliteTable(
  'sign_in_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    /** Random id of the attempt that used the link, so the rest of that attempt's batch knows it won. */
    consumedBy: text('consumed_by'),
  },
  (table) => [index('sign_in_links_account').on(table.accountId)],
);

/**
 * A change of an account's address asked for in Settings, waiting for the link mailed to the new address: stored
 * only as the SHA-256 of the link's token; used once, within the same lifetime as a sign-in link.
 */
export const emailChanges = sqliteTable(
  'email_changes',
  {
    tokenHash: text('token_hash').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    newEmail: text('new_email').notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    /** Random id of the attempt that used the link, so the rest of that attempt's batch knows it won. */
    consumedBy: text('consumed_by'),
  },
  (table) => [index('email_changes_account').on(table.accountId)],
);
