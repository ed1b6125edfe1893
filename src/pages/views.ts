import type { ACCOUNT_LIMITS } from '../accounts/plans.ts';
import type { KeyRow } from '../auth/store.ts';
import { KEY_KINDS } from '../contract/scopes.ts';
import { type DocumentRow, SOURCES } from '../documents/record.ts';
import { MAIL_ADDRESS_MAX_CHARS } from '../mail/address.ts';
import type { Session } from '../settings/sessions.ts';
import { SIGN_IN_LINK_LIFETIME_MINUTES, SIGN_IN_LINK_PATH } from '../settings/sign-in.ts';
import { firstRequest } from './first-request.ts';
import { type Html, html } from './html.ts';
import { buttonForm, csrfField, isoTime, PAGE_PATHS, time } from './layout.ts';

/** What each member of the Account object's `limits` means, as the pages say it. */
const LIMIT_LABELS: Readonly<Record<keyof typeof ACCOUNT_LIMITS, string>> = {
  final_per_minute_key: 'Final documents per minute, per key',
  requests_per_minute_key: 'Requests per minute, per key',
  preview_per_hour_key: 'Previews per hour, per key',
  preview_per_day_key: 'Previews per day, per key',
  preview_per_hour_account: 'Previews per hour, for the account',
  preview_per_day_account: 'Previews per day, for the account',
};

export interface AccountView {
  plan: string;
  credits: { remaining: number; monthly_allowance: number; period_end: string };
  limits: Record<keyof typeof ACCOUNT_LIMITS, number>;
}

function errorNote(message: string | undefined): Html {
  return message ? html`<p class="error" role="alert">${message}</p>` : html``;
}

function emailForm(input: { action: string; button: string; session: Session | undefined; email?: string }): Html {
  return html`<form method="post" action="${input.action}" class="stacked">
${csrfField(input.session)}
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="email" required maxlength="${MAIL_ADDRESS_MAX_CHARS}" value="${input.email ?? ''}">
<button type="submit">${input.button}</button>
</form>`;
}

export function signInView(input: { session: Session | undefined; signUpOpen: boolean; email?: string; error?: string }): Html {
  return html`<h1>Sign in</h1>
<p>We email you a link that signs you in: no password to remember.</p>
${errorNote(input.error)}
${emailForm({ action: PAGE_PATHS.signIn, button: 'Email me a sign-in link', session: input.session, email: input.email })}
${input.signUpOpen ? html`<p>No account yet? <a href="${PAGE_PATHS.signUp}">Sign up</a>.</p>` : ''}`;
}

export function signUpView(input: { session: Session | undefined; email?: string; error?: string }): Html {
  return html`<h1>Sign up</h1>
<p>Create an account on the free plan with your email address. We email you a link to sign in; following it confirms the address.</p>
${errorNote(input.error)}
${emailForm({ action: PAGE_PATHS.signUp, button: 'Sign up', session: input.session, email: input.email })}
<p>Already have an account? <a href="${PAGE_PATHS.signIn}">Sign in</a>.</p>`;
}

export function checkEmailView(email: string): Html {
  return html`<h1>Check your email</h1>
<p>If an account has the address <strong>${email}</strong>, we have emailed it a sign-in link. The link works once, within ${SIGN_IN_LINK_LIFETIME_MINUTES} minutes.</p>
<p>Nothing arrived? Check the spam folder, or <a href="${PAGE_PATHS.signIn}">ask for another link</a>.</p>`;
}

/**
 * The page of a sign-in link: whose account it signs in to (masked), and, when this browser is signed in to
 * another account, that the link ends that session.
 */
export function useLinkView(input: { token: string; session: Session | undefined; account: string; replaces: string | undefined }): Html {
  return html`<h1>Sign in</h1>
<p>Sign in to Settings as <strong>${input.account}</strong> with the link from your email. If this is not your address, do not sign in: close this page.</p>
${
  input.replaces
    ? html`<p class="notice">You are signed in as <strong>${input.replaces}</strong>. Signing in with this link ends that session and signs you in as ${input.account} instead.</p>`
    : ''
}
<form method="post" action="${SIGN_IN_LINK_PATH}">
${csrfField(input.session)}
<input type="hidden" name="token" value="${input.token}">
<button type="submit">Sign in</button>
</form>`;
}

