import * as v from 'valibot';
import { arrivedWithin, LATE } from '../clock.ts';
import { ApiError } from '../contract/api-error.ts';
import { MODES } from '../contract/document-options.ts';
import { HEADERS, TOTALS_HEADERS } from '../contract/headers.ts';
import { IDEMPOTENCY_MEMORY_HOURS, LIMITS } from '../contract/limits.ts';
import { createDocument, prepareCreate } from '../documents/create.ts';
import { documentFilename } from '../documents/filename.ts';
import type { CreatedDocument } from '../documents/made.ts';
import { documentObject } from '../documents/record.ts';
import { wantsJson } from '../http/accept.ts';
import { contentDisposition } from '../http/content-disposition.ts';
import { keyed } from '../http/context.ts';
import { documentHeaders } from '../http/document-headers.ts';
import { CHARGING, RENDERING, SCOPE_BY_BODY } from '../http/outcomes.ts';
import { defineParameter, readParameters } from '../http/parameters.ts';
import { json } from '../http/respond.ts';
import { defineRoute } from '../http/route.ts';
import { IDEMPOTENCY_KEY, invalidIdempotencyKey } from '../idempotency/key.ts';
import { DOCUMENT_JSON_EXAMPLE } from '../openapi/examples.ts';
import { DOCUMENT_REQUEST_BODY } from '../openapi/request-body.ts';
import { totalsObject } from '../templates/totals.ts';

const header = (description: string, schema: Record<string, unknown> = { type: 'string' }) => ({ description, schema });

/** The headers a create reads: the Idempotency-Key (section 4.2) and the Accept header that chooses the answer's form. */
const CREATE_PARAMETERS = [
  defineParameter({
    name: HEADERS.idempotencyKey,
    in: 'header',
    description: `The key: 1 to ${LIMITS.idempotencyKeyChars} visible ASCII characters, remembered ${IDEMPOTENCY_MEMORY_HOURS} hours per account. It may also be sent inside double quotes, which are not part of the key: such a header value is up to ${LIMITS.idempotencyKeyChars + 2} characters, quotes included.`,
    schema: v.optional(IDEMPOTENCY_KEY),
    refusal: invalidIdempotencyKey,
    errors: ['invalid_request', 'idempotency_in_progress', 'idempotency_replay_unavailable', 'idempotency_key_reused'],
  }),
  defineParameter({
    name: HEADERS.accept,
    in: 'header',
    description: `Chooses the form of the 201. The JSON form (\`DocumentJson\`, the PDF in base64) only when it lists \`application/json\` and none of \`application/pdf\`, \`application/*\`, \`*/*\` (a range with \`q=0\` is not listed); otherwise, and without the header, the PDF bytes. Errors are JSON either way.`,
    schema: v.optional(v.pipe(v.string(), v.examples(['application/json', 'application/pdf']))),
    // Every value is read (wantsJson): none is refused.
    refusal: () => new ApiError('invalid_request'),
  }),
] as const;

