import { errorsPage } from '../docs/errors-page.ts';
import { ERRORS_PAGE_PATH } from '../http/respond.ts';
import { definePage } from '../http/route.ts';

export const getErrorsPageRoute = definePage({
  path: ERRORS_PAGE_PATH,
  operationId: 'getErrorsPage',
  summary: 'Error reference',
  handle: () => errorsPage(),
});
