import * as v from 'valibot';
import { LOCALES, MODES, OUTPUT_FORMAT, PAPERS } from '../contract/document-options.ts';
import type { DetailCode } from '../contract/errors.ts';
import { LIMITS } from '../contract/limits.ts';
import { JsonNumber } from '../json/parse.ts';
import { fieldsSchema, type TemplateDefinition } from '../templates/template.ts';

/** How a value of the right type that the parameter's schema refuses is answered (400 invalid_request). */
interface Refusal {
  readonly code: DetailCode<'invalid_request'>;
  /** Where the problem is reported, when not at the parameter itself. */
  readonly field?: string;
  /** What the message says of the field, after its name. */
  readonly rule: string;
}

interface ParameterBase {
  /** Missing, null or blank is refused as `required`. An optional parameter may be left out, but not sent as null. */
  readonly required: boolean;
  readonly description: string;
  /** The JSON type of the value; another type, null included, is refused as `wrong_type`. */
  readonly type?: 'string' | 'object';
  /** What the service uses when an optional parameter is left out. */
  readonly default?: string;
}

/** A parameter whose values are the same for every template: its schema is checked with the top level. */
interface TopLevelParameter extends ParameterBase {
  readonly schema: v.GenericSchema;
  readonly refused: Refusal;
}

/**
 * A parameter whose values depend on the template: only its type is checked with the top level; the values
 * once the template is known (404 template_not_found for the slug, 422 validation_failed for the fields).
 */
interface TemplateParameter extends ParameterBase {
  readonly schemaFor: (template: TemplateDefinition) => v.GenericSchema;
}

export type RequestParameter = TopLevelParameter | TemplateParameter;

/** A string out of a list: another string is an unsupported value. */
function choice<const Choices extends readonly string[]>(
  choices: Choices,
  parameter: Omit<ParameterBase, 'type' | 'default'> & { default?: Choices[number] },
): TopLevelParameter {
  return {
    ...parameter,
    type: 'string',
    schema: v.picklist(choices),
    refused: { code: 'unsupported_value', rule: `must be one of: ${choices.join(', ')}.` },
  };
}

/** A pinned major version is 1 to 9 digits, sent as a string or as a JSON integer written as its digits. */
const MAJOR_VERSION_DIGITS = 9;
const MAJOR_VERSION = new RegExp(`^\\d{1,${MAJOR_VERSION_DIGITS}}$`);

/** Printable ASCII that neither starts nor ends with a space. */
const REFERENCE_TEXT = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * The top-level parameters of a document request (spec 2.1), in the order their problems are listed. The
 * validator (request.ts) checks a body against them and the OpenAPI document publishes them, so the two agree.
 */
export const REQUEST_PARAMETERS = {
  template: {
    required: true,
    type: 'string',
    description: 'Slug of the template to fill, from GET /api/v1/templates.',
    schemaFor: (template) => v.literal(template.slug),
  },
  mode: choice(MODES, {
    required: true,
    description: '`final` makes the document and uses a credit; `preview` is free and marked as a preview.',
  }),
  fields: {
    required: true,
    type: 'object',
    description: "The template's fields, as its `fields_schema` describes them.",
    schemaFor: fieldsSchema,
  },
  template_version: {
    required: false,
    description: 'Major version as digits, a string such as "2" or a JSON integer; pins the template.',
    schema: v.union([
      v.pipe(v.string(), v.regex(MAJOR_VERSION)),
      v.pipe(
        v.instance(JsonNumber),
        // A JSON Schema integer cannot tell 1e3 or 2.0 from 1000 or 2; the service reads the number's digits.
        v.check((number) => MAJOR_VERSION.test(number.text)),
        v.metadata({ type: 'integer', minimum: 0, maximum: 10 ** MAJOR_VERSION_DIGITS - 1 }),
      ),
    ]),
    refused: { code: 'invalid_template_version', rule: 'is a major version as digits, such as "2".' },
  },
  reference: {
    required: false,
    type: 'string',
    description: "Caller's label, never printed; printable ASCII, no leading or trailing space.",
    schema: v.pipe(v.string(), v.minLength(1), v.maxLength(LIMITS.referenceChars), v.regex(REFERENCE_TEXT)),
    refused: {
      code: 'invalid_reference',
      rule: `is 1 to ${LIMITS.referenceChars} printable ASCII characters without leading or trailing space.`,
    },
  },
  paper: choice(PAPERS, { required: false, description: 'Paper size.', default: 'a4' }),
  locale: choice(LOCALES, { required: false, description: 'Language of the printed labels.', default: 'en' }),
  output: {
    required: false,
    type: 'object',
    description: `Output options; \`format\` is "${OUTPUT_FORMAT}", the one format of this version.`,
    // Its other members are reserved names, refused before the top level is checked (reserved.ts).
    schema: v.strictObject({ format: v.literal(OUTPUT_FORMAT) }),
    refused: { code: 'unsupported_value', field: 'output.format', rule: `must be "${OUTPUT_FORMAT}".` },
  },
} as const satisfies Record<string, RequestParameter>;
