import { errorsPage } from '../docs/errors-page.ts';
import { definePage } from '../http/route.ts';

export const getErrorsPageRoute = definePage({
  path: '/docs/api/errors',
  operationId: 'getErrorsPage',
  summary: 'Error reference',
  handle: () => errorsPage(),
});
