import { readEmailAddress } from '../accounts/email-address.ts';
import { ApiError } from '../contract/api-error.ts';
import { HEADERS } from '../contract/headers.ts';
import { SIGN_IN_MAIL_LIMIT } from '../contract/limits.ts';
import type { RequestContext } from '../http/context.ts';
import { PageError } from '../pages/errors.ts';
import { field } from '../pages/form.ts';
import { PAGE_PATHS, pageResponse, seeOther } from '../pages/layout.ts';
import { type PageRequest, settingsPage } from '../pages/page-route.ts';
import { sessionCookie, sessionCookieValue } from '../pages/security.ts';
import { checkEmailView, linkExpiredView, signInView, signUpView, useLinkView } from '../pages/views.ts';
import { maskedEmail, signInLinkHolder } from '../settings/links.ts';
import { SESSION_LIFETIME_MS } from '../settings/sessions.ts';
import { type LinkRequest, requestSignInLink, SIGN_IN_LINK_PATH, type SignInDeps, signUp, useSignInLink } from '../settings/sign-in.ts';

const MAIL_NOT_CONFIGURED =
  'Sign-in by email is not configured on this server, so no link can be sent. Its operator has to configure email (SMTP) first.';
const INVALID_EMAIL = 'Enter your email address, such as name@example.com.';

/** What a POST that mails a link needs first: a mail transport and a readable address. */
export function linkRequest(page: PageRequest): { deps: SignInDeps; request: LinkRequest } | { invalidEmail: string } {
  const { context } = page;
  const { mailer } = context.deps;
  if (!mailer) throw new PageError(503, 'Sign-in by email is not configured', MAIL_NOT_CONFIGURED);
  const typed = field(page.form, 'email');
  const email = readEmailAddress(typed);
  if (!email) return { invalidEmail: typed };
  return {
    deps: { ...context.deps, mailer, afterAnswer: context.waitUntil },
    request: { email, clientAddress: context.clientAddress, requestId: context.requestId },
  };
}

/** Sends the link (or not) and answers the one "Check your email" page at once; a refusal of the limits says them. */
async function sendAndAnswer(
  page: PageRequest,
  send: (deps: SignInDeps, request: LinkRequest) => Promise<void>,
  deps: SignInDeps,
  request: LinkRequest,
) {
  await mailedOrLimited(send(deps, request));
  return pageResponse({ title: 'Check your email', session: page.session, body: checkEmailView(request.email) });
}

/** Waits for a link's mail to be counted (and queued); past the limit, the page that says the limits. */
export async function mailedOrLimited(counted: Promise<void>): Promise<void> {
  try {
    await counted;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'rate_limited') throw mailLimitReached(error);
    throw error;
  }
}