export const createDocumentRoute = defineRoute({
  method: 'POST',
  path: '/api/v1/documents',
  access: { kind: 'key' },
  versioned: true,
  doc: {
    operationId: 'createDocument',
    summary: 'Make a document',
    description: `Renders one document. Mode \`final\` needs scope \`documents:create\` and costs 1 credit, charged only after the PDF exists; \`preview\` needs \`documents:preview\` and is free. The PDF is the body by default; the JSON form only when \`${HEADERS.accept}\` lists \`application/json\` and none of \`application/pdf\`, \`application/*\`, \`*/*\`. With an \`${HEADERS.idempotencyKey}\` the same request within ${IDEMPOTENCY_MEMORY_HOURS} hours returns the same document again, free.`,
    tag: 'Documents',
    responses: {
      201: {
        description: `The document (new or replay): the PDF bytes by default, the JSON form when \`${HEADERS.accept}\` asks for it alone.`,
        content: {
          'application/pdf': { schema: { type: 'string', format: 'binary', contentMediaType: 'application/pdf' } },
          'application/json': { schema: { $ref: '#/components/schemas/DocumentJson' }, example: DOCUMENT_JSON_EXAMPLE },
        },
        headers: {
          [HEADERS.location]: header("Path of the document's record."),
          [HEADERS.contentDisposition]: header(
            'Binary form only: `attachment; filename="…"`, plus `filename*=UTF-8\'\'…` when the name is not pure ASCII.',
          ),
          [HEADERS.documentId]: header('Stable document id; a replay returns the original.'),
          [HEADERS.documentSha256]: header('Lower-case hex SHA-256 of the PDF bytes.'),
          [HEADERS.template]: header('Template slug used.'),
          [HEADERS.templateVersion]: header('Full semantic version used.'),
          [HEADERS.mode]: header('`final` or `preview`.', { type: 'string', enum: [...MODES] }),
          [HEADERS.creditUsed]: header('`true` or `false`.', { type: 'string', enum: ['true', 'false'] }),
          [HEADERS.creditsRemaining]: header('Balance after this call.', { type: 'integer' }),
          [HEADERS.idempotentReplay]: header('`true` or `false`.', { type: 'string', enum: ['true', 'false'] }),
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
  },
  parameters: CREATE_PARAMETERS,
  body: DOCUMENT_REQUEST_BODY,
  outcomes: [...SCOPE_BY_BODY, ...CHARGING, ...RENDERING],
  // Everything the database does before the render goes with the sign-in: the body is read first for it, for a
  // while. A body still arriving then is read after the key is checked (createDocument sends its statements in a
  // round trip of their own), so that an upload that stalls cannot hold back the answer to a key that is not valid.
  async withSignIn(context, caller) {
    let input: Parameters<typeof prepareCreate>[0];
    try {
      const body = await arrivedWithin(context.body.value(), BODY_WAIT_WITH_SIGN_IN_MS);
      if (body === LATE) return undefined;
      input = { idempotencyKey: readParameters(CREATE_PARAMETERS, context)[HEADERS.idempotencyKey], body };
    } catch {
      // Refused by the handler once the key is checked, in the contract's order.
      return undefined;
    }
    return prepareCreate(input, context.deps, caller);
  },
  async handle(context, sent) {
    const { auth, deps, engine, requestId, rateLimits, trace } = keyed(context);
    const onRendered = (renderMs: number) => {
      trace.renderMs = renderMs;
    };
    const headers = readParameters(CREATE_PARAMETERS, context);
    const idempotencyKey = headers[HEADERS.idempotencyKey];
    const body = await context.body.value();
    const asJson = wantsJson(headers[HEADERS.accept] ?? null);
    const created = await createDocument(
      { auth, body, idempotencyKey, asJson, requestId, rateLimits, onRendered },
      { ...deps, engine },
      sent,
    );
    return documentCreated(created, asJson);
  },
});

/** How long the sign-in waits for the body, to send the document's statements with it. */
const BODY_WAIT_WITH_SIGN_IN_MS = 1_000;

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The 201 of section 4.2, binary by default or the JSON form, with every header of its table. */
function documentCreated(created: CreatedDocument, asJson: boolean): Response {
  const totals = totalsObject(created.document.totals, created.document.digits);
  const filename = documentFilename(created.document);
  const headers = { [HEADERS.location]: `/api/v1/documents/${created.row.id}`, ...documentHeaders(created, totals) };

  if (asJson) {
    return json(
      {
        document: documentObject(created.row),
        filename,
        file_base64: base64(created.bytes),
        credit_used: created.creditUsed,
        credits_remaining: created.creditsRemaining,
        idempotent_replay: created.replay,
        totals,
      },
      201,
      headers,
    );
  }
  return new Response(created.bytes, {
    status: 201,
    headers: { ...headers, [HEADERS.contentType]: 'application/pdf', [HEADERS.contentDisposition]: contentDisposition(filename) },
  });
}
