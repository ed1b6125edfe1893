import { eq, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { EXISTS } from '../db/exists.ts';
import { accounts } from '../db/schema.ts';
import { newId } from '../ids.ts';
import { PLANS, type PlanName, planOf } from './plans.ts';

export type AccountRow = typeof accounts.$inferSelect;

/** Credit periods are calendar months in UTC: a period ends at 00:00 UTC on the first of the next month. */
export function periodEndAfter(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

/**
 * Creates an account, or undefined when an account already has this email address in any letter case: one
 * INSERT … ON CONFLICT DO NOTHING on the unique lower(email), so two requests at once cannot both succeed.
 */
export async function createAccount(
  db: Database,
  input: { email: string; plan: PlanName; credits?: number; emailConfirmed: boolean; now: number },
): Promise<AccountRow | undefined> {
  const [row] = await db
    .insert(accounts)
    .values({
      id: newId('acct'),
      email: input.email,
      emailConfirmed: input.emailConfirmed,
      plan: input.plan,
      creditsRemaining: input.credits ?? planOf(input.plan).monthlyAllowance,
      periodEnd: periodEndAfter(input.now),
      createdAt: input.now,
    })
    .onConflictDoNothing()
    .returning();
  return row;
}

export async function findAccount(db: Database, id: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, id));
  return row;
}

export async function confirmEmail(db: Database, id: string): Promise<AccountRow | undefined> {
  const [row] = await db.update(accounts).set({ emailConfirmed: true }).where(eq(accounts.id, id)).returning();
  return row;
}

/** The account with this email address, letter case aside (as the unique index compares them). */
export async function findAccountByEmail(db: Database, email: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(sql`lower(${accounts.email}) = lower(${email})`);
  return row;
}

/** Accounts oldest first, a page at a time: those created after the account `after` (by time, then id). */
export async function listAccounts(db: Database, page: { limit: number; after?: AccountRow }): Promise<AccountRow[]> {
  const { after } = page;
  return db
    .select()
    .from(accounts)
    .where(after ? sql`(${accounts.createdAt}, ${accounts.id}) > (${after.createdAt}, ${after.id})` : undefined)
    .orderBy(accounts.createdAt, accounts.id)
    .limit(page.limit);
}

/** Moves the account to another plan: its rate limits at once, its allowance from the next credit period. */
export async function changePlan(db: Database, id: string, plan: PlanName): Promise<AccountRow | undefined> {
  const [row] = await db.update(accounts).set({ plan }).where(eq(accounts.id, id)).returning();
  return row;
}

/** Adds credits to the current period in one UPDATE, so that grants made at once all count. */
export async function addCredits(db: Database, id: string, credits: number): Promise<AccountRow | undefined> {
  const [row] = await db
    .update(accounts)
    .set({ creditsRemaining: sql`${accounts.creditsRemaining} + ${credits}` })
    .where(eq(accounts.id, id))
    .returning();
  return row;
}

export async function setCredits(db: Database, id: string, remaining: number): Promise<AccountRow | undefined> {
  const [row] = await db.update(accounts).set({ creditsRemaining: remaining }).where(eq(accounts.id, id)).returning();
  return row;
}

/** The allowance of the stored plan, in SQL, so a renewal reads nothing into JavaScript first. */
const ALLOWANCE_OF_PLAN = sql.raw(
  `CASE plan ${Object.entries(PLANS)
    .map(([name, plan]) => `WHEN '${name}' THEN ${plan.monthlyAllowance}`)
    .join(' ')} ELSE ${PLANS.free.monthlyAllowance} END`,
);

/**
 * Renews an ended credit period in one statement: allowance restored, period moved to the end of the current
 * month. The `period_end <= now` condition makes two concurrent renewals renew once.
 * Returns the account as it stands afterwards.
 */
export async function renewPeriodIfEnded(db: Database, account: AccountRow, now: number): Promise<AccountRow> {
  if (account.periodEnd > now) return account;
  const [renewed] = await renewalOf(db, account.id, { now, periodEnd: periodEndAfter(now) }, sql`1 = 1`);
  return renewed ?? (await findAccount(db, account.id)) ?? account;
}

/**
 * renewPeriodIfEnded's UPDATE for a batch, where `condition` holds, for an account id that may be SQL (the
 * account of the key signing in, read in the same batch); the time and the new period's end (periodEndAfter) may
 * be placeholders, for a statement built once.
 */
export function renewalOf(
  db: Database,
  accountId: string | SQL,
  { now, periodEnd }: { now: number | Placeholder; periodEnd: number | Placeholder },
  condition: SQL,
) {
  // `condition` inside the CASE: SQLite works it out (for a document, several look-ups) only for an account whose
  // period has ended, once a month, and not on every request.
  return db
    .update(accounts)
    .set({ creditsRemaining: ALLOWANCE_OF_PLAN, periodEnd: sql`${periodEnd}` })
    .where(sql`${accounts.id} = ${accountId} AND CASE WHEN ${accounts.periodEnd} <= ${now} THEN ${condition} ELSE 0 END`)
    .returning();
}

/** The account has a credit left, as SQL (read in a batch, after a renewal earlier in it). */
export function hasCredit(accountId: string | SQL): SQL {
  return sql`${EXISTS} (SELECT 1 FROM ${accounts} WHERE ${accounts.id} = ${accountId} AND ${accounts.creditsRemaining} > 0)`;
}