function mailLimitReached(error: ApiError): PageError {
  const retryAfter = error.headers[HEADERS.retryAfter] ?? '3600';
  const minutes = Math.max(1, Math.ceil(Number(retryAfter) / 60));
  return new PageError(
    429,
    'Too many sign-in emails',
    `We send at most ${SIGN_IN_MAIL_LIMIT.perAddressPerNetworkPerHour} sign-in emails an hour to one address asked for from one network, ${SIGN_IN_MAIL_LIMIT.perAddressPerHour} an hour to one address in all, and ${SIGN_IN_MAIL_LIMIT.perNetworkPerHour} an hour to one network. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    { [HEADERS.retryAfter]: retryAfter },
  );
}

function signUpOpen(context: RequestContext): boolean {
  return context.deps.config.signUpEnabled;
}

export const settingsSignInPageRoute = settingsPage({
  method: 'GET',
  path: PAGE_PATHS.signIn,
  operationId: 'settingsSignInPage',
  summary: 'Settings: ask for a sign-in link',
  session: 'optional',
  handle: ({ context, session }) =>
    pageResponse({ title: 'Sign in', session, body: signInView({ session, signUpOpen: signUpOpen(context) }) }),
});

export const settingsSignInRoute = settingsPage({
  method: 'POST',
  path: PAGE_PATHS.signIn,
  operationId: 'settingsSignIn',
  summary: 'Settings: email a sign-in link',
  session: 'optional',
  async handle(page) {
    const prepared = linkRequest(page);
    if ('invalidEmail' in prepared) {
      const body = signInView({
        session: page.session,
        signUpOpen: signUpOpen(page.context),
        email: prepared.invalidEmail,
        error: INVALID_EMAIL,
      });
      return pageResponse({ title: 'Sign in', status: 400, session: page.session, body });
    }
    return sendAndAnswer(page, requestSignInLink, prepared.deps, prepared.request);
  },
});

function invitationOnly(): PageError {
  return new PageError(
    404,
    'Sign-up is by invitation',
    'This service opens accounts by invitation: its operator creates them. If you have an account, sign in.',
  );
}

export const settingsSignUpPageRoute = settingsPage({
  method: 'GET',
  path: PAGE_PATHS.signUp,
  operationId: 'settingsSignUpPage',
  summary: 'Settings: sign up',
  session: 'optional',
  handle({ context, session }) {
    if (!signUpOpen(context)) throw invitationOnly();
    return pageResponse({ title: 'Sign up', session, body: signUpView({ session }) });
  },
});

export const settingsSignUpRoute = settingsPage({
  method: 'POST',
  path: PAGE_PATHS.signUp,
  operationId: 'settingsSignUp',
  summary: 'Settings: create an account and email a sign-in link',
  session: 'optional',
  async handle(page) {
    if (!signUpOpen(page.context)) throw invitationOnly();
    const prepared = linkRequest(page);
    if ('invalidEmail' in prepared) {
      const body = signUpView({ session: page.session, email: prepared.invalidEmail, error: INVALID_EMAIL });
      return pageResponse({ title: 'Sign up', status: 400, session: page.session, body });
    }
    return sendAndAnswer(page, signUp, prepared.deps, prepared.request);
  },
});

function linkExpired(page: PageRequest): Response {
  return pageResponse({ title: 'Sign-in link expired', status: 400, session: page.session, body: linkExpiredView() });
}

export const settingsSignInLinkPageRoute = settingsPage({
  method: 'GET',
  path: SIGN_IN_LINK_PATH,
  operationId: 'settingsSignInLinkPage',
  summary: 'Settings: the page of a sign-in link (a button, so that mail scanners do not use the link up)',
  session: 'optional',
  async handle(page) {
    const token = page.context.url.searchParams.get('token') ?? '';
    const holder = await signInLinkHolder(page.context.deps.db, token, page.context.deps.clock.now());
    if (!holder) return linkExpired(page);
    // A link someone else forwarded would sign this browser in to their account (login CSRF): the page says whose.
    const replaces = page.session && page.session.account.id !== holder.accountId ? page.session.account.email : undefined;
    const body = useLinkView({ token, session: page.session, account: maskedEmail(holder.email), replaces });
    return pageResponse({ title: 'Sign in', session: page.session, body });
  },
});

export const settingsSignInLinkRoute = settingsPage({
  method: 'POST',
  path: SIGN_IN_LINK_PATH,
  operationId: 'settingsSignInLink',
  summary: 'Settings: use a sign-in link once and start a session',
  session: 'optional',
  async handle(page) {
    const { deps, request } = page.context;
    const signedIn = await useSignInLink(deps.db, {
      token: field(page.form, 'token'),
      now: deps.clock.now(),
      previousSessionToken: sessionCookieValue(request),
    });
    if (!signedIn) return linkExpired(page);
    page.context.trace.accountId = signedIn.accountId;
    return seeOther(PAGE_PATHS.overview, { [HEADERS.setCookie]: sessionCookie(signedIn.sessionToken, SESSION_LIFETIME_MS / 1000) });
  },
});
