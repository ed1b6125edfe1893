import * as v from 'valibot';
import { LOCALES, MODES, PAPERS } from '../contract/document-options.ts';
import { LIMITS } from '../contract/limits.ts';
import { TEMPLATES } from '../templates/registry.ts';
import { fieldsSchema, publishedJsonSchema } from '../templates/template.ts';

/** The body of spec 2.1, one variant per template, with each template's fields schema. */
const documentRequestSchema = v.variant(
  'template',
  TEMPLATES.map((template) =>
    v.strictObject({
      template: v.literal(template.slug),
      mode: v.picklist(MODES),
      fields: fieldsSchema(template),
      template_version: v.optional(
        v.pipe(v.string(), v.regex(/^\d+$/), v.metadata({ description: 'Major version as digits; pins the template.' })),
      ),
      reference: v.optional(
        v.pipe(
          v.string(),
          v.minLength(1),
          v.maxLength(LIMITS.referenceChars),
          v.metadata({ description: "Caller's label, never printed; printable ASCII, no leading or trailing space." }),
        ),
      ),
      paper: v.optional(v.picklist(PAPERS)),
      locale: v.optional(v.picklist(LOCALES)),
      output: v.optional(v.strictObject({ format: v.literal('pdf') })),
    }),
  ),
);

const { $schema: _dialect, ...schema } = publishedJsonSchema(documentRequestSchema);

export const DOCUMENT_REQUEST_BODY = {
  required: true,
  description: `JSON, at most ${LIMITS.requestBodyBytes} bytes.`,
  content: {
    'application/json': {
      schema,
      examples: Object.fromEntries(TEMPLATES.map((template) => [template.slug, { value: template.example }])),
    },
  },
};
