import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openD1 } from '../../src/db/d1.ts';
import type { Database } from '../../src/db/database.ts';
import { statementOf } from '../../src/db/prepared.ts';
import { accounts } from '../../src/db/schema.ts';

/** A D1 binding that records what it prepares and what each batch sends, answering every statement with no rows. */
function fakeBinding(name: string) {
  const prepared: string[] = [];
  const sent: { binding: string; sql: string; params: unknown[] }[] = [];
  const prepare = (text: string) => {
    prepared.push(text);
    return { bind: (...params: unknown[]) => ({ binding: name, sql: text, params }) };
  };
  const batch = async (statements: { binding: string; sql: string; params: unknown[] }[]) => {
    sent.push(...statements);
    return statements.map(() => ({ results: [], success: true, meta: {} }));
  };
  return { binding: { prepare, batch } as unknown as D1Database, prepared, sent };
}

const byEmail = (db: Database) =>
  statementOf(
    db
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.email, sql.placeholder('email'))),
  );

describe('D1 batches', () => {
  it('prepare each SQL text once per binding and bind it per batch, each binding its own', async () => {
    const first = fakeBinding('first');
    const second = fakeBinding('second');
    const [one, two] = [openD1(first.binding), openD1(second.binding)];
    const [ofOne, ofTwo] = [byEmail(one), byEmail(two)];
    const send = (db: Database, statement: typeof ofOne, email: string) =>
      db.batch([statement.bind({ email })] as unknown as Parameters<Database['batch']>[0]);
    expect(await send(one, ofOne, 'a@example.com')).toEqual([[]]);
    await send(two, ofTwo, 'c@example.com');
    const preparedOnce = [first.prepared.length, second.prepared.length];
    await send(one, ofOne, 'b@example.com');
    await send(one, ofOne, 'd@example.com');
    await send(two, ofTwo, 'e@example.com');
    expect([first.prepared.length, second.prepared.length]).toEqual(preparedOnce);
    const text = ofOne.sql;
    expect(first.sent).toEqual(
      ['a@example.com', 'b@example.com', 'd@example.com'].map((email) => ({ binding: 'first', sql: text, params: [email] })),
    );
    expect(second.sent).toEqual(['c@example.com', 'e@example.com'].map((email) => ({ binding: 'second', sql: text, params: [email] })));
  });
});
