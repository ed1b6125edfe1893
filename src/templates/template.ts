import { type ConversionConfig, toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { LOCALES, PAPERS, type Paper } from '../contract/document-options.ts';
import { JsonNumber } from '../json/parse.ts';
import type { BusinessDocument } from '../render/document.ts';
import type { RenderInput } from '../render/index.ts';
import { layoutValues } from '../render/text.ts';
import type { FieldType } from './field-types.ts';
import type { CheckInput, CheckResult, Totals } from './totals.ts';

export interface FieldSpec<T = unknown, Required extends boolean = boolean> {
  readonly type: FieldType<T>;
  readonly required: Required;
  readonly description: string;
  /** Name of the field to use instead, for a deprecated alias. */
  readonly deprecatedFor?: string;
}

/**
 * The normalised values a template's layout receives, derived from its field map: required fields always
 * present, optional ones possibly absent, each of the type its field type reads to.
 */
export type FieldValues<Fields extends Record<string, FieldSpec>> = {
  readonly [Name in keyof Fields as Fields[Name] extends FieldSpec<unknown, true> ? Name : never]: Fields[Name] extends FieldSpec<infer T>
    ? T
    : never;
} & {
  readonly [Name in keyof Fields as Fields[Name] extends FieldSpec<unknown, true> ? never : Name]?: Fields[Name] extends FieldSpec<infer T>
    ? T
    : never;
};

export interface TemplateRule {
  readonly code: string;
  readonly description: string;
}

/** What one template is: its contract (fields, rules) and its published description (spec 2.5, 2.8). */
export interface TemplateDefinition {
  readonly slug: string;
  readonly name: string;
  readonly description: string;
  readonly category: string;
  readonly version: string;
  /** The field that holds the document number, used in file names and titles. */
  readonly numberField: string;
  readonly fields: Readonly<Record<string, FieldSpec>>;
  readonly rules: readonly TemplateRule[];
  readonly notes: { readonly is: readonly string[]; readonly is_not: readonly string[] };
  readonly example: Readonly<Record<string, unknown>>;
  /** Cross-field rules and totals, on the values the field types have read. */
  readonly check: (input: CheckInput) => CheckResult;
  /** What the document is called in its PDF title and page furniture, such as `Invoice INV-001`. */
  readonly titleOf: (values: Readonly<Record<string, unknown>>) => string;
  /** Lays the document out; the renderer adds page numbers and preview marking afterwards. */
  readonly layout: (input: LayoutInput) => void;
}

export interface LayoutInput {
  document: BusinessDocument;
  values: Readonly<Record<string, unknown>>;
  totals: Totals;
  currency: string;
  digits: number;
}

/** A document as the field types and the template's checks read it. */
export interface ReadDocument {
  readonly template: TemplateDefinition;
  readonly values: Readonly<Record<string, unknown>>;
  readonly totals: Totals;
  readonly currency: string;
  readonly digits: number;
}

/** What the renderer is given for a read document: its text prepared for layout, its title and footer. */
export function renderInput(document: ReadDocument, paper: Paper, preview: boolean): RenderInput {
  const values = layoutValues(document.values);
  const title = document.template.titleOf(values);
  return {
    paper,
    preview,
    title,
    footer: `${title} · ${values.seller_name}`,
    layout: (canvas) =>
      document.template.layout({ document: canvas, values, totals: document.totals, currency: document.currency, digits: document.digits }),
  };
}

export function majorVersion(template: TemplateDefinition): string {
  return template.version.split('.')[0]!;
}

const JSON_SCHEMA_CONFIG: ConversionConfig = {
  target: 'draft-2020-12',
  ignoreActions: ['check'],
  overrideSchema(context) {
    const schema = context.valibotSchema as { type: string; class?: unknown };
    return schema.type === 'instance' && schema.class === JsonNumber ? { type: 'number' } : undefined;
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
  return v.pipe(v.strictObject(entries), v.metadata({ maxProperties: 64 }));
}

/** JSON Schema 2020-12 of a valibot schema built from the field types (JSON numbers mapped to number). */
export function publishedJsonSchema(schema: v.GenericSchema): Record<string, unknown> {
  return toJsonSchema(schema, JSON_SCHEMA_CONFIG) as Record<string, unknown>;
}

export function fieldsJsonSchema(template: TemplateDefinition): Record<string, unknown> {
  return publishedJsonSchema(fieldsSchema(template));
}

export function requiredFields(template: TemplateDefinition): string[] {
  return Object.entries(template.fields)
    .filter(([, spec]) => spec.required)
    .map(([name]) => name);
}

export function optionalFields(template: TemplateDefinition): string[] {
  return Object.entries(template.fields)
    .filter(([, spec]) => !spec.required)
    .map(([name]) => name);
}

export function deprecatedFields(template: TemplateDefinition): { name: string; use_instead: string }[] {
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
    output: 'pdf',
    papers: [...PAPERS],
    locales: [...LOCALES],
    required_fields: requiredFields(template),
    optional_fields: optionalFields(template),
    fields_schema: fieldsJsonSchema(template),
    rules: template.rules.map((rule) => ({ code: rule.code, description: rule.description })),
    example: template.example,
    notes: { is: [...template.notes.is], is_not: [...template.notes.is_not] },
    deprecated_fields: deprecatedFields(template),
  };
}
