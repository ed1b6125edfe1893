import { renewPeriodIfEnded } from '../accounts/store.ts';
import { accountSummary } from '../auth/account-object.ts';
import { LIMITS } from '../contract/limits.ts';
import { historyPage } from '../documents/record.ts';
import { PageError } from '../pages/errors.ts';
import { PAGE_PATHS, pageResponse } from '../pages/layout.ts';
import { settingsPage } from '../pages/page-route.ts';
import { usageView } from '../pages/views.ts';

export const settingsUsageRoute = settingsPage({
  method: 'GET',
  path: PAGE_PATHS.usage,
  operationId: 'settingsUsage',
  summary: 'Settings: credits, limits and the document history',
  session: 'required',
  async handle({ context, session }) {
    const { db, clock } = context.deps;
    const query = context.url.searchParams;
    const reference = query.get('reference') || undefined;
    if (reference !== undefined && reference.length > LIMITS.referenceChars) {
      throw new PageError(400, 'Reference too long', `A reference is at most ${LIMITS.referenceChars} characters.`);
    }
    const cursor = query.get('cursor') || undefined;
    const now = clock.now();
    const page = await historyPage(db, {
      accountId: session.account.id,
      now,
      limit: LIMITS.listLimitDefault,
      ...(reference === undefined ? {} : { reference }),
      ...(cursor === undefined ? {} : { startingAfter: cursor }),
    });
    if (!page) throw new PageError(400, 'That page of the history is gone', 'Start again from the newest documents.');
    const account = await renewPeriodIfEnded(db, session.account, now);
    const body = usageView({
      account: accountSummary(account),
      rows: page.rows,
      hasMore: page.hasMore,
      reference,
      retentionDays: LIMITS.historyRetentionDays,
      referenceMaxChars: LIMITS.referenceChars,
    });
    return pageResponse({ title: 'Usage', session, body });
  },
});
