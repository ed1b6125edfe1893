import { ApiError } from '../contract/api-error.ts';
import { HEADERS } from '../contract/headers.ts';
import { IDEMPOTENCY_MEMORY_HOURS } from '../contract/limits.ts';
import { defineRoute } from '../http/route.ts';
import { DOCUMENT_ID } from './documents.get.ts';

export const getDocumentFileRoute = defineRoute({
  method: 'GET',
  path: '/api/v1/documents/{id}/file',
  access: { kind: 'key', scope: 'documents:read' },
  versioned: true,
  doc: {
    operationId: 'getDocumentFile',
    summary: 'Get a document file (reserved)',
    description: `Reserved: always 404 \`file_not_available\`, because no documents are stored, so this operation has no success answer in this API version (a later version may serve files here, as an addition). Within ${IDEMPOTENCY_MEMORY_HOURS} hours the same POST /api/v1/documents request with the same \`${HEADERS.idempotencyKey}\` returns the file again, free.`,
    tag: 'Documents',
    responses: {},
  },
  parameters: [DOCUMENT_ID],
  outcomes: ['file_not_available'],
  handle() {
    throw new ApiError('file_not_available', {
      message: `Files are not stored. Repeat the POST /api/v1/documents request with the same ${HEADERS.idempotencyKey} within ${IDEMPOTENCY_MEMORY_HOURS} hours to get it again, free.`,
    });
  },
});
