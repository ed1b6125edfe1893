import type { components, operations, paths } from './api-types.ts';

/**
 * The names the client and its users type with, read from the types openapi-typescript generates from the served
 * OpenAPI document (api-types.ts). This is the one place that knows where in that file each shape sits: the
 * request body is still written inline in the operations, so each template's variant is picked out of it by its
 * `template`; once the document names them as components, these aliases point there and nothing else changes.
 */
type Schemas = components['schemas'];

/** The body of POST /api/v1/documents and /validate (spec 2.1): one variant per template, told apart by `template`. */
export type DocumentRequest = operations['createDocument']['requestBody']['content']['application/json'];
export type InvoiceRequest = Extract<DocumentRequest, { template: 'invoice' }>;
export type QuoteRequest = Extract<DocumentRequest, { template: 'quote' }>;
export type ReceiptRequest = Extract<DocumentRequest, { template: 'receipt' }>;
export type TemplateSlug = DocumentRequest['template'];

export type Template = Schemas['Template'];
export type Document = Schemas['Document'];
export type DocumentList = Schemas['DocumentList'];
export type DocumentJson = Schemas['DocumentJson'];
export type ValidateAnswer = Schemas['ValidateAnswer'];
export type Account = Schemas['Account'];
export type Totals = Schemas['Totals'];
/** The error answer of spec section 7. */
export type ErrorBody = Schemas['Error'];
export type ErrorDetail = NonNullable<ErrorBody['error']['details']>[number];

/** The query of GET /api/v1/documents (spec 4.4). */
export type ListDocumentsQuery = NonNullable<operations['listDocuments']['parameters']['query']>;

/** The OpenAPI 3.1 document; its route declares only that it is an object. */
export type OpenApiDocument = Record<string, unknown>;

/** A path of the API as the OpenAPI document spells it, `{name}` for a path parameter. */
export type ApiPath = keyof paths;
