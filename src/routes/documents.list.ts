import { SignInPart } from '../auth/sign-in-batch.ts';
import { accountIdInSql } from '../auth/store.ts';
import { ApiError } from '../contract/api-error.ts';
import { LIMITS } from '../contract/limits.ts';
import { type DocumentRow, documentObject, historyPage, listQuery, pageOf, SOURCES } from '../documents/record.ts';
import { keyed } from '../http/context.ts';
import { json } from '../http/respond.ts';
import { defineRoute } from '../http/route.ts';
import { DOCUMENT_LIST_EXAMPLE } from '../openapi/examples.ts';

const QUERY_NAMES = ['reference', 'limit', 'starting_after'];
const LIMIT_RANGE = `${LIMITS.listLimitMin} to ${LIMITS.listLimitMax}`;
/** `limit` as it may be written: digits only (no `1e2`, no sign), no more of them than the largest limit has. */
const LIMIT_DIGITS = new RegExp(`^\\d{1,${String(LIMITS.listLimitMax).length}}$`);
const REFERENCE_LENGTH = `1 to ${LIMITS.referenceChars} characters`;

function invalidQuery(message: string, field: string): ApiError {
  return new ApiError('invalid_request', { detail: 'invalid_query', message, field });
}

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
    parameters: [
      {
        name: 'reference',
        in: 'query',
        required: false,
        description: `Exact, case-sensitive match; ${REFERENCE_LENGTH}.`,
        schema: { type: 'string', minLength: 1, maxLength: LIMITS.referenceChars },
      },
      {
        name: 'limit',
        in: 'query',
        required: false,
        description: `${LIMIT_RANGE}; default ${LIMITS.listLimitDefault}.`,
        schema: { type: 'integer', minimum: LIMITS.listLimitMin, maximum: LIMITS.listLimitMax, default: LIMITS.listLimitDefault },
      },
      {
        name: 'starting_after',
        in: 'query',
        required: false,
        description: `A document id from the previous page, at most ${LIMITS.startingAfterChars} characters; must be one of the caller's listable documents.`,
        schema: { type: 'string', maxLength: LIMITS.startingAfterChars },
      },
    ],
    responses: {
      200: { description: 'A page of records.', schema: { $ref: '#/components/schemas/DocumentList' }, example: DOCUMENT_LIST_EXAMPLE },
    },
    errors: [],
  },
  withSignIn: async ({ deps, url }, caller) => {
    const query = firstPageQuery(url);
    return (
      query &&
      new SignInPart(undefined).add('page', [
        listQuery(deps.db, { accountId: accountIdInSql(caller.hash), now: deps.clock.now(), source: SOURCES.api, ...query }),
      ])
    );
  },
  async handle(context, sent) {
    const { auth, deps, url } = keyed(context);
    const { limit, reference, startingAfter } = listParameters(url);
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
    if (!page) throw invalidQuery('starting_after must be the id of one of your listable documents.', 'starting_after');
    return json({ object: 'list', data: page.rows.map(documentObject), has_more: page.hasMore });
  },
});

interface ListParameters {
  readonly limit: number;
  readonly reference?: string;
  readonly startingAfter?: string;
}

/** The query parameters, checked: throws the contract's 400 for the first one that is wrong. */
function listParameters(url: URL): ListParameters {
  const query = url.searchParams;
  for (const name of new Set(query.keys())) {
    if (!QUERY_NAMES.includes(name)) throw invalidQuery(`Unknown query parameter ${name}.`, name);
    if (query.getAll(name).length > 1) throw invalidQuery(`${name} is given more than once.`, name);
  }
  const limitText = query.get('limit');
  const limit = limitText === null ? LIMITS.listLimitDefault : Number(limitText);
  if ((limitText !== null && !LIMIT_DIGITS.test(limitText)) || limit < LIMITS.listLimitMin || limit > LIMITS.listLimitMax) {
    throw invalidQuery(`limit is a whole number from ${LIMIT_RANGE}.`, 'limit');
  }
  const reference = query.get('reference') ?? undefined;
  if (reference !== undefined && (reference.length < 1 || reference.length > LIMITS.referenceChars)) {
    throw invalidQuery(`reference is ${REFERENCE_LENGTH}.`, 'reference');
  }
  const startingAfter = query.get('starting_after') ?? undefined;
  return { limit, ...(reference === undefined ? {} : { reference }), ...(startingAfter === undefined ? {} : { startingAfter }) };
}

/**
 * The first page's parameters, which the sign-in's round trip reads; undefined for a later page (its cursor is
 * looked up first, by the handler) and for parameters the handler will refuse once the key is checked.
 */
function firstPageQuery(url: URL): Omit<ListParameters, 'startingAfter'> | undefined {
  try {
    const parameters = listParameters(url);
    return parameters.startingAfter === undefined ? parameters : undefined;
  } catch {
    return undefined;
  }
}
