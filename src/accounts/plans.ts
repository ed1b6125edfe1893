/**
 * Plans and their launch values, in one table: the monthly credit allowance and the rate limits of
 * section 8. Rate limits are not part of the API version and can change here without a new version.
 */
export interface PlanLimits {
  readonly finalPerMinuteKey: number;
  readonly requestsPerMinuteKey: number;
  readonly previewPerHourKey: number;
  readonly previewPerDayKey: number;
  readonly previewPerHourAccount: number;
  readonly previewPerDayAccount: number;
  readonly replayFinalPerMinuteAccount: number;
  readonly replayFinalPerHourAccount: number;
  readonly replayPreviewPerHourAccount: number;
  readonly replayPreviewPerDayAccount: number;
  readonly replayFinalPerMinuteKey: number;
  readonly replayPreviewPerHourKey: number;
  readonly replayPreviewPerDayKey: number;
}

interface Plan {
  readonly monthlyAllowance: number;
  readonly limits: PlanLimits;
}

const SHARED_LIMITS = {
  requestsPerMinuteKey: 120,
  previewPerHourKey: 30,
  previewPerDayKey: 200,
  previewPerHourAccount: 60,
  previewPerDayAccount: 300,
  replayFinalPerMinuteAccount: 120,
  replayPreviewPerHourAccount: 60,
  replayPreviewPerDayAccount: 300,
  replayFinalPerMinuteKey: 60,
  replayPreviewPerHourKey: 30,
  replayPreviewPerDayKey: 200,
} as const;

export const PLANS = {
  free: { monthlyAllowance: 50, limits: { ...SHARED_LIMITS, finalPerMinuteKey: 10, replayFinalPerHourAccount: 600 } },
  starter: { monthlyAllowance: 1_000, limits: { ...SHARED_LIMITS, finalPerMinuteKey: 60, replayFinalPerHourAccount: 1_200 } },
  pro: { monthlyAllowance: 10_000, limits: { ...SHARED_LIMITS, finalPerMinuteKey: 120, replayFinalPerHourAccount: 3_000 } },
} as const satisfies Record<string, Plan>;

export type PlanName = keyof typeof PLANS;
export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];

export function isPlanName(name: string): name is PlanName {
  return Object.hasOwn(PLANS, name);
}

/** The plan of a stored account; an unknown stored name (a plan retired from code) counts as free. */
export function planOf(name: string): Plan {
  return isPlanName(name) ? PLANS[name] : PLANS.free;
}

/** The members of the `limits` object of the Account object (spec 2.8), each with the plan limit it states. */
export const ACCOUNT_LIMITS = {
  final_per_minute_key: 'finalPerMinuteKey',
  requests_per_minute_key: 'requestsPerMinuteKey',
  preview_per_hour_key: 'previewPerHourKey',
  preview_per_day_key: 'previewPerDayKey',
  preview_per_hour_account: 'previewPerHourAccount',
  preview_per_day_account: 'previewPerDayAccount',
} as const satisfies Record<string, keyof PlanLimits>;

type AccountLimits = Record<keyof typeof ACCOUNT_LIMITS, number>;

/** The `limits` object of the Account object: the values the limiter enforces for the plan. */
export function accountLimits(plan: Plan): AccountLimits {
  const entries = Object.entries(ACCOUNT_LIMITS).map(([member, limit]) => [member, plan.limits[limit]]);
  return Object.fromEntries(entries) as AccountLimits;
}
