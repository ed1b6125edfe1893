import { SignInPart } from '../auth/sign-in-batch.ts';
import { ApiError } from '../contract/api-error.ts';
import { LIMITS } from '../contract/limits.ts';
import { type DocumentRow, documentObject, recordOfCaller } from '../documents/record.ts';
import { json } from '../http/respond.ts';
import { defineRoute } from '../http/route.ts';
import { DOCUMENT_EXAMPLE } from '../openapi/examples.ts';

export const ID_PARAMETER = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'A document id as in Svc-Document-Id.',
  schema: { type: 'string' },
};

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
    parameters: [ID_PARAMETER],
    responses: { 200: { description: 'The record.', schema: { $ref: '#/components/schemas/Document' }, example: DOCUMENT_EXAMPLE } },
    errors: ['document_not_found'],
  },
  withSignIn: async ({ deps, params }, caller) =>
    new SignInPart(undefined).add('record', [recordOfCaller(deps.db, caller, params.id ?? '', deps.clock.now())]),
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
