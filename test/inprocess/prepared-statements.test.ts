import { eq, fillPlaceholders, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/libsql.ts';
import { statementOf, statementsPerDatabase } from '../../src/db/prepared.ts';
import { accounts } from '../../src/db/schema.ts';

const EMAIL = sql.placeholder('email');

/** An account row with placeholders for its id, email and whether the email is confirmed (a boolean column). */
function insertAccount(db: Database) {
  return db
    .insert(accounts)
    .values({
      id: sql.placeholder('id'),
      email: EMAIL,
      plan: 'free',
      creditsRemaining: 3,
      periodEnd: 0,
      createdAt: 0,
      emailConfirmed: sql.placeholder('confirmed'),
    })
    .returning({ id: accounts.id, email: accounts.email, emailConfirmed: accounts.emailConfirmed });
}

const built: string[] = [];
const accountStatements = statementsPerDatabase((db, { pro }: { pro: boolean }) => {
  const plan = pro ? 'pro' : 'free';
  built.push(plan);
  return {
    insert: statementOf(insertAccount(db)),
    byEmail: statementOf(
      db
        .select({ id: accounts.id, plan: sql<string>`${plan}` })
        .from(accounts)
        .where(eq(accounts.email, EMAIL)),
    ),
  };
});

async function run(db: Database, items: unknown[]): Promise<readonly unknown[]> {
  return db.batch(items as unknown as Parameters<Database['batch']>[0]);
}

describe('statements built once per database and bound per request', () => {
  it('binds each placeholder, a column value through its column (a boolean stored as 0/1 and read back)', async () => {
    const { db, client } = await openDatabase(':memory:');
    const { insert } = accountStatements(db, { pro: false });
    const [inserted] = await run(db, [insert.bind({ id: 'acc_a', email: 'a@example.com', confirmed: true })]);
    expect(inserted).toEqual([{ id: 'acc_a', email: 'a@example.com', emailConfirmed: true }]);
    const stored = await client.execute("SELECT email_confirmed FROM accounts WHERE id = 'acc_a'");
    expect(stored.rows[0]![0]).toBe(1);
    // The same statement again, other values: nothing of the first binding stays.
    const [again] = await run(db, [insert.bind({ id: 'acc_b', email: 'b@example.com', confirmed: false })]);
    expect(again).toEqual([{ id: 'acc_b', email: 'b@example.com', emailConfirmed: false }]);
    client.close();
  });

  it('refuses a binding without a value for one of its placeholders', async () => {
    const { db, client } = await openDatabase(':memory:');
    expect(() => accountStatements(db, { pro: false }).insert.bind({ id: 'acc_a', email: 'a@example.com' })).toThrow(/confirmed/);
    client.close();
  });

  it('binds as drizzle itself does: the same SQL and the same parameters as its fillPlaceholders', async () => {
    // statementOf reads drizzle's prepared query (_prepare, getQuery): a drizzle release that changed them would
    // show here, whichever database driver runs the batch (D1's rows are mapped by the same mapResult).
    const { db, client } = await openDatabase(':memory:');
    const values = { id: 'acc_a', email: 'a@example.com', confirmed: true };
    const query = insertAccount(db);
    const own = (query as unknown as { _prepare(): { getQuery(): { sql: string; params: unknown[] } } })._prepare().getQuery();
    const bound = (statementOf(query).bind(values) as unknown as { _prepare(): { getQuery(): { sql: string; params: unknown[] } } })
      ._prepare()
      .getQuery();
    expect(bound).toEqual({ sql: own.sql, params: fillPlaceholders(own.params, values) });
    client.close();
  });

  it('builds once per database and variant, and a database never runs another one’s statements', async () => {
    const first = await openDatabase(':memory:');
    const second = await openDatabase(':memory:');
    built.length = 0;
    const ofFirst = accountStatements(first.db, { pro: false });
    expect(accountStatements(first.db, { pro: false })).toBe(ofFirst);
    const ofSecond = accountStatements(second.db, { pro: false });
    expect(ofSecond).not.toBe(ofFirst);
    const proOfFirst = accountStatements(first.db, { pro: true });
    expect(proOfFirst).not.toBe(ofFirst);
    expect(built).toEqual(['free', 'free', 'pro']);

    await run(first.db, [ofFirst.insert.bind({ id: 'acc_first', email: 'same@example.com', confirmed: true })]);
    await run(second.db, [ofSecond.insert.bind({ id: 'acc_second', email: 'same@example.com', confirmed: true })]);
    expect(await run(first.db, [ofFirst.byEmail.bind({ email: 'same@example.com' })])).toEqual([[{ id: 'acc_first', plan: 'free' }]]);
    expect(await run(second.db, [ofSecond.byEmail.bind({ email: 'same@example.com' })])).toEqual([[{ id: 'acc_second', plan: 'free' }]]);
    expect(await run(first.db, [proOfFirst.byEmail.bind({ email: 'same@example.com' })])).toEqual([[{ id: 'acc_first', plan: 'pro' }]]);
    first.client.close();
    second.client.close();
  });
});
