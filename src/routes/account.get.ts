import { renewPeriodIfEnded } from '../accounts/store.ts';
import { accountObject } from '../auth/account-object.ts';
import { keyed } from '../http/context.ts';
import { json } from '../http/respond.ts';
import { defineRoute } from '../http/route.ts';
import { ACCOUNT_EXAMPLE } from '../openapi/examples.ts';

export const getAccountRoute = defineRoute({
  method: 'GET',
  path: '/api/v1/account',
  access: { kind: 'key', scope: 'account:read' },
  versioned: true,
  doc: {
    operationId: 'getAccount',
    summary: 'Get the account',
    description: 'Returns the plan, the credits of the current period, the calling key and the rate limits that apply to it.',
    tag: 'Account',
    responses: { 200: { description: 'The account.', schema: { $ref: '#/components/schemas/Account' }, example: ACCOUNT_EXAMPLE } },
  },
  async handle(context) {
    const { auth, deps } = keyed(context);
    const account = await renewPeriodIfEnded(deps.db, auth.account, deps.clock.now());
    return json(accountObject(account, auth.key));
  },
});
