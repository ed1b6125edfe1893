import { type ConversionConfig, toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { LOCALES, type Mode, OUTPUT_FORMAT, PAPERS, type Paper } from '../contract/document-options.ts';
import { LIMITS } from '../contract/limits.ts';
import { JsonNumber } from '../json/parse.ts';
import type { RenderInput } from '../render/index.ts';
import type { BusinessDocument } from '../render/layout/document.ts';
import { layoutValues } from '../render/text/text.ts';
import type { FieldType, Problem } from './field-types.ts';
import type { Totals } from './totals.ts';

export interface FieldSpec<T = unknown, Required extends boolean = boolean> {
  readonly type: FieldType<T>;
  readonly required: Required;
  readonly description: string;
  /** Name of the field to use instead, for a deprecated alias. */
  readonly deprecatedFor?: string;
}

/** A template's fields by name. */
type FieldMap = Readonly<Record<string, FieldSpec>>;

/**
 * The normalised values a template's layout receives, derived from its field map: required fields always
 * present, optional ones possibly absent, each of the type its field type reads to.
 */
export type FieldValues<Fields extends FieldMap> = {
  readonly [Name in keyof Fields as Fields[Name] extends FieldSpec<unknown, true> ? Name : never]: Fields[Name] extends FieldSpec<infer T>
    ? T
    : never;
} & {
  readonly [Name in keyof Fields as Fields[Name] extends FieldSpec<unknown, true> ? never : Name]?: Fields[Name] extends FieldSpec<infer T>
    ? T
    : never;
};

/** The fields that are always present and read to text: what a document number can be. */
type TextFieldName<Fields extends FieldMap> = {
  [Name in keyof Fields & string]: Fields[Name] extends FieldSpec<string, true> ? Name : never;
}[keyof Fields & string];

interface TemplateRule {
  readonly code: string;
  readonly description: string;
}

/** What the Template object publishes of a template beside its fields (spec 2.5, 2.8). */
interface TemplateDescription {
  readonly slug: string;
  readonly name: string;
  readonly description: string;
  readonly category: string;
  readonly version: string;
  readonly rules: readonly TemplateRule[];
  readonly notes: { readonly is: readonly string[]; readonly is_not: readonly string[] };
  readonly example: Readonly<Record<string, unknown>>;
}

/** A template as it declares itself (through `defineTemplate`): what it does with its values, typed by its field map. */
export interface TemplateDeclaration<Fields extends FieldMap> extends TemplateDescription {
  readonly fields: Fields;
  /** The field that holds the document number, used in file names and titles. */
  readonly numberField: TextFieldName<Fields>;
  /** Cross-field rules and totals, on the values the field types have read. */
  readonly check: (input: CheckInput<Fields>) => CheckResult;
  /** What the document is called in its PDF title and page furniture, such as `Invoice INV-001`. */
  readonly titleOf: (values: FieldValues<Fields>) => string;
  /** Who issued the document: its name follows the title at the foot of every page. */
  readonly issuerOf: (values: FieldValues<Fields>) => string;
  /** Lays the document out; the renderer adds page numbers and preview marking afterwards. */
  readonly layout: (input: LayoutInput<Fields>) => void;
}

/**
 * Any template, its values of no particular field map: the form the validator, the OpenAPI document, the
 * Template object and the render input work on. Its functions are methods, whose parameters TypeScript compares
 * both ways, so that a template declared with its own field map is one; that holds because validateFields
 * reads a template's values with that template's own field map, and renderInput hands on what it read.
 */
export interface TemplateDefinition extends TemplateDescription {
  readonly fields: FieldMap;
  readonly numberField: string;
  check(input: CheckInput): CheckResult;
  titleOf(values: FieldValues<FieldMap>): string;
  issuerOf(values: FieldValues<FieldMap>): string;
  layout(input: LayoutInput): void;
}

/** What a template's cross-field check gets: the values read without a problem, and every name sent non-blank. */
export interface CheckInput<Fields extends FieldMap = FieldMap> {
  /** A field left off is absent, and so is one its field type refused, even a required one. */
  readonly values: Partial<FieldValues<Fields>>;
  readonly sent: ReadonlySet<keyof Fields & string>;
  readonly currency: string | undefined;
  /** Minor digits of the currency; undefined when the currency was refused. */
  readonly digits: number | undefined;
}

export interface CheckResult {
  problems: Problem[];
  /** Undefined when a figure could not be computed because an input was refused. */
  totals: Totals | undefined;
}

/** What a template's layout gets: the document to lay out, the values read and the totals its check computed. */
export interface LayoutInput<Fields extends FieldMap = FieldMap> {
  readonly document: BusinessDocument;
  readonly values: FieldValues<Fields>;
  readonly totals: Totals;
  readonly currency: string;
  readonly digits: number;
}

/** A template, declared once with its field map typing its check, title, issuer and layout; registry.ts lists it. */
export function defineTemplate<Fields extends FieldMap>(template: TemplateDeclaration<Fields>): TemplateDefinition {
  return template;
}

/** A document as the field types and the template's checks read it, with the paper and mode it is asked in. */
interface DocumentToRender {
  readonly template: TemplateDefinition;
  readonly values: Readonly<Record<string, unknown>>;
  readonly totals: Totals;
  readonly currency: string;
  readonly digits: number;
  readonly paper: Paper;
  readonly mode: Mode;
  readonly locale: string;
}

/** What the renderer is given for a document: its text prepared for layout, its title and footer; a preview marked. */
export function renderInput(document: DocumentToRender): RenderInput {
  const { template } = document;
  const values = layoutValues(document.values);
  const title = template.titleOf(values);
  return {
    paper: document.paper,
    preview: document.mode === 'preview',
    language: document.locale,
    title,
    footer: `${title} · ${template.issuerOf(values)}`,
    values: textValues(values, 'fields'),
    layout: (canvas) =>
      template.layout({ document: canvas, values, totals: document.totals, currency: document.currency, digits: document.digits }),
  };
}

/** Every text in the values with its path from the top of the body, as error details name fields (spec 7). */
function textValues(value: unknown, path: string): { field: string; text: string }[] {
  if (typeof value === 'string') return [{ field: path, text: value }];
  if (Array.isArray(value)) return value.flatMap((member, index) => textValues(member, `${path}[${index}]`));
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.entries(value).flatMap(([name, member]) => textValues(member, `${path}.${name}`));
  }
  return [];
}

