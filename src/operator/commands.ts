import { readEmailAddress } from '../accounts/email-address.ts';
import { isPlanName, PLAN_NAMES, type PlanName } from '../accounts/plans.ts';
import {
  type AccountRow,
  addCredits,
  changePlan,
  confirmEmail,
  createAccount,
  findAccount,
  findAccountByEmail,
  listAccounts,
  setCredits,
} from '../accounts/store.ts';
import {
  type CreateKeyFailure,
  createKey,
  type KeyRow,
  listKeys,
  MAX_ACTIVE_KEYS,
  regenerateKey,
  revokeKey,
  scopesOf,
} from '../auth/store.ts';
import { isoSeconds } from '../clock.ts';
import { IDEMPOTENCY_MEMORY_HOURS, LIMITS } from '../contract/limits.ts';
import { KEY_KINDS, type KeyKind } from '../contract/scopes.ts';
import type { Database } from '../db/database.ts';
import { purgeExpired } from '../documents/retention.ts';
import { endAllSessions } from '../settings/sessions.ts';

/**
 * A refusal the operator can act on ("No account acct_…"): the CLI prints it on stderr with exit code 1, the
 * operator API answers it 400 with the same message.
 */
export class OperatorRefusal extends Error {}

/** A command's arguments as the CLI's parser gives them, or as the operator API receives them in JSON. */
export interface CommandInput {
  positionals: string[];
  options: Record<string, string | boolean | undefined>;
}

/** How an option is written: `--name VALUE` (string) or `--name` alone (boolean). */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
}

/**
 * One operator command, defined once for both ways in (the CLI on a database file, the operator API on any
 * deployment): its usage line, its help, its options and what it does.
 */
export interface Command {
  readonly usage: string;
  readonly help: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  run(input: CommandInput, env: { db: Database; now: number }): Promise<unknown>;
}

function accountJson(account: AccountRow) {
  return {
    id: account.id,
    email: account.email,
    plan: account.plan,
    credits_remaining: account.creditsRemaining,
    period_end: isoSeconds(account.periodEnd),
    email_confirmed: account.emailConfirmed,
  };
}

function keyJson(key: KeyRow) {
  return {
    id: key.id,
    name: key.name,
    kind: key.kind,
    prefix: key.prefix,
    scopes: scopesOf(key),
    created_at: isoSeconds(key.createdAt),
    last_used_at: key.lastUsedAt === null ? null : isoSeconds(key.lastUsedAt),
    revoked_at: key.revokedAt === null ? null : isoSeconds(key.revokedAt),
  };
}

function requiredString(input: CommandInput, name: string): string {
  const value = input.options[name];
  if (typeof value !== 'string' || value.trim() === '') throw new OperatorRefusal(`--${name} is required.`);
  return value.trim();
}

function onePositional(input: CommandInput, what: string): string {
  if (input.positionals.length !== 1) throw new OperatorRefusal(`Give exactly one ${what}.`);
  return input.positionals[0]!;
}

function count(value: string, name: string): number {
  if (!/^\d{1,9}$/.test(value)) throw new OperatorRefusal(`--${name} must be a whole number from 0 to 999999999.`);
  return Number(value);
}

function planOption(input: CommandInput, fallback?: PlanName): PlanName {
  const plan = typeof input.options.plan === 'string' ? input.options.plan : fallback;
  if (plan === undefined || !isPlanName(plan)) throw new OperatorRefusal(`--plan must be one of ${PLAN_NAMES.join(', ')}.`);
  return plan;
}

async function existingAccount(db: Database, id: string): Promise<AccountRow> {
  const account = await findAccount(db, id);
  if (!account) throw new OperatorRefusal(`No account ${id}.`);
  return account;
}

const KEY_FAILURES: Record<CreateKeyFailure, string> = {
  account_not_found: 'No such account.',
  email_not_confirmed: "The account's email address is not confirmed; run accounts confirm-email first.",
  too_many_keys: `The account already has ${MAX_ACTIVE_KEYS} active keys; revoke one first.`,
  form_already_used: 'This key was already created.',
};

