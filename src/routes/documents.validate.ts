import { HEADERS } from '../contract/headers.ts';
import { parseDocumentRequest } from '../documents/request.ts';
import { json } from '../http/respond.ts';
import { defineRoute } from '../http/route.ts';
import { VALIDATE_ANSWER_EXAMPLE } from '../openapi/examples.ts';
import { DOCUMENT_REQUEST_BODY } from '../openapi/request-body.ts';
import { totalsObject } from '../templates/totals.ts';

export const validateDocumentRoute = defineRoute({
  method: 'POST',
  path: '/api/v1/documents/validate',
  access: { kind: 'key' },
  versioned: true,
  doc: {
    operationId: 'validateDocument',
    summary: 'Validate a document request',
    description: `Runs exactly the checks of POST /api/v1/documents before rendering: no render, no credit. \`${HEADERS.idempotencyKey}\` is ignored. Works with any valid key.`,
    tag: 'Documents',
    responses: {
      200: {
        description: 'The request would render.',
        schema: { $ref: '#/components/schemas/ValidateAnswer' },
        example: VALIDATE_ANSWER_EXAMPLE,
      },
    },
  },
  body: DOCUMENT_REQUEST_BODY,
  async handle({ body }) {
    const document = parseDocumentRequest(await body.value());
    return json({
      valid: true,
      template: document.template.slug,
      template_version: document.template.version,
      totals: totalsObject(document.totals, document.digits),
      credit_used: false,
    });
  },
});