export function majorVersion(template: TemplateDefinition): string {
  return template.version.split('.')[0]!;
}

/** How the service publishes a valibot schema as JSON Schema: the Template object's `fields_schema` and the OpenAPI document. */
export const PUBLISHED_JSON_SCHEMA_CONFIG: ConversionConfig = {
  target: 'draft-2020-12',
  ignoreActions: ['check'],
  overrideSchema({ valibotSchema: schema }) {
    return schema.type === 'instance' && 'class' in schema && schema.class === JsonNumber ? { type: 'number' } : undefined;
  },
};

/** The valibot object schema of a template's `fields`, from the same field types the validator reads with. */
export function fieldsSchema(template: TemplateDefinition): v.GenericSchema {
  const entries = Object.fromEntries(
    Object.entries(template.fields).map(([name, spec]) => {
      const described = v.pipe(
        spec.type.schema,
        v.metadata({
          description: spec.description,
          ...(spec.deprecatedFor ? { deprecated: true } : {}),
        }),
      );
      return [name, spec.required ? described : v.optional(v.nullable(described))];
    }),
  );
  return v.pipe(v.strictObject(entries), v.metadata({ maxProperties: LIMITS.fieldNames }));
}

/** JSON Schema 2020-12 of a valibot schema built from the field types (JSON numbers mapped to number). */
function publishedJsonSchema(schema: v.GenericSchema): Record<string, unknown> {
  return toJsonSchema(schema, PUBLISHED_JSON_SCHEMA_CONFIG) as Record<string, unknown>;
}

function fieldNames(template: TemplateDefinition, required: boolean): string[] {
  return Object.entries(template.fields)
    .filter(([, spec]) => spec.required === required)
    .map(([name]) => name);
}

function deprecatedFields(template: TemplateDefinition): { name: string; use_instead: string }[] {
  return Object.entries(template.fields).flatMap(([name, spec]) => (spec.deprecatedFor ? [{ name, use_instead: spec.deprecatedFor }] : []));
}

const templateObjects = new WeakMap<TemplateDefinition, ReturnType<typeof buildTemplateObject>>();

/** The Template object of spec 2.8; built once per template, since its JSON Schema takes a while to generate. */
export function templateObject(template: TemplateDefinition) {
  const known = templateObjects.get(template);
  if (known) return known;
  const object = buildTemplateObject(template);
  templateObjects.set(template, object);
  return object;
}

function buildTemplateObject(template: TemplateDefinition) {
  return {
    object: 'template',
    slug: template.slug,
    name: template.name,
    description: template.description,
    category: template.category,
    version: template.version,
    output: OUTPUT_FORMAT,
    papers: [...PAPERS],
    locales: [...LOCALES],
    required_fields: fieldNames(template, true),
    optional_fields: fieldNames(template, false),
    fields_schema: publishedJsonSchema(fieldsSchema(template)),
    rules: template.rules.map((rule) => ({ code: rule.code, description: rule.description })),
    example: template.example,
    notes: { is: [...template.notes.is], is_not: [...template.notes.is_not] },
    deprecated_fields: deprecatedFields(template),
  };
}
