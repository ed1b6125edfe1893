import * as v from 'valibot';
import { SignInPart } from '../auth/sign-in-batch.ts';
import { accountIdInSql } from '../auth/store.ts';
import { LIMITS } from '../contract/limits.ts';
import { type DocumentRow, documentObject, historyPage, listQuery, pageOf, SOURCES } from '../documents/record.ts';
import { keyed, type RequestContext } from '../http/context.ts';
import { defineParameter, invalidQuery, readParameters } from '../http/parameters.ts';
import { json } from '../http/respond.ts';
import { defineRoute } from '../http/route.ts';
import { DOCUMENT_LIST_EXAMPLE } from '../openapi/examples.ts';

const LIMIT_RANGE = `${LIMITS.listLimitMin} to ${LIMITS.listLimitMax}`;
/** `limit` as it may be written: digits only (no `1e2`, no sign), no more of them than the largest limit has. */
const LIMIT_DIGITS = new RegExp(`^\\d{1,${String(LIMITS.listLimitMax).length}}$`);
const REFERENCE_LENGTH = `1 to ${LIMITS.referenceChars} characters`;

const CURSOR_REFUSAL = 'starting_after must be the id of one of your listable documents.';

/** The query of a list request: each parameter read by its schema, refused by its own message (section 7). */
const LIST_PARAMETERS = [
  defineParameter({
    name: 'limit',
    in: 'query',
    description: `${LIMIT_RANGE}; default ${LIMITS.listLimitDefault}.`,
    schema: v.optional(
      v.pipe(
        v.string(),
        v.regex(LIMIT_DIGITS),
        v.transform(Number),
        v.number(),
        v.integer(),
        v.minValue(LIMITS.listLimitMin),
        v.maxValue(LIMITS.listLimitMax),
      ),
      String(LIMITS.listLimitDefault),
    ),
    refusal: () => invalidQuery(`limit is a whole number from ${LIMIT_RANGE}.`, 'limit'),
    errors: ['invalid_request'],
  }),
  defineParameter({
    name: 'reference',
    in: 'query',
    description: `Exact, case-sensitive match; ${REFERENCE_LENGTH}.`,
    schema: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(LIMITS.referenceChars))),
    refusal: () => invalidQuery(`reference is ${REFERENCE_LENGTH}.`, 'reference'),
    errors: ['invalid_request'],
  }),
  defineParameter({
    name: 'starting_after',
    in: 'query',
    description: `A document id from the previous page, at most ${LIMITS.startingAfterChars} characters; must be one of the caller's listable documents.`,
    schema: v.optional(v.pipe(v.string(), v.maxLength(LIMITS.startingAfterChars))),
    refusal: () => invalidQuery(CURSOR_REFUSAL, 'starting_after'),
    errors: ['invalid_request'],
  }),
] as const;

export const listDocumentsRoute = defineRoute({
  method: 'GET',
  path: '/api/v1/documents',
  access: { kind: 'key', scope: 'documents:read' },
  versioned: true,
  doc: {
    operationId: 'listDocuments',
    summary: 'List document records',
    description: `Records of documents the account made through the API in the last ${LIMITS.historyRetentionDays} days, newest first (created_at, then id, both descending). Documents made in the web app (\`source\` \`web\`) are not listed here: Settings' history shows them, and GET /api/v1/documents/{id} returns their record.`,
    tag: 'Documents',
    responses: {
      200: { description: 'A page of records.', schema: { $ref: '#/components/schemas/DocumentList' }, example: DOCUMENT_LIST_EXAMPLE },
    },
  },
  parameters: LIST_PARAMETERS,
  withSignIn: async (context, caller) => {
    const query = firstPageQuery(context);
    return (
      query &&
      new SignInPart(undefined).add('page', [
        listQuery(context.deps.db, {
          accountId: accountIdInSql(caller.hash),
          now: context.deps.clock.now(),
          source: SOURCES.api,
          ...query,
        }),
      ])
    );
  },
  async handle(context, sent) {
    const { auth, deps } = keyed(context);
    const { limit, reference, starting_after: startingAfter } = readParameters(LIST_PARAMETERS, context);
    const page =
      startingAfter === undefined
        ? pageOf(sent!.rowsOf<DocumentRow>('page'), limit)
        : await historyPage(deps.db, {
            accountId: auth.account.id,
            now: deps.clock.now(),
            limit,
            source: SOURCES.api,
            startingAfter,
            ...(reference === undefined ? {} : { reference }),
          });
    if (!page) throw invalidQuery(CURSOR_REFUSAL, 'starting_after');
    return json({ object: 'list', data: page.rows.map(documentObject), has_more: page.hasMore });
  },
});

/**
 * The first page's parameters, which the sign-in's round trip reads; undefined for a later page (its cursor is
 * looked up first, by the handler) and for parameters the handler will refuse once the key is checked.
 */
function firstPageQuery(context: RequestContext): { limit: number; reference?: string } | undefined {
  try {
    const { limit, reference, starting_after: startingAfter } = readParameters(LIST_PARAMETERS, context);
    if (startingAfter !== undefined) return undefined;
    return reference === undefined ? { limit } : { limit, reference };
  } catch {
    return undefined;
  }
}
