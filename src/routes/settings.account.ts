import { HEADERS } from '../contract/headers.ts';
import {
  accountDeletedView,
  accountView,
  addressTakenView,
  confirmEmailChangeView,
  deleteAccountView,
  emailChangedView,
  emailChangeExpiredView,
  emailChangeSentView,
} from '../pages/account-views.ts';
import { field } from '../pages/form.ts';
import { PAGE_PATHS, pageResponse } from '../pages/layout.ts';
import { type PageRequest, settingsPage } from '../pages/page-route.ts';
import { clearedSessionCookie } from '../pages/security.ts';
import { deleteAccount } from '../settings/account-deletion.ts';
import { confirmEmailChange, EMAIL_CHANGE_PATH, pendingEmailChange, requestEmailChange } from '../settings/email-change.ts';
import { maskedEmail } from '../settings/links.ts';
import { linkRequest, mailedOrLimited } from './settings.sign-in.ts';

export const settingsAccountRoute = settingsPage({
  method: 'GET',
  path: PAGE_PATHS.account,
  operationId: 'settingsAccount',
  summary: 'Settings: the account’s address, and deleting the account',
  session: 'required',
  handle: ({ session }) => pageResponse({ title: 'Account', session, body: accountView({ session }) }),
});

export const settingsChangeEmailRoute = settingsPage({
  method: 'POST',
  path: PAGE_PATHS.accountEmail,
  operationId: 'settingsChangeEmail',
  summary: 'Settings: email a link to the new address that changes the account’s address',
  session: 'required',
  async handle(page) {
    const { session } = page;
    const refused = (newEmail: string, error: string) =>
      pageResponse({ title: 'Account', status: 400, session, body: accountView({ session, newEmail, error }) });
    const prepared = linkRequest(page);
    if ('invalidEmail' in prepared) return refused(prepared.invalidEmail, 'Enter the new address, such as name@example.com.');
    if (prepared.request.email.toLowerCase() === session.account.email.toLowerCase()) {
      return refused(prepared.request.email, 'This is already the address of your account.');
    }
    await mailedOrLimited(requestEmailChange(prepared.deps, session.account, prepared.request));
    return pageResponse({ title: 'Check your new address', session, body: emailChangeSentView(prepared.request.email) });
  },
});

function changeLinkExpired(page: PageRequest): Response {
  return pageResponse({ title: 'Link expired', status: 400, session: page.session, body: emailChangeExpiredView() });
}

export const settingsEmailChangeLinkPageRoute = settingsPage({
  method: 'GET',
  path: EMAIL_CHANGE_PATH,
  operationId: 'settingsEmailChangeLinkPage',
  summary: 'Settings: the page of an address-change link (a button, so that mail scanners do not use the link up)',
  session: 'optional',
  async handle(page) {
    const token = page.context.url.searchParams.get('token') ?? '';
    const pending = await pendingEmailChange(page.context.deps.db, token, page.context.deps.clock.now());
    if (!pending) return changeLinkExpired(page);
    const body = confirmEmailChangeView({
      token,
      session: page.session,
      from: maskedEmail(pending.email),
      to: pending.newEmail,
      path: EMAIL_CHANGE_PATH,
    });
    return pageResponse({ title: 'Change your email address', session: page.session, body });
  },
});

export const settingsEmailChangeLinkRoute = settingsPage({
  method: 'POST',
  path: EMAIL_CHANGE_PATH,
  operationId: 'settingsEmailChangeLink',
  summary: 'Settings: use an address-change link once',
  session: 'optional',
  async handle(page) {
    const { deps, requestId, waitUntil } = page.context;
    const outcome = await confirmEmailChange(
      { db: deps.db, mailer: deps.mailer, afterAnswer: waitUntil },
      { token: field(page.form, 'token'), now: deps.clock.now(), requestId },
    );
    if (outcome === 'link_expired') return changeLinkExpired(page);
    if ('addressTaken' in outcome) {
      return pageResponse({
        title: 'Address not changed',
        status: 409,
        session: page.session,
        body: addressTakenView(outcome.addressTaken),
      });
    }
    page.context.trace.accountId = outcome.changed.accountId;
    const signedIn = page.session?.account.id === outcome.changed.accountId;
    return pageResponse({ title: 'Email address changed', session: page.session, body: emailChangedView(outcome.changed.to, signedIn) });
  },
});

export const settingsDeleteAccountPageRoute = settingsPage({
  method: 'GET',
  path: PAGE_PATHS.accountDelete,
  operationId: 'settingsDeleteAccountPage',
  summary: 'Settings: asks before the account is deleted',
  session: 'required',
  handle: ({ session }) => pageResponse({ title: 'Delete your account?', session, body: deleteAccountView({ session }) }),
});

export const settingsDeleteAccountRoute = settingsPage({
  method: 'POST',
  path: PAGE_PATHS.accountDelete,
  operationId: 'settingsDeleteAccount',
  summary: 'Settings: delete the account (keys revoked, sessions ended, address removed)',
  session: 'required',
  async handle({ context, session, form }) {
    if (field(form, 'email').trim().toLowerCase() !== session.account.email.toLowerCase()) {
      const error = 'Type the email address of this account, as shown above, to delete it.';
      return pageResponse({ title: 'Delete your account?', status: 400, session, body: deleteAccountView({ session, error }) });
    }
    await deleteAccount(context.deps.db, session.account.id, context.deps.clock.now());
    const response = pageResponse({ title: 'Account deleted', body: accountDeletedView() });
    response.headers.set(HEADERS.setCookie, clearedSessionCookie());
    return response;
  },
});
