import { type CreateKeyFailure, createKey, findActiveKey, listKeys, MAX_ACTIVE_KEYS, regenerateKey, revokeKey } from '../auth/store.ts';
import { KEY_KINDS, type KeyKind } from '../contract/scopes.ts';
import { PageError } from '../pages/errors.ts';
import { field } from '../pages/form.ts';
import { PAGE_PATHS, pageResponse, seeOther } from '../pages/layout.ts';
import { type SignedInPageRequest, settingsPage } from '../pages/page-route.ts';
import { hidesRevoked, KEY_ACTIONS, KEY_NAME_MAX_CHARS, type KeyAction, keyActionView, keysView, newKeyView } from '../pages/views.ts';
import { isTokenShaped, newToken } from '../settings/tokens.ts';

/** Why a key cannot be made, in the words the form and the refused POST both use. */
const CREATE_REFUSALS: Record<Exclude<CreateKeyFailure, 'account_not_found'>, string> = {
  email_not_confirmed: 'Your email address is not confirmed yet: sign in with the link we email you to confirm it, then create a key.',
  too_many_keys: `You have ${MAX_ACTIVE_KEYS} active keys, the most an account can have: revoke one to create another.`,
  form_already_used:
    'This form was already sent: its key was created then, and its secret was shown once, on the page that answered it. If you did not copy it, revoke that key and create another.',
};
const CONTROL_CHARACTERS = /\p{Cc}/u;

async function keysPage(page: SignedInPageRequest, status = 200, input: { error?: string; name?: string } = {}): Promise<Response> {
  const { session, context } = page;
  const keys = await listKeys(context.deps.db, session.account.id);
  const hideRevoked = hidesRevoked(context.url);
  const active = keys.filter((key) => key.revokedAt === null).length;
  const blockedBecause = !session.account.emailConfirmed
    ? CREATE_REFUSALS.email_not_confirmed
    : active >= MAX_ACTIVE_KEYS
      ? CREATE_REFUSALS.too_many_keys
      : undefined;
  // Each form shown gets its own id: sent twice (the new-key page reloaded), it creates one key.
  const body = keysView({ session, keys, hideRevoked, formId: newToken(), ...(blockedBecause ? { blockedBecause } : {}), ...input });
  return pageResponse({ title: 'API keys', status, session, body });
}

/** The page that shows a secret, its one and only time. */
function secretPage(page: SignedInPageRequest, created: { name: string; key: string }, regenerated: boolean): Response {
  const title = regenerated ? 'Your regenerated key' : 'Your new key';
  return pageResponse({ title, session: page.session, body: newKeyView({ name: created.name, secret: created.key, regenerated }) });
}

function noSuchKey(): PageError {
  return new PageError(404, 'No such key', 'This account has no active key with this id: it may have been revoked already.');
}

export const settingsKeysRoute = settingsPage({
  method: 'GET',
  path: PAGE_PATHS.keys,
  operationId: 'settingsKeys',
  summary: 'Settings: the keys of the account',
  session: 'required',
  handle: (page) => keysPage(page),
});

export const settingsCreateKeyRoute = settingsPage({
  method: 'POST',
  path: PAGE_PATHS.keys,
  operationId: 'settingsCreateKey',
  summary: 'Settings: create a key, its secret shown once',
  session: 'required',
  async handle(page) {
    const name = field(page.form, 'name').trim();
    const kind = field(page.form, 'kind');
    if (!name || name.length > KEY_NAME_MAX_CHARS || CONTROL_CHARACTERS.test(name)) {
      return keysPage(page, 400, { error: `A key name is 1 to ${KEY_NAME_MAX_CHARS} characters.`, name });
    }
    if (!Object.hasOwn(KEY_KINDS, kind)) return keysPage(page, 400, { error: 'Choose the kind: Full access or Preview only.', name });
    const formId = field(page.form, 'form_id');
    if (!isTokenShaped(formId))
      return keysPage(page, 400, { error: 'This form is out of date: create the key with the form below.', name });
    const { db, clock } = page.context.deps;
    const created = await createKey(db, { accountId: page.session.account.id, kind: kind as KeyKind, name, now: clock.now(), formId });
    if (created === 'account_not_found') return seeOther(PAGE_PATHS.signIn);
    if (typeof created === 'string') return keysPage(page, 409, { error: CREATE_REFUSALS[created], name });
    return secretPage(page, created, false);
  },
});

/** The page that asks before a key is revoked or regenerated (the action's POST is the same path). */
function keyActionPage(action: KeyAction) {
  return settingsPage({
    method: 'GET',
    path: `${PAGE_PATHS.keys}/{id}/${action}`,
    operationId: `settingsConfirm${KEY_ACTIONS[action].label}Key`,
    summary: `Settings: asks before a key is ${action === 'revoke' ? 'revoked' : 'regenerated'}`,
    session: 'required',
    async handle(page) {
      const key = await findActiveKey(page.context.deps.db, page.context.params.id ?? '', page.session.account.id);
      if (!key) throw noSuchKey();
      return pageResponse({
        title: KEY_ACTIONS[action].question,
        session: page.session,
        body: keyActionView({ session: page.session, key, action }),
      });
    },
  });
}

export const settingsConfirmRevokeKeyRoute = keyActionPage('revoke');
export const settingsConfirmRegenerateKeyRoute = keyActionPage('regenerate');

export const settingsRevokeKeyRoute = settingsPage({
  method: 'POST',
  path: `${PAGE_PATHS.keys}/{id}/revoke`,
  operationId: 'settingsRevokeKey',
  summary: 'Settings: revoke a key of the account',
  session: 'required',
  async handle(page) {
    const { db, clock } = page.context.deps;
    const revoked = await revokeKey(db, page.context.params.id ?? '', clock.now(), page.session.account.id);
    if (!revoked) throw noSuchKey();
    return seeOther(PAGE_PATHS.keys);
  },
});

export const settingsRegenerateKeyRoute = settingsPage({
  method: 'POST',
  path: `${PAGE_PATHS.keys}/{id}/regenerate`,
  operationId: 'settingsRegenerateKey',
  summary: 'Settings: a new secret for a key of the account (the old one revoked)',
  session: 'required',
  async handle(page) {
    const { db, clock } = page.context.deps;
    const created = await regenerateKey(db, page.context.params.id ?? '', clock.now(), page.session.account.id);
    if (!created) throw noSuchKey();
    return secretPage(page, created, true);
  },
});
