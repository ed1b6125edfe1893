import * as v from 'valibot';
import { ACCOUNT_LIMITS } from '../accounts/plans.ts';
import { LOCALES, MODES, OUTPUT_FORMAT, PAPERS } from '../contract/document-options.ts';
import { ERROR_CODES, ERRORS } from '../contract/errors.ts';
import { LIMITS } from '../contract/limits.ts';
import { SCOPES } from '../contract/scopes.ts';
import { TOTALS_MEMBERS } from '../contract/totals.ts';

/**
 * The response objects of spec 2.6–2.8 and 7 as valibot schemas: published in the OpenAPI document and used
 * by the tests to check real answers.
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
  fields_schema: v.pipe(v.record(v.string(), v.unknown()), v.metadata({ description: 'JSON Schema 2020-12 of `fields`.' })),
  rules: v.array(v.strictObject({ code: v.string(), description: v.string() })),
  example: v.record(v.string(), v.unknown()),
  notes: v.strictObject({ is: v.array(v.string()), is_not: v.array(v.string()) }),
  deprecated_fields: v.array(v.strictObject({ name: v.string(), use_instead: v.string() })),
});

export const DocumentSchema = v.strictObject({
  id: v.string(),
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

export const RESPONSE_SCHEMAS = {
  Error: ErrorSchema,
  Totals: TotalsSchema,
  Template: TemplateSchema,
  Document: DocumentSchema,
  DocumentList: DocumentListSchema,
  DocumentJson: DocumentJsonSchema,
  ValidateAnswer: ValidateAnswerSchema,
  Account: AccountSchema,
} as const;
