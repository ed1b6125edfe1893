import { accountLimits, planOf } from '../accounts/plans.ts';
import type { AccountRow } from '../accounts/store.ts';
import { isoSeconds } from '../clock.ts';
import type { KeyRow } from './store.ts';
import { scopesOf } from './store.ts';

/** What the Account object says of the account itself: plan, credits and limits (also shown in Settings). */
export function accountSummary(account: AccountRow) {
  const plan = planOf(account.plan);
  return {
    plan: account.plan,
    credits: {
      remaining: account.creditsRemaining,
      monthly_allowance: plan.monthlyAllowance,
      period_end: isoSeconds(account.periodEnd),
    },
    limits: accountLimits(plan),
  };
}

/** The Account object of spec 2.8. */
export function accountObject(account: AccountRow, key: KeyRow) {
  const { plan, credits, limits } = accountSummary(account);
  return {
    object: 'account',
    plan,
    credits,
    key: {
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      scopes: scopesOf(key),
      created_at: isoSeconds(key.createdAt),
      last_used_at: key.lastUsedAt === null ? null : isoSeconds(key.lastUsedAt),
    },
    limits,
  };
}
