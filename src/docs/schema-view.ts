import { escapeHtml, inlineCode } from './html.ts';

/**
 * JSON Schema (2020-12, as OpenAPI 3.1 carries it) as the reference page shows it: one entry per property with
 * its type, its rules and its description, nested objects inside their parent; and a sample value made from a
 * schema when the document gives no example. Written for any schema, so that the page follows the OpenAPI
 * document whether it inlines its schemas or refers to `#/components/...`.
 */

export type Schema = { readonly [key: string]: unknown };

/** An enum longer than this is shown as a count, with the values in a box the reader opens. */
const ENUM_INLINE_MAX = 12;
/** Deeper than this, nested objects are not expanded (a cycle through `$ref` stops here too). */
const MAX_DEPTH = 6;

/** Reads `$ref`s of one OpenAPI document; a reference to a component schema is shown as a link to its section. */
export class Refs {
  private readonly root: Schema;

  constructor(root: Schema) {
    this.root = root;
  }

  /** The value a `$ref` points to (a JSON pointer inside the document), followed through chains of references. */
  resolve<T = Schema>(value: unknown): T {
    let current = value;
    for (let hops = 0; isRef(current) && hops < 16; hops++) current = this.pointer(current.$ref);
    return current as T;
  }

  /** The name of the component schema a value refers to, if it is such a reference. */
  schemaName(value: unknown): string | undefined {
    return isRef(value) ? /^#\/components\/schemas\/([^/]+)$/.exec(value.$ref)?.[1] : undefined;
  }

  private pointer(ref: string): unknown {
    if (!ref.startsWith('#/')) throw new Error(`only references inside the document are read: ${ref}`);
    let current: unknown = this.root;
    for (const raw of ref.slice(2).split('/')) {
      const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
      current = (current as Record<string, unknown> | undefined)?.[key];
    }
    if (current === undefined) throw new Error(`the reference ${ref} names nothing in the document`);
    return current;
  }
}

function isRef(value: unknown): value is { $ref: string } {
  return typeof value === 'object' && value !== null && typeof (value as { $ref?: unknown }).$ref === 'string';
}

/** The id of the section that shows a component schema. */
export const schemaAnchor = (name: string) => `schema-${name}`;

const code = (text: string) => `<code>${escapeHtml(text)}</code>`;
const json = (value: unknown) => code(JSON.stringify(value));

/** What one schema says, ready to show. */
interface View {
  /** HTML: the type with, for a choice of types, each one's rules in brackets. */
  type: string;
  rules: string[];
  description?: string;
  nullable: boolean;
  deprecated: boolean;
  /** Object schemas whose properties are shown nested under this entry. */
  children: Schema[];
}

