import { renewPeriodIfEnded } from '../accounts/store.ts';
import { accountSummary } from '../auth/account-object.ts';
import { PAGE_PATHS, pageResponse } from '../pages/layout.ts';
import { settingsPage } from '../pages/page-route.ts';
import { overviewView } from '../pages/views.ts';

export const settingsOverviewRoute = settingsPage({
  method: 'GET',
  path: PAGE_PATHS.overview,
  operationId: 'settingsOverview',
  summary: 'Settings: the account at a glance',
  session: 'required',
  async handle({ context, session }) {
    const account = await renewPeriodIfEnded(context.deps.db, session.account, context.deps.clock.now());
    return pageResponse({ title: 'Overview', session, body: overviewView(session, accountSummary(account), context.baseUrl) });
  },
});
