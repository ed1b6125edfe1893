import * as v from 'valibot';
import { SignInPart } from '../auth/sign-in-batch.ts';
import { ApiError } from '../contract/api-error.ts';
import { LIMITS } from '../contract/limits.ts';
import { type DocumentRow, documentObject, recordOfCaller } from '../documents/record.ts';
import { defineParameter, readParameters } from '../http/parameters.ts';
import { json } from '../http/respond.ts';
import { defineRoute } from '../http/route.ts';
import { DOCUMENT_EXAMPLE } from '../openapi/examples.ts';

/** A document's id in the path: any segment (an id no record has is that route's own answer). */
export const DOCUMENT_ID = defineParameter({
  name: 'id',
  in: 'path',
  description: 'A document id as in Svc-Document-Id.',
  schema: v.string(),
  refusal: () => new ApiError('not_found'),
});

export const getDocumentRoute = defineRoute({
  method: 'GET',
  path: '/api/v1/documents/{id}',
  access: { kind: 'key', scope: 'documents:read' },
  versioned: true,
  doc: {
    operationId: 'getDocument',
    summary: 'Get a document record',
    description: `One Document object (metadata only), whatever made it: a document made in the web app has \`source\` \`web\`. Unknown, foreign or older than ${LIMITS.historyRetentionDays} days: 404 document_not_found.`,
    tag: 'Documents',
    responses: { 200: { description: 'The record.', schema: { $ref: '#/components/schemas/Document' }, example: DOCUMENT_EXAMPLE } },
  },
  parameters: [DOCUMENT_ID],
  outcomes: ['document_not_found'],
  withSignIn: async (context, caller) =>
    new SignInPart(undefined).add('record', [
      recordOfCaller(context.deps.db, caller, readParameters([DOCUMENT_ID], context).id, context.deps.clock.now()),
    ]),
  async handle(_context, sent) {
    const [row] = sent!.rowsOf<DocumentRow>('record');
    if (!row) {
      throw new ApiError('document_not_found', {
        message: `No such document in your history of the last ${LIMITS.historyRetentionDays} days.`,
      });
    }
    return json(documentObject(row));
  },
});