function count(n: number, one: string, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

function range(min: unknown, max: unknown, unit: (n: number) => string): string | undefined {
  if (typeof min === 'number' && typeof max === 'number') return min === max ? `exactly ${unit(min)}` : `${min} to ${unit(max)}`;
  if (typeof max === 'number') return `at most ${unit(max)}`;
  if (typeof min === 'number') return `at least ${unit(min)}`;
  return undefined;
}

function enumRule(values: readonly unknown[]): string {
  const items = values.map(json);
  if (values.length <= ENUM_INLINE_MAX) return `one of ${items.join(', ')}`;
  return `<details class="enum"><summary>one of ${values.length} values</summary>${items.join(' ')}</details>`;
}

/** The rules of one schema of a single type, in the words the contract uses. */
function rulesOf(schema: Schema): string[] {
  const rules = [
    range(schema.minLength, schema.maxLength, (n) => count(n, 'character')),
    range(schema.minItems, schema.maxItems, (n) => count(n, 'item')),
    range(schema.minProperties, schema.maxProperties, (n) => count(n, 'name')),
    range(schema.minimum, schema.maximum, String),
    typeof schema.exclusiveMinimum === 'number' ? `above ${schema.exclusiveMinimum}` : undefined,
    typeof schema.exclusiveMaximum === 'number' ? `below ${schema.exclusiveMaximum}` : undefined,
    typeof schema.multipleOf === 'number' ? `a multiple of ${schema.multipleOf}` : undefined,
    schema.uniqueItems === true ? 'no repeated items' : undefined,
    typeof schema.pattern === 'string' ? `matches ${code(schema.pattern)}` : undefined,
    Array.isArray(schema.enum) ? enumRule(schema.enum) : undefined,
    'default' in schema ? `default ${json(schema.default)}` : undefined,
  ];
  return rules.filter((rule) => rule !== undefined);
}

function typeWords(schema: Schema): string[] {
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
  return types.filter((type) => type !== 'null');
}

/** The view of a schema; `depth` counts the objects around it. */
function view(input: unknown, refs: Refs, depth: number): View {
  const name = refs.schemaName(input);
  const schema = refs.resolve(input);
  if (name) {
    // A named object is shown in its own section; a named choice or scalar is shown here, under its name.
    const target = view(schema, refs, MAX_DEPTH);
    const link = `<a href="#${schemaAnchor(name)}">${escapeHtml(name)}</a>`;
    return { ...target, type: target.children.length || schema.properties ? link : `${link} (${target.type})`, children: [] };
  }
  const choices = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
  if (Array.isArray(choices)) return choiceView(schema, choices, refs, depth);

  const nullable = Array.isArray(schema.type) && schema.type.includes('null');
  const words = typeWords(schema);
  const description = typeof schema.description === 'string' ? schema.description : undefined;
  const base = { rules: rulesOf(schema), nullable, deprecated: schema.deprecated === true, ...(description ? { description } : {}) };
  if ('const' in schema) return { ...base, type: json(schema.const), children: [] };
  if (words.includes('array') || schema.items) {
    const items = view(schema.items ?? {}, refs, depth);
    return { ...base, type: `array of ${items.type}`, children: items.children };
  }
  if (words.includes('object') || schema.properties) {
    const properties = schema.properties as Schema | undefined;
    if (properties && Object.keys(properties).length) return { ...base, type: 'object', children: depth < MAX_DEPTH ? [schema] : [] };
    const values = schema.additionalProperties;
    const valueType = typeof values === 'object' && values !== null && Object.keys(values).length ? view(values, refs, depth).type : '';
    return { ...base, type: valueType ? `object of ${valueType}` : 'object', children: [] };
  }
  const format = schema.format ?? schema.contentMediaType;
  const type = words.length ? words.join(' or ') : 'any';
  return { ...base, type: format ? `${type} (${escapeHtml(String(format))})` : type, children: [] };
}

/** `anyOf`/`oneOf`: a `null` branch makes the rest nullable; one branch left is shown as itself. */
function choiceView(schema: Schema, choices: unknown[], refs: Refs, depth: number): View {
  const branches = choices.filter((choice) => refs.resolve(choice).type !== 'null');
  const nullable = branches.length < choices.length;
  const views = branches.map((branch) => view(branch, refs, depth));
  const own = typeof schema.description === 'string' ? schema.description : undefined;
  const description = own ?? views.find((branch) => branch.description)?.description;
  const extra = rulesOf(schema);
  if (views.length === 1) {
    const only = views[0]!;
    return {
      ...only,
      rules: [...only.rules, ...extra],
      nullable: nullable || only.nullable,
      deprecated: schema.deprecated === true || only.deprecated,
      ...(description ? { description } : {}),
    };
  }
  return {
    type: views.map((branch) => (branch.rules.length ? `${branch.type} (${branch.rules.join('; ')})` : branch.type)).join(' or '),
    rules: extra,
    nullable: nullable || views.some((branch) => branch.nullable),
    deprecated: schema.deprecated === true || views.some((branch) => branch.deprecated),
    ...(description ? { description } : {}),
    children: views.flatMap((branch) => branch.children),
  };
}

/** One entry of a field list: name, type, whether it is required, then its description and rules. */
export function fieldEntry(name: string, schema: unknown, required: boolean, refs: Refs, depth = 0, description?: string): string {
  const shown = view(schema, refs, depth);
  const text = description ?? shown.description;
  const rules = [...(shown.nullable ? ['may be <code>null</code>'] : []), ...shown.rules];
  const children = shown.children.map((child) => `<div class="children">${fieldList(child, refs, depth + 1)}</div>`).join('');
  return `<li><div class="field-head"><code class="field-name">${escapeHtml(name)}</code> <span class="type">${shown.type}</span>${
    required ? ' <span class="required">required</span>' : ''
  }${shown.deprecated ? ' <span class="deprecated">deprecated</span>' : ''}</div>${text ? `<p>${inlineCode(text)}</p>` : ''}${rules.length ? `<p class="rules">${rules.join('; ')}</p>` : ''}${children}</li>`;
}

/** The properties of an object schema, required ones first, each in the order the schema gives. */
export function fieldList(input: unknown, refs: Refs, depth = 0, only?: readonly string[]): string {
  const schema = refs.resolve(input);
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = new Set((schema.required ?? []) as string[]);
  const names = Object.keys(properties).filter((name) => !only || only.includes(name));
  const ordered = [...names.filter((name) => required.has(name)), ...names.filter((name) => !required.has(name))];
  return `<ul class="fields">${ordered.map((name) => fieldEntry(name, properties[name], required.has(name), refs, depth)).join('')}</ul>`;
}

/** A short type label for a schema (a link for a named one), as a response or a parameter shows it. */
export function typeLabel(schema: unknown, refs: Refs): string {
  return view(schema, refs, MAX_DEPTH).type;
}

const SAMPLE_STRINGS: Record<string, string> = { date: '2026-10-01', 'date-time': '2026-10-01T12:00:00Z', uri: 'https://example.com' };

/** A value of the schema for an example answer when the document has none: the first choice, one array item. */
export function sampleOf(input: unknown, refs: Refs, depth = 0): unknown {
  const schema = refs.resolve(input);
  if ('example' in schema) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const choices = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
  if (Array.isArray(choices)) {
    const first = choices.find((choice) => refs.resolve(choice).type !== 'null') ?? choices[0];
    return sampleOf(first, refs, depth);
  }
  const words = typeWords(schema);
  if (depth > MAX_DEPTH) return null;
  if (words.includes('array') || schema.items) return [sampleOf(schema.items ?? {}, refs, depth + 1)];
  if (words.includes('object') || schema.properties) {
    const properties = (schema.properties ?? {}) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, sampleOf(property, refs, depth + 1)]));
  }
  if (words.includes('integer') || words.includes('number')) return typeof schema.minimum === 'number' ? schema.minimum : 0;
  if (words.includes('boolean')) return true;
  if (words.includes('null') || !words.length) return null;
  return SAMPLE_STRINGS[String(schema.format)] ?? 'string';
}