export function linkExpiredView(): Html {
  return html`<h1>This sign-in link has expired or was already used</h1>
<p>A sign-in link works once, within ${SIGN_IN_LINK_LIFETIME_MINUTES} minutes. <a href="${PAGE_PATHS.signIn}">Ask for a new link</a>.</p>`;
}

function limitsTable(account: AccountView): Html {
  const rows = (Object.keys(LIMIT_LABELS) as (keyof typeof LIMIT_LABELS)[]).map(
    (member) => html`<tr><th scope="row">${LIMIT_LABELS[member]}</th><td>${account.limits[member]}</td></tr>`,
  );
  return html`<p class="table-title" id="limits-title">Rate limits of the plan</p>
<div class="table-scroll"><table aria-labelledby="limits-title">
<thead><tr><th scope="col">Limit</th><th scope="col">Value</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>`;
}

/** A plan as the pages name it: plans have no display name of their own, so their key, capitalised (`free` → `Free`). */
function planLabel(plan: string): string {
  return plan.charAt(0).toUpperCase() + plan.slice(1);
}

/** The plan and credits facts, as items of a `dl.facts`. */
function creditFacts(account: AccountView): Html {
  return html`<dt>Plan</dt><dd>${planLabel(account.plan)}</dd>
<dt>Credits left</dt><dd>${account.credits.remaining} of ${account.credits.monthly_allowance} this period</dd>
<dt>Period ends</dt><dd>${isoTime(account.credits.period_end)}</dd>`;
}

export function overviewView(session: Session, account: AccountView, baseUrl: string): Html {
  // One list, so that the labels of the account and of its credits share one column.
  return html`<h1>Overview</h1>
<dl class="facts">
<dt>Email address</dt><dd>${session.account.email}</dd>
<dt>Email confirmed</dt><dd>${session.account.emailConfirmed ? 'Yes' : 'No'}</dd>
${creditFacts(account)}
</dl>
${limitsTable(account)}
<h2>Next steps</h2>
<ol class="steps">
<li><a href="${PAGE_PATHS.newDocument}">Make a document</a> in the browser: fill in a form, check the totals, preview it free, then make the final PDF for 1 credit.</li>
<li><a href="${PAGE_PATHS.keys}">Create an API key</a> to make documents from your own software.</li>
<li>Send a first request with it (a free preview), then read <a href="/docs/api">the API reference</a>:</li>
</ol>
<pre><code id="first-request">${firstRequest(baseUrl)}</code></pre>
<p><button type="button" class="copy" data-copy="first-request" hidden>Copy</button></p>
<p>See the documents you made, from the API and the web app, under <a href="${PAGE_PATHS.usage}">Usage</a>.</p>
<h2>Sessions</h2>
<p>Signing out everywhere ends every session of this account, on every device, this one included.</p>
${buttonForm(PAGE_PATHS.signOutEverywhere, 'Sign out everywhere', session)}`;
}

/** One cell of a stacking table: what it shows, a class, and whether it names its row (the key's name). */
interface Cell {
  readonly content: Html | string | number;
  readonly className?: string;
  readonly namesRow?: boolean;
}

/**
 * A table that becomes one block per row on a phone (`table.stacks` in the stylesheet): the header row is then
 * hidden from sight only, and each cell shows its column's name from its `data-label`. The explicit roles keep
 * it a table for screen readers, which some browsers stop exposing once CSS makes table parts blocks.
 */
function stackingTable(titleId: string, columns: readonly string[], rows: readonly (readonly Cell[])[]): Html {
  const headers = columns.map((column) => html`<th scope="col" role="columnheader">${column}</th>`);
  const body = rows.map(
    (cells) =>
      html`<tr role="row">${cells.map((cell, index) => {
        const attributes = html` data-label="${columns[index]}"${cell.className ? html` class="${cell.className}"` : ''}`;
        return cell.namesRow
          ? html`<th scope="row" role="rowheader"${attributes}>${cell.content}</th>`
          : html`<td role="cell"${attributes}>${cell.content}</td>`;
      })}</tr>\n`,
  );
  return html`<table class="stacks" role="table" aria-labelledby="${titleId}">
<thead role="rowgroup"><tr role="row">${headers}</tr></thead>
<tbody role="rowgroup">${body}</tbody>
</table>`;
}

function keyStatus(key: KeyRow): Html {
  return key.revokedAt === null ? html`Active` : html`Revoked ${time(key.revokedAt)}`;
}

