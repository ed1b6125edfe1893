import type { PlanLimits } from '../accounts/plans.ts';
import type { ErrorCode } from '../contract/errors.ts';
import { AUTH_FAILURE_LIMIT, SIGN_IN_MAIL_LIMIT } from '../contract/limits.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const AUTH_FAILURE_WINDOW = AUTH_FAILURE_LIMIT.windowMinutes * MINUTE;

/** What a refusal's message calls each window the buckets count in. */
export const WINDOW_NAMES: Readonly<Record<number, string>> = {
  [MINUTE]: 'minute',
  [AUTH_FAILURE_WINDOW]: `${AUTH_FAILURE_LIMIT.windowMinutes} minutes`,
  [HOUR]: 'hour',
  [DAY]: 'day',
};

interface Refusal {
  code: Extract<ErrorCode, 'rate_limited' | 'service_busy'>;
  detail: string;
}

/** One counter of section 8 for one request: its name, quota and fixed UTC window. */
export interface Bucket {
  name: string;
  limit: number;
  windowMs: number;
  /** Reported in the RateLimit headers (the "yes" rows of section 8). */
  reported: boolean;
  refusal: Refusal;
}

const rateLimited = (detail: string): Refusal => ({ code: 'rate_limited', detail });

/** Fixed windows on the UTC clock: the epoch is midnight UTC, so every window starts on its boundary. */
export function windowStart(now: number, windowMs: number): number {
  return Math.floor(now / windowMs) * windowMs;
}

export function requestBuckets(keyId: string, plan: PlanLimits): Bucket[] {
  return [
    {
      name: `requests:key:${keyId}`,
      limit: plan.requestsPerMinuteKey,
      windowMs: MINUTE,
      reported: true,
      refusal: rateLimited('request_key_limit'),
    },
  ];
}

export function finalBuckets(keyId: string, plan: PlanLimits): Bucket[] {
  return [
    {
      name: `final:key:${keyId}`,
      limit: plan.finalPerMinuteKey,
      windowMs: MINUTE,
      reported: true,
      refusal: rateLimited('final_key_limit'),
    },
  ];
}

/** Everyone's previews together: launch values, the same for every plan. */
export const GLOBAL_PREVIEW_LIMITS = { perHour: 1_500, perDay: 10_000 };

/**
 * A preview's buckets: the key's, the account's and everyone's together. The web app's previews (no key, keyId
 * undefined) count in the account's and everyone's only: "per account, all keys and web app" (section 8).
 */
export function previewBuckets(accountId: string, keyId: string | undefined, plan: PlanLimits): Bucket[] {
  const busy: Refusal = { code: 'service_busy', detail: 'preview_global_limit' };
  const keys: Bucket[] =
    keyId === undefined
      ? []
      : [
          {
            name: `preview:key:${keyId}:hour`,
            limit: plan.previewPerHourKey,
            windowMs: HOUR,
            reported: true,
            refusal: rateLimited('preview_key_limit'),
          },
          {
            name: `preview:key:${keyId}:day`,
            limit: plan.previewPerDayKey,
            windowMs: DAY,
            reported: true,
            refusal: rateLimited('preview_key_limit'),
          },
        ];
  return [
    ...keys,
    {
      name: `preview:account:${accountId}:hour`,
      limit: plan.previewPerHourAccount,
      windowMs: HOUR,
      reported: true,
      refusal: rateLimited('preview_user_limit'),
    },
    {
      name: `preview:account:${accountId}:day`,
      limit: plan.previewPerDayAccount,
      windowMs: DAY,
      reported: true,
      refusal: rateLimited('preview_user_limit'),
    },
    { name: 'preview:global:hour', limit: GLOBAL_PREVIEW_LIMITS.perHour, windowMs: HOUR, reported: false, refusal: busy },
    { name: 'preview:global:day', limit: GLOBAL_PREVIEW_LIMITS.perDay, windowMs: DAY, reported: false, refusal: busy },
  ];
}

/** A replay's buckets: the account's and the key's; a web form sent again (no key, keyId undefined) the account's only. */
export function replayBuckets(mode: 'final' | 'preview', accountId: string, keyId: string | undefined, plan: PlanLimits): Bucket[] {
  const replay = rateLimited('replay_limit');
  const bucket = (name: string, limit: number, windowMs: number): Bucket => ({
    name: `replay:${mode}:${name}`,
    limit,
    windowMs,
    reported: false,
    refusal: replay,
  });
  const ofAccount =
    mode === 'final'
      ? [
          bucket(`account:${accountId}:minute`, plan.replayFinalPerMinuteAccount, MINUTE),
          bucket(`account:${accountId}:hour`, plan.replayFinalPerHourAccount, HOUR),
        ]
      : [
          bucket(`account:${accountId}:hour`, plan.replayPreviewPerHourAccount, HOUR),
          bucket(`account:${accountId}:day`, plan.replayPreviewPerDayAccount, DAY),
        ];
  if (keyId === undefined) return ofAccount;
  const ofKey =
    mode === 'final'
      ? [bucket(`key:${keyId}:minute`, plan.replayFinalPerMinuteKey, MINUTE)]
      : [bucket(`key:${keyId}:hour`, plan.replayPreviewPerHourKey, HOUR), bucket(`key:${keyId}:day`, plan.replayPreviewPerDayKey, DAY)];
  return [...ofAccount, ...ofKey];
}

/**
 * New finals made in the web app, per account: the plan's new finals per minute of one key (section 8 names no
 * limit for the web app; the web app is one more client of the account, held to what one key may do).
 */
export function webFinalBuckets(accountId: string, plan: PlanLimits): Bucket[] {
  return [
    {
      name: `final:web:${accountId}`,
      limit: plan.finalPerMinuteKey,
      windowMs: MINUTE,
      reported: false,
      refusal: rateLimited('web_final_limit'),
    },
  ];
}

/** Failed sign-ins per network; never reported. */
export function authFailureBucket(network: string): Bucket {
  return {
    name: `auth-failure:${network}`,
    limit: AUTH_FAILURE_LIMIT.failures,
    windowMs: AUTH_FAILURE_WINDOW,
    reported: false,
    refusal: rateLimited('auth_failure_limit'),
  };
}

/**
 * Sign-in emails, per address from one network, per address and per client network (SIGN_IN_MAIL_LIMIT); never
 * reported. The address is named by the hash of its lower-cased form, so the counters hold no address.
 */
export function signInMailBuckets(addressHash: string, network: string): Bucket[] {
  const refusal = rateLimited('sign_in_mail_limit');
  const bucket = (name: string, limit: number): Bucket => ({
    name: `sign-in-mail:${name}`,
    limit,
    windowMs: HOUR,
    reported: false,
    refusal,
  });
  return [
    bucket(`address-network:${addressHash}:${network}`, SIGN_IN_MAIL_LIMIT.perAddressPerNetworkPerHour),
    bucket(`address:${addressHash}`, SIGN_IN_MAIL_LIMIT.perAddressPerHour),
    bucket(`network:${network}`, SIGN_IN_MAIL_LIMIT.perNetworkPerHour),
  ];
}