export const COMMANDS: Record<string, Command> = {
  purge: {
    usage: 'purge',
    help: `Deletes document records older than ${LIMITS.historyRetentionDays} days, idempotency keys older than ${IDEMPOTENCY_MEMORY_HOURS} hours, ended rate-limit windows, and expired Settings sessions and sign-in links. Run it daily.`,
    options: {},
    async run(_input, { db, now }) {
      return { object: 'purge', deleted: await purgeExpired(db, now) };
    },
  },
  'accounts create': {
    usage: 'accounts create --email EMAIL [--plan free|starter|pro] [--credits N] [--unconfirmed]',
    help: 'Creates an account. Credits default to the plan allowance; the email counts as confirmed unless --unconfirmed.',
    options: { email: { type: 'string' }, plan: { type: 'string' }, credits: { type: 'string' }, unconfirmed: { type: 'boolean' } },
    async run(input, { db, now }) {
      const typed = requiredString(input, 'email');
      const email = readEmailAddress(typed);
      if (email === undefined) throw new OperatorRefusal(`${JSON.stringify(typed)} is not an email address.`);
      const plan = planOption(input, 'free');
      const credits = typeof input.options.credits === 'string' ? count(input.options.credits, 'credits') : undefined;
      const account = await createAccount(db, {
        email,
        plan,
        ...(credits === undefined ? {} : { credits }),
        emailConfirmed: input.options.unconfirmed !== true,
        now,
      });
      if (!account) throw new OperatorRefusal(`An account with the email address "${email}" already exists (letter case aside).`);
      return accountJson(account);
    },
  },
  'accounts confirm-email': {
    usage: 'accounts confirm-email ACCOUNT_ID',
    help: "Marks the account's email address as confirmed, which keys need.",
    options: {},
    async run(input, { db }) {
      const id = onePositional(input, 'account id');
      const account = await confirmEmail(db, id);
      if (!account) throw new OperatorRefusal(`No account ${id}.`);
      return accountJson(account);
    },
  },
  'accounts list': {
    usage: 'accounts list [--limit N] [--after ACCOUNT_ID]',
    help: `Lists accounts, oldest first, ${LIMITS.listLimitDefault} at a time (--limit up to ${LIMITS.listLimitMax}); --after the last id of a page gives the next.`,
    options: { limit: { type: 'string' }, after: { type: 'string' } },
    async run(input, { db }) {
      const limit = typeof input.options.limit === 'string' ? count(input.options.limit, 'limit') : LIMITS.listLimitDefault;
      if (limit < LIMITS.listLimitMin || limit > LIMITS.listLimitMax) {
        throw new OperatorRefusal(`--limit must be from ${LIMITS.listLimitMin} to ${LIMITS.listLimitMax}.`);
      }
      const after = typeof input.options.after === 'string' ? await existingAccount(db, input.options.after) : undefined;
      const rows = await listAccounts(db, { limit: limit + 1, ...(after ? { after } : {}) });
      return { object: 'list', data: rows.slice(0, limit).map(accountJson), has_more: rows.length > limit };
    },
  },
  'accounts find': {
    usage: 'accounts find --email EMAIL',
    help: 'Prints the account with this email address, letter case aside.',
    options: { email: { type: 'string' } },
    async run(input, { db }) {
      const email = requiredString(input, 'email');
      const account = await findAccountByEmail(db, email);
      if (!account) throw new OperatorRefusal(`No account with the email address "${email}".`);
      return accountJson(account);
    },
  },
  'accounts set-plan': {
    usage: `accounts set-plan ACCOUNT_ID --plan ${PLAN_NAMES.join('|')}`,
    help: 'Moves the account to another plan: its rate limits change at once, its monthly allowance from the next credit period (credits add or credits set for this one).',
    options: { plan: { type: 'string' } },
    async run(input, { db }) {
      const id = onePositional(input, 'account id');
      const account = await changePlan(db, id, planOption(input));
      if (!account) throw new OperatorRefusal(`No account ${id}.`);
      return accountJson(account);
    },
  },
  'accounts show': {
    usage: 'accounts show ACCOUNT_ID',
    help: 'Prints the account.',
    options: {},
    async run(input, { db }) {
      return accountJson(await existingAccount(db, onePositional(input, 'account id')));
    },
  },
  'keys create': {
    usage: 'keys create --account ACCOUNT_ID --kind full|preview [--name NAME]',
    help: `Creates an API key (at most ${MAX_ACTIVE_KEYS} active per account). The secret is printed this once and stored only as a hash.`,
    options: { account: { type: 'string' }, kind: { type: 'string' }, name: { type: 'string' } },
    async run(input, { db, now }) {
      const accountId = requiredString(input, 'account');
      const kind = requiredString(input, 'kind');
      if (!Object.hasOwn(KEY_KINDS, kind)) throw new OperatorRefusal('--kind must be full or preview.');
      const name =
        typeof input.options.name === 'string' && input.options.name.trim()
          ? input.options.name.trim()
          : `${KEY_KINDS[kind as KeyKind].label} key`;
      const created = await createKey(db, { accountId, kind: kind as KeyKind, name, now });
      if (typeof created === 'string') throw new OperatorRefusal(KEY_FAILURES[created]);
      return created;
    },
  },
  'keys list': {
    usage: 'keys list --account ACCOUNT_ID',
    help: "Lists the account's keys, revoked ones included; never a secret.",
    options: { account: { type: 'string' } },
    async run(input, { db }) {
      const account = await existingAccount(db, requiredString(input, 'account'));
      return { object: 'list', data: (await listKeys(db, account.id)).map(keyJson) };
    },
  },
  'keys revoke': {
    usage: 'keys revoke KEY_ID',
    help: 'Revokes a key; it is refused from the next request on.',
    options: {},
    async run(input, { db, now }) {
      const id = onePositional(input, 'key id');
      const key = await revokeKey(db, id, now);
      if (!key) throw new OperatorRefusal(`No active key ${id}.`);
      return keyJson(key);
    },
  },
  'keys regenerate': {
    usage: 'keys regenerate KEY_ID',
    help: 'Replaces an active key with a new secret of the same name and kind; the old key is revoked.',
    options: {},
    async run(input, { db, now }) {
      const id = onePositional(input, 'key id');
      const created = await regenerateKey(db, id, now);
      if (!created) throw new OperatorRefusal(`No active key ${id}.`);
      return created;
    },
  },
  'sessions end': {
    usage: 'sessions end --account ACCOUNT_ID',
    help: 'Signs the account out of Settings everywhere: ends every session and voids the sign-in links not yet used (for a holder who lost a device or an inbox).',
    options: { account: { type: 'string' } },
    async run(input, { db, now }) {
      const id = requiredString(input, 'account');
      await existingAccount(db, id);
      return { object: 'sessions_ended', account: id, sessions: await endAllSessions(db, id, now) };
    },
  },
  'credits add': {
    usage: 'credits add --account ACCOUNT_ID --credits N',
    help: 'Adds credits to the current period; grants made at the same time all count.',
    options: { account: { type: 'string' }, credits: { type: 'string' } },
    async run(input, { db }) {
      const id = requiredString(input, 'account');
      const account = await addCredits(db, id, count(requiredString(input, 'credits'), 'credits'));
      if (!account) throw new OperatorRefusal(`No account ${id}.`);
      return accountJson(account);
    },
  },
  'credits set': {
    usage: 'credits set --account ACCOUNT_ID --remaining N',
    help: 'Sets the credits left in the current period.',
    options: { account: { type: 'string' }, remaining: { type: 'string' } },
    async run(input, { db }) {
      const id = requiredString(input, 'account');
      const account = await setCredits(db, id, count(requiredString(input, 'remaining'), 'remaining'));
      if (!account) throw new OperatorRefusal(`No account ${id}.`);
      return accountJson(account);
    },
  },
};

/** The command of that name ("accounts create"); only the table's own entries, never a name every object has. */
export function findCommand(name: string): Command | undefined {
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
}
