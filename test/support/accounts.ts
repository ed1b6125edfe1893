import { join } from 'node:path';
import type { PlanName } from '../../src/accounts/plans.ts';
import { type AccountRow, createAccount } from '../../src/accounts/store.ts';
import { createKey } from '../../src/auth/store.ts';
import type { KeyKind } from '../../src/contract/scopes.ts';
import { openDatabase } from '../../src/db/libsql.ts';
import type { TestApp } from './app.ts';
import { tempDir } from './processes.ts';

export interface Caller {
  account: AccountRow;
  key: string;
  keyId: string;
  headers: Record<string, string>;
}

/** A confirmed account with one key, made through the same store code the CLI uses; each with its own address. */
export async function seedCaller(app: TestApp, options: { plan?: PlanName; credits?: number; kind?: KeyKind } = {}): Promise<Caller> {
  const account = await createAccount(app.db, {
    email: `owner.${crypto.randomUUID()}@example.com`,
    plan: options.plan ?? 'free',
    ...(options.credits === undefined ? {} : { credits: options.credits }),
    emailConfirmed: true,
    now: app.clock.now(),
  });
  if (!account) throw new Error('seedCaller: the address is taken');
  const key = await addKey(app, account.id, options.kind ?? 'full');
  return { account, ...key };
}

export async function addKey(app: TestApp, accountId: string, kind: KeyKind = 'full') {
  const created = await createKey(app.db, { accountId, kind, name: `${kind} key`, now: app.clock.now() });
  if (typeof created === 'string') throw new Error(created);
  return { key: created.key, keyId: created.id, headers: { Authorization: `Bearer ${created.key}` } };
}

/**
 * A new database file holding a confirmed account with one full key, for the real servers that tests and
 * benchmarks start on it. The client stays open for checking what was stored; close it when done.
 */
export async function seedDatabaseFile(options: { plan: PlanName; credits: number }) {
  const url = `file:${join(tempDir('svc-db-'), 'svc.db')}`;
  const { db, client } = await openDatabase(url);
  const account = await createAccount(db, { email: 'owner@example.com', ...options, emailConfirmed: true, now: Date.now() });
  if (!account) throw new Error('seedDatabaseFile: the address is taken');
  const created = await createKey(db, { accountId: account.id, kind: 'full', name: 'full key', now: Date.now() });
  if (typeof created === 'string') throw new Error(created);
  return { url, client, account, key: created.key };
}