function kindLabel(kind: string): string {
  return Object.hasOwn(KEY_KINDS, kind) ? KEY_KINDS[kind as keyof typeof KEY_KINDS].label : kind;
}

/** What can be done to an active key, each asked on a page of its own before it is done. */
export const KEY_ACTIONS = {
  revoke: {
    label: 'Revoke',
    question: 'Revoke this key?',
    consequence:
      'It stops working at once: every request that sends it is refused with 401 from now on. A revoked key cannot be made active again; create another key if you need one.',
  },
  regenerate: {
    label: 'Regenerate',
    question: 'Regenerate this key?',
    consequence:
      'A new secret is made for it and shown once, on the next page. The current secret stops working at once: update every program that sends it.',
  },
} as const;
export type KeyAction = keyof typeof KEY_ACTIONS;

export function keyActionPath(key: Pick<KeyRow, 'id'>, action: KeyAction): string {
  return `${PAGE_PATHS.keys}/${encodeURIComponent(key.id)}/${action}`;
}

function keyCells(key: KeyRow): Cell[] {
  const actions =
    key.revokedAt === null
      ? html`${(Object.keys(KEY_ACTIONS) as KeyAction[]).map(
          (action) => html`<a class="button" href="${keyActionPath(key, action)}">${KEY_ACTIONS[action].label}</a> `,
        )}`
      : html``;
  return [
    { content: key.name, namesRow: true },
    { content: kindLabel(key.kind) },
    { content: html`<code>${key.prefix}…</code>` },
    { content: time(key.createdAt) },
    { content: key.lastUsedAt === null ? 'Never' : time(key.lastUsedAt) },
    { content: keyStatus(key) },
    { content: actions, className: 'actions' },
  ];
}

/**
 * The page that asks before a key is revoked or regenerated: a plain form, so it works without JavaScript, naming
 * the key and what will happen to it.
 */
export function keyActionView(input: { session: Session; key: KeyRow; action: KeyAction }): Html {
  const { key, action } = input;
  const asked = KEY_ACTIONS[action];
  return html`<h1>${asked.question}</h1>
<dl class="facts">
<dt>Name</dt><dd>${key.name}</dd>
<dt>Kind</dt><dd>${kindLabel(key.kind)}</dd>
<dt>Prefix</dt><dd><code>${key.prefix}…</code></dd>
<dt>Last used</dt><dd>${key.lastUsedAt === null ? 'Never' : time(key.lastUsedAt)}</dd>
</dl>
<p>${asked.consequence}</p>
<form method="post" action="${keyActionPath(key, action)}" class="inline">${csrfField(input.session)}<button type="submit">${asked.label} key</button></form>
<a href="${PAGE_PATHS.keys}">Cancel</a>`;
}

/** The keys page's query that hides revoked keys, and the page's address with it. */
const HIDE_REVOKED = new URLSearchParams({ revoked: 'hide' });
const KEYS_WITHOUT_REVOKED = `${PAGE_PATHS.keys}?${HIDE_REVOKED}`;

/** Whether the keys page was asked to hide revoked keys. */
export function hidesRevoked(url: URL): boolean {
  return [...HIDE_REVOKED].every(([name, value]) => url.searchParams.get(name) === value);
}

