import { createAccount } from '../../src/accounts/store.ts';
import { createKey } from '../../src/auth/store.ts';
import type { Database } from '../../src/db/database.ts';

/**
 * `accounts` confirmed pro accounts with ample credits and two full keys each, made with the store code, for the
 * benchmarks that go round many keys so that no rate limit is reached: the keys, an account's two in a row.
 */
export async function seedAccounts(db: Database, accounts: number, emailPrefix: string): Promise<string[]> {
  const keys: string[] = [];
  for (let index = 0; index < accounts; index++) {
    const account = await createAccount(db, {
      email: `${emailPrefix}.${index}@example.com`,
      plan: 'pro',
      credits: 10_000_000,
      emailConfirmed: true,
      now: Date.now(),
    });
    if (!account) throw new Error('seedAccounts: the address is taken');
    for (const name of ['first', 'second']) {
      const created = await createKey(db, { accountId: account.id, kind: 'full', name, now: Date.now() });
      if (typeof created === 'string') throw new Error(created);
      keys.push(created.key);
    }
  }
  return keys;
}
