import { HEADERS, TOTALS_HEADERS } from '../contract/headers.ts';
import { createDocument } from '../documents/create.ts';
import { keyed } from '../http/context.ts';
import { defineRoute } from '../http/route.ts';
import { DOCUMENT_REQUEST_BODY } from '../openapi/request-body.ts';

const header = (description: string, schema: Record<string, unknown> = { type: 'string' }) => ({ description, schema });

export const createDocumentRoute = defineRoute({
  method: 'POST',
  path: '/api/v1/documents',
  access: { kind: 'key' },
  versioned: true,
  doc: {
    operationId: 'createDocument',
    summary: 'Make a document',
    description:
      'Renders one document. Mode `final` needs scope `documents:create` and costs 1 credit, charged only after the PDF exists; `preview` needs `documents:preview` and is free. The PDF is the body by default; the JSON form only when Accept lists application/json and none of application/pdf, application/*, */*. With an `Idempotency-Key` the same request within 24 hours returns the same document again, free.',
    tag: 'Documents',
    parameters: [
      {
        name: HEADERS.idempotencyKey,
        in: 'header',
        required: false,
        description:
          '1 to 255 visible ASCII characters; a double-quoted value is read without the quotes. Remembered 24 hours per account.',
        schema: { type: 'string', minLength: 1, maxLength: 257 },
      },
    ],
    requestBody: DOCUMENT_REQUEST_BODY,
    responses: {
      201: {
        description: 'The document (new or replay).',
        content: {
          'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } },
          'application/json': { schema: { $ref: '#/components/schemas/DocumentJson' } },
        },
        headers: {
          Location: header("Path of the document's record."),
          'Content-Disposition': header('Binary form only: attachment; filename="…" plus filename*=UTF-8\'\'… when needed.'),
          [HEADERS.documentId]: header('Stable document id; a replay returns the original.'),
          [HEADERS.documentSha256]: header('Lower-case hex SHA-256 of the PDF bytes.'),
          [HEADERS.template]: header('Template slug used.'),
          [HEADERS.templateVersion]: header('Full semantic version used.'),
          [HEADERS.mode]: header('final or preview.', { type: 'string', enum: ['final', 'preview'] }),
          [HEADERS.creditUsed]: header('true or false.', { type: 'string', enum: ['true', 'false'] }),
          [HEADERS.creditsRemaining]: header('Balance after this call.', { type: 'integer' }),
          [HEADERS.idempotentReplay]: header('true or false.', { type: 'string', enum: ['true', 'false'] }),
          [HEADERS.reference]: header('Echo of reference when one was sent.'),
          ...Object.fromEntries(
            Object.entries(TOTALS_HEADERS).map(([member, name]) => [
              name,
              header(member === 'currency' ? 'On every 201.' : `Present when the Totals member ${member} is.`),
            ]),
          ),
        },
      },
    },
    errors: [
      'forbidden_scope',
      'reserved_field',
      'insufficient_credits',
      'template_not_found',
      'template_version_unavailable',
      'idempotency_in_progress',
      'idempotency_replay_unavailable',
      'payload_too_large',
      'response_too_large',
      'unsupported_media_type',
      'validation_failed',
      'idempotency_key_reused',
      'render_rejected',
      'commit_status_unknown',
      'engine_unavailable',
      'engine_busy',
      'render_timeout',
    ],
  },
  handle: (context) => createDocument(keyed(context)),
});