export function keysView(input: {
  session: Session;
  keys: KeyRow[];
  /** Whether revoked keys are left out of the table (a link offers the other choice). */
  hideRevoked: boolean;
  /** The create form's own id: the same form sent twice makes one key. */
  formId: string;
  blockedBecause?: string;
  error?: string;
  name?: string;
}): Html {
  const { session } = input;
  const revoked = input.keys.filter((key) => key.revokedAt !== null).length;
  const keys = input.hideRevoked ? input.keys.filter((key) => key.revokedAt === null) : input.keys;
  const choice = !revoked
    ? html``
    : input.hideRevoked
      ? html`<p><a href="${PAGE_PATHS.keys}">Show revoked keys (${revoked})</a></p>`
      : html`<p><a href="${KEYS_WITHOUT_REVOKED}">Hide revoked keys (${revoked})</a></p>`;
  const table = keys.length
    ? html`<p class="table-title" id="keys-title">${
        input.hideRevoked || !revoked ? 'Active keys of this account' : 'Keys of this account, revoked ones included'
      }</p>
<div class="table-scroll">${stackingTable(
        'keys-title',
        ['Name', 'Kind', 'Prefix', 'Created', 'Last used', 'Status', 'Actions'],
        keys.map(keyCells),
      )}</div>`
    : html`<p>${input.keys.length ? 'No active keys.' : 'No keys yet.'}</p>`;
  const kinds = Object.entries(KEY_KINDS).map(([value, kind]) => html`<option value="${value}">${kind.label}</option>`);
  const create = input.blockedBecause
    ? html`<p class="notice">${input.blockedBecause}</p>`
    : html`<form method="post" action="${PAGE_PATHS.keys}" class="stacked">
${csrfField(session)}
<input type="hidden" name="form_id" value="${input.formId}">
<label for="key-name">Key name</label>
<input id="key-name" name="name" type="text" required maxlength="${KEY_NAME_MAX_CHARS}" value="${input.name ?? ''}">
<label for="key-kind">Kind</label>
<select id="key-kind" name="kind">${kinds}</select>
<button type="submit">Create key</button>
</form>`;
  return html`<h1>API keys</h1>
<p>Send a key as <code>Authorization: Bearer &lt;key&gt;</code>. Full access keys make final documents (which use credits); Preview only keys make previews. At most 3 keys are active at a time.</p>
${errorNote(input.error)}
${table}
${choice}
<h2>Create a key</h2>
${create}`;
}

export const KEY_NAME_MAX_CHARS = 64;

export function newKeyView(input: { name: string; secret: string; regenerated: boolean }): Html {
  return html`<h1>${input.regenerated ? 'Your regenerated key' : 'Your new key'}</h1>
<p>${input.regenerated ? 'The old secret of' : 'The secret of'} <strong>${input.name}</strong>${
    input.regenerated ? ' no longer works. The new one:' : ':'
  }</p>
<p class="secret"><code id="new-key-secret">${input.secret}</code></p>
<p><button type="button" class="copy" data-copy="new-key-secret" hidden>Copy</button></p>
<p class="notice">This is the only time the key is shown: copy it now and keep it somewhere safe. We store only a hash of it and cannot show it again.</p>
<p><a href="${PAGE_PATHS.keys}">Back to API keys</a></p>`;
}

/** How the history names each source of a document (2.6 `source`); a source added later shows as stored. */
const SOURCE_LABELS: Readonly<Record<string, string>> = { [SOURCES.api]: 'API', [SOURCES.web]: 'Web app' };

function documentCells(row: DocumentRow): Cell[] {
  return [
    { content: time(row.createdAt) },
    { content: row.reference ?? '', className: 'reference' },
    { content: row.template },
    { content: row.mode },
    { content: SOURCE_LABELS[row.source] ?? row.source },
    { content: row.creditsConsumed },
    { content: html`<code>${row.id}</code>` },
  ];
}

export function usageView(input: {
  account: AccountView;
  rows: DocumentRow[];
  hasMore: boolean;
  reference: string | undefined;
  retentionDays: number;
  referenceMaxChars: number;
}): Html {
  const last = input.rows.at(-1);
  const older =
    input.hasMore && last
      ? `${PAGE_PATHS.usage}?${new URLSearchParams({ ...(input.reference ? { reference: input.reference } : {}), cursor: last.id })}`
      : undefined;
  const table = input.rows.length
    ? html`<p class="table-title" id="documents-title">Documents of the last ${input.retentionDays} days, newest first${
        input.reference ? html`, reference ${input.reference}` : ''
      }</p>
<div class="table-scroll">${stackingTable(
        'documents-title',
        ['Created', 'Reference', 'Template', 'Mode', 'Source', 'Credits', 'Document id'],
        input.rows.map(documentCells),
      )}</div>`
    : html`<p>No documents${input.reference ? ' with this reference' : ''} in the last ${input.retentionDays} days.</p>`;
  return html`<h1>Usage</h1>
<dl class="facts">
${creditFacts(input.account)}
</dl>
${limitsTable(input.account)}
<h2>Document history</h2>
<form method="get" action="${PAGE_PATHS.usage}" class="inline-form">
<label for="reference">Reference</label>
<input id="reference" name="reference" type="text" maxlength="${input.referenceMaxChars}" value="${input.reference ?? ''}">
<button type="submit">Filter</button>
</form>
${table}
${older ? html`<p><a href="${older}">Older documents</a></p>` : ''}`;
}
