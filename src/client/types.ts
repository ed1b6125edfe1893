import type { components, operations, paths } from './api-types.ts';

/**
 * The names the client and its users type with, read from the types openapi-typescript generates from the served
 * OpenAPI document (api-types.ts): its components, and the operations for what has no component.
 */
type Schemas = components['schemas'];

/** The body of POST /api/v1/documents and /validate (spec 2.1): one variant per template, told apart by `template`. */
export type DocumentRequest = Schemas['DocumentRequest'];
export type InvoiceRequest = Schemas['InvoiceRequest'];
export type QuoteRequest = Schemas['QuoteRequest'];
export type ReceiptRequest = Schemas['ReceiptRequest'];
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

/** The OpenAPI 3.1 document. */
export type OpenApiDocument = operations['getOpenApi']['responses'][200]['content']['application/json'];

/** A path of the API as the OpenAPI document spells it, `{name}` for a path parameter. */
export type ApiPath = keyof paths;
