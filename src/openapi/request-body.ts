import * as v from 'valibot';
import { LIMITS } from '../contract/limits.ts';
import { REQUEST_PARAMETERS, type RequestParameter } from '../documents/parameters.ts';
import { TEMPLATES } from '../templates/registry.ts';
import { publishedJsonSchema, type TemplateDefinition } from '../templates/template.ts';

/** The body of a request for one template: every parameter as the validator reads it, with that template's slug and fields. */
function requestSchemaFor(template: TemplateDefinition) {
  const entries = Object.entries<RequestParameter>(REQUEST_PARAMETERS).map(([name, parameter]) => {
    const values = 'schema' in parameter ? parameter.schema : parameter.schemaFor(template);
    const described = v.pipe(values, v.metadata({ description: parameter.description }));
    return [name, parameter.required ? described : v.optional(described, parameter.default)];
  });
  return v.strictObject(Object.fromEntries(entries) as Record<keyof typeof REQUEST_PARAMETERS, v.GenericSchema>);
}

const { $schema: _dialect, ...schema } = publishedJsonSchema(v.variant('template', TEMPLATES.map(requestSchemaFor)));

/** The body of spec 2.1, one variant per template. */
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
