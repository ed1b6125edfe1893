import * as v from 'valibot';
import { ACCOUNT_LIMITS } from '../accounts/plans.ts';
import { LOCALES, MODES, OUTPUT_FORMAT, PAPERS } from '../contract/document-options.ts';
import { ERROR_CODES, ERRORS } from '../contract/errors.ts';
import { LIMITS } from '../contract/limits.ts';
import { SCOPES } from '../contract/scopes.ts';
import { TOTALS_MEMBERS } from '../contract/totals.ts';
import { REQUEST_PARAMETERS, type RequestParameter } from '../documents/parameters.ts';
import { TEMPLATES } from '../templates/registry.ts';
import type { TemplateDefinition } from '../templates/template.ts';

/**
 * The request body of spec 2.1 and the response objects of spec 2.6–2.8 and 7 as valibot schemas: published in
 * the OpenAPI document, one component each (COMPONENT_SCHEMAS), and used by the tests to check real answers.
 */
const timestamp = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/), v.metadata({ format: 'date-time' }));
const figure = v.pipe(v.string(), v.regex(/^-?\d+(\.\d+)?$/));
const ALL_DETAIL_CODES = [...new Set(Object.values(ERRORS).flatMap((entry) => Object.keys(entry.details)))];

export const ErrorSchema = v.strictObject({
  error: v.strictObject({
    code: v.picklist(ERROR_CODES),
    message: v.string(),
    details: v.optional(
      v.pipe(
        v.array(v.strictObject({ code: v.picklist(ALL_DETAIL_CODES), message: v.string(), field: v.optional(v.string()) })),
        v.maxLength(LIMITS.errorDetails),
      ),
    ),
    request_id: v.string(),
    docs_url: v.string(),
  }),
  credit_used: v.nullable(v.boolean()),
  credits_remaining: v.optional(v.number()),
  period_end: v.optional(v.nullable(timestamp)),
});

/** The component name of a template's request body: `invoice` → `InvoiceRequest`. */
const requestComponentName = (template: TemplateDefinition) => `${template.slug[0]!.toUpperCase()}${template.slug.slice(1)}Request`;

/** The body of a request for one template: every parameter as the validator reads it, with that template's slug and fields. */
function requestSchemaFor(template: TemplateDefinition) {
  const entries = Object.entries<RequestParameter>(REQUEST_PARAMETERS).map(([name, parameter]) => {
    const values = 'schema' in parameter ? parameter.schema : parameter.schemaFor(template);
    // The default is said in words, not as the `default` keyword: openapi-typescript (by default) types a property
    // of a component schema that has one as required, which would make clients send `paper` and `locale`.
    const description =
      parameter.default === undefined ? parameter.description : `${parameter.description} Default \`${parameter.default}\`.`;
    const described = v.pipe(values, v.metadata({ description }));
    return [name, parameter.required ? described : v.optional(described)];
  });
  return v.pipe(
    v.strictObject(Object.fromEntries(entries) as Record<keyof typeof REQUEST_PARAMETERS, v.GenericSchema>),
    v.metadata({
      title: requestComponentName(template),
      description: `A request for the ${template.slug} template (${template.name}, version ${template.version}).`,
    }),
  );
}

const REQUEST_SCHEMAS = Object.fromEntries(TEMPLATES.map((template) => [requestComponentName(template), requestSchemaFor(template)]));

/** The body of spec 2.1: one variant per template, told apart by `template`. */
export const DOCUMENT_REQUEST_DESCRIPTION = `JSON, at most ${LIMITS.requestBodyBytes} bytes; \`template\` chooses the variant.`;

const DocumentRequestSchema = v.pipe(
  v.variant('template', Object.values(REQUEST_SCHEMAS)),
  v.metadata({ description: DOCUMENT_REQUEST_DESCRIPTION }),
);

const TotalsSchema = v.strictObject({
  currency: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/)),
  ...Object.fromEntries(TOTALS_MEMBERS.map((member) => [member, v.optional(figure)])),
});

