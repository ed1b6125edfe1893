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

/**
 * Where a bucket's counts are kept: a row per bucket and window in rate_limit_windows, or the calling key's own
 * row (the key's requests and its new finals a minute: counted by the statements that find the key and record
 * the final, with no row of their own; key-counters.ts).
 */
export type BucketStore = 'windows' | 'key_requests' | 'key_finals';

/** One counter of section 8 for one request: its name, quota, fixed UTC window and where it is counted. */
export interface Bucket<Store extends BucketStore = BucketStore> {
  name: string;
  limit: number;
  windowMs: number;
  /** Reported in the RateLimit headers (the "yes" rows of section 8). */
  reported: boolean;
  refusal: Refusal;
  store: Store;
}

/** A bucket counted in rate_limit_windows: the only kind a caller that knows no key row can count. */
export type WindowBucket = Bucket<'windows'>;

const rateLimited = (detail: string): Refusal => ({ code: 'rate_limited', detail });

/** Fixed windows on the UTC clock: the epoch is midnight UTC, so every window starts on its boundary. */
export function windowStart(now: number, windowMs: number): number {
  return Math.floor(now / windowMs) * windowMs;
}

export function requestBuckets(keyId: string, plan: PlanLimits): Bucket<'key_requests'>[] {
  return [
    {
      name: `requests:key:${keyId}`,
      limit: plan.requestsPerMinuteKey,
      windowMs: MINUTE,
      reported: true,
      refusal: rateLimited('request_key_limit'),
      store: 'key_requests',
    },
  ];
}

export function finalBuckets(keyId: string, plan: PlanLimits): Bucket<'key_finals'>[] {
  return [
    {
      name: `final:key:${keyId}`,
      limit: plan.finalPerMinuteKey,
      windowMs: MINUTE,
      reported: true,
      refusal: rateLimited('final_key_limit'),
      store: 'key_finals',
    },
  ];
}

/** Everyone's previews together: launch values, the same for every plan. */
export const GLOBAL_PREVIEW_LIMITS = { perHour: 1_500, perDay: 10_000 };

/**
 * A preview's buckets: the key's, the account's and everyone's together. The web app's previews (no key, keyId
 * undefined) count in the account's and everyone's only: "per account, all keys and web app" (section 8).
 */
export function previewBuckets(accountId: string, keyId: string | undefined, plan: PlanLimits): WindowBucket[] {
  const busy: Refusal = { code: 'service_busy', detail: 'preview_global_limit' };
  const keys: WindowBucket[] =
    keyId === undefined
      ? []
      : [
          {
            name: `preview:key:${keyId}:hour`,
            limit: plan.previewPerHourKey,
            windowMs: HOUR,
            reported: true,
            refusal: rateLimited('preview_key_limit'),
            store: 'windows',
          },
          {
            name: `preview:key:${keyId}:day`,
            limit: plan.previewPerDayKey,
            windowMs: DAY,
            reported: true,
            refusal: rateLimited('preview_key_limit'),
            store: 'windows',
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
      store: 'windows',
    },
    {
      name: `preview:account:${accountId}:day`,
      limit: plan.previewPerDayAccount,
      windowMs: DAY,
      reported: true,
      refusal: rateLimited('preview_user_limit'),
      store: 'windows',
    },
    { name: 'preview:global:hour', limit: GLOBAL_PREVIEW_LIMITS.perHour, windowMs: HOUR, reported: false, refusal: busy, store: 'windows' },
    { name: 'preview:global:day', limit: GLOBAL_PREVIEW_LIMITS.perDay, windowMs: DAY, reported: false, refusal: busy, store: 'windows' },
  ];
}

/** A replay's buckets: the account's and the key's; a web form sent again (no key, keyId undefined) the account's only. */
export function replayBuckets(mode: 'final' | 'preview', accountId: string, keyId: string | undefined, plan: PlanLimits): WindowBucket[] {
  const replay = rateLimited('replay_limit');
  const bucket = (name: string, limit: number, windowMs: number): WindowBucket => ({
    name: `replay:${mode}:${name}`,
    limit,
    windowMs,
    reported: false,
    refusal: replay,
    store: 'windows',
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
export function webFinalBuckets(accountId: string, plan: PlanLimits): WindowBucket[] {
  return [
    {
      name: `final:web:${accountId}`,
      limit: plan.finalPerMinuteKey,
      windowMs: MINUTE,
      reported: false,
      refusal: rateLimited('web_final_limit'),
      store: 'windows',
    },
  ];
}

/** Failed sign-ins per network; never reported. */
export function authFailureBucket(network: string): WindowBucket {
  return {
    name: `auth-failure:${network}`,
    limit: AUTH_FAILURE_LIMIT.failures,
    windowMs: AUTH_FAILURE_WINDOW,
    reported: false,
    refusal: rateLimited('auth_failure_limit'),
    store: 'windows',
  };
}

/**
 * Sign-in emails, per address from one network, per address and per client network (SIGN_IN_MAIL_LIMIT); never
 * reported. The address is named by the hash of its lower-cased form, so the counters hold no address.
 */
export function signInMailBuckets(addressHash: string, network: string): WindowBucket[] {
  const refusal = rateLimited('sign_in_mail_limit');
  const bucket = (name: string, limit: number): WindowBucket => ({
    name: `sign-in-mail:${name}`,
    limit,
    windowMs: HOUR,
    reported: false,
    refusal,
    store: 'windows',
  });
  return [
    bucket(`address-network:${addressHash}:${network}`, SIGN_IN_MAIL_LIMIT.perAddressPerNetworkPerHour),
    bucket(`address:${addressHash}`, SIGN_IN_MAIL_LIMIT.perAddressPerHour),
    bucket(`network:${network}`, SIGN_IN_MAIL_LIMIT.perNetworkPerHour),
  ];
}
