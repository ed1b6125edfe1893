import { HEADERS } from '../contract/headers.ts';
import { PAGE_PATHS, seeOther } from '../pages/layout.ts';
import { settingsPage } from '../pages/page-route.ts';
import { clearedSessionCookie } from '../pages/security.ts';
import { endAllSessions, endSession } from '../settings/sessions.ts';

export const settingsSignOutRoute = settingsPage({
  method: 'POST',
  path: PAGE_PATHS.signOut,
  operationId: 'settingsSignOut',
  summary: 'Settings: end this session',
  session: 'required',
  async handle({ context, session }) {
    await endSession(context.deps.db, session.token);
    return seeOther(PAGE_PATHS.signIn, { [HEADERS.setCookie]: clearedSessionCookie() });
  },
});

export const settingsSignOutEverywhereRoute = settingsPage({
  method: 'POST',
  path: PAGE_PATHS.signOutEverywhere,
  operationId: 'settingsSignOutEverywhere',
  summary: 'Settings: end every session of the account',
  session: 'required',
  async handle({ context, session }) {
    await endAllSessions(context.deps.db, session.account.id, context.deps.clock.now());
    return seeOther(PAGE_PATHS.signIn, { [HEADERS.setCookie]: clearedSessionCookie() });
  },
});