export const TemplateSchema = v.strictObject({
  object: v.literal('template'),
  slug: v.string(),
  name: v.string(),
  description: v.string(),
  category: v.string(),
  version: v.pipe(v.string(), v.regex(/^\d+\.\d+\.\d+$/)),
  output: v.literal(OUTPUT_FORMAT),
  papers: v.array(v.picklist(PAPERS)),
  locales: v.array(v.picklist(LOCALES)),
  required_fields: v.array(v.string()),
  optional_fields: v.array(v.string()),
  fields_schema: v.pipe(
    v.looseObject({
      $schema: v.literal('https://json-schema.org/draft/2020-12/schema'),
      type: v.literal('object'),
      properties: v.record(v.string(), v.record(v.string(), v.unknown())),
      required: v.array(v.string()),
      additionalProperties: v.literal(false),
      maxProperties: v.pipe(v.number(), v.integer()),
    }),
    v.metadata({
      description:
        'JSON Schema 2020-12 of `fields`: one property per field, the required ones listed; the same schema as `fields` of the request components.',
    }),
  ),
  rules: v.array(v.strictObject({ code: v.string(), description: v.string() })),
  example: v.pipe(DocumentRequestSchema, v.metadata({ description: 'A complete request for this template, ready to send.' })),
  notes: v.strictObject({ is: v.array(v.string()), is_not: v.array(v.string()) }),
  deprecated_fields: v.array(v.strictObject({ name: v.string(), use_instead: v.string() })),
});

export const DocumentSchema = v.strictObject({
  id: v.pipe(
    v.string(),
    v.metadata({
      description:
        'The document id, as in Svc-Document-Id: `doc_` and 20 characters, the first ten the millisecond it was made, so ids sort roughly by creation (within one millisecond, or between servers whose clocks differ, in any order). Otherwise opaque.',
    }),
  ),
  object: v.literal('document'),
  template: v.string(),
  template_version: v.string(),
  mode: v.picklist(MODES),
  paper: v.picklist(PAPERS),
  locale: v.string(),
  reference: v.nullable(v.string()),
  source: v.string(),
  credits_consumed: v.picklist([0, 1]),
  sha256: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  bytes: v.pipe(v.number(), v.integer()),
  content_type: v.literal('application/pdf'),
  created_at: timestamp,
  file_url: v.null(),
});

export const DocumentListSchema = v.strictObject({
  object: v.literal('list'),
  data: v.array(DocumentSchema),
  has_more: v.boolean(),
});

export const DocumentJsonSchema = v.strictObject({
  document: DocumentSchema,
  filename: v.string(),
  file_base64: v.string(),
  credit_used: v.boolean(),
  credits_remaining: v.pipe(v.number(), v.integer()),
  idempotent_replay: v.boolean(),
  totals: TotalsSchema,
});

export const ValidateAnswerSchema = v.strictObject({
  valid: v.literal(true),
  template: v.string(),
  template_version: v.string(),
  totals: TotalsSchema,
  credit_used: v.literal(false),
});

const int = v.pipe(v.number(), v.integer());
export const AccountSchema = v.strictObject({
  object: v.literal('account'),
  plan: v.string(),
  credits: v.strictObject({ remaining: int, monthly_allowance: int, period_end: v.nullable(timestamp) }),
  key: v.strictObject({
    id: v.string(),
    name: v.string(),
    prefix: v.string(),
    scopes: v.array(v.picklist(SCOPES)),
    created_at: timestamp,
    last_used_at: v.nullable(timestamp),
  }),
  limits: v.strictObject(Object.fromEntries(Object.keys(ACCOUNT_LIMITS).map((member) => [member, int]))),
});

/** Every named component schema of the OpenAPI document; a schema used inside another is published as a `$ref` to it. */
export const COMPONENT_SCHEMAS = {
  DocumentRequest: DocumentRequestSchema,
  ...REQUEST_SCHEMAS,
  Template: TemplateSchema,
  TemplateList: v.array(TemplateSchema),
  Document: DocumentSchema,
  DocumentList: DocumentListSchema,
  DocumentJson: DocumentJsonSchema,
  ValidateAnswer: ValidateAnswerSchema,
  Totals: TotalsSchema,
  Account: AccountSchema,
  Error: ErrorSchema,
} as const;
