import { PAPERS } from '../contract/document-options.ts';
import { LIMITS } from '../contract/limits.ts';
import { REQUEST_PARAMETERS } from '../documents/parameters.ts';
import { isJsonObject, JsonNumber, type JsonObject, type JsonValue } from '../json/parse.ts';
import { CURRENCY_CODES } from '../templates/currencies.ts';
import { type TemplateDefinition, templateObject } from '../templates/template.ts';

/**
 * The web app's document form, made from a template's own field definitions (the ones the validator, the JSON
 * Schema and /docs/api read): a fourth template gets its form with no page code. Inputs are named by the path the
 * contract's error details use (`fields.date`, `fields.items[0].quantity`, `reference`), so a problem finds its
 * input by its `field`.
 */

/** How a field is typed in: one kind per field type of spec 2.3. */
export type InputKind = 'text' | 'textarea' | 'date' | 'select' | 'checkbox' | 'decimal' | 'url' | 'items';

export interface FormField {
  /** The field's name in `fields`. */
  readonly name: string;
  /** Its input's name: the contract's path of the field, `fields.<name>`. */
  readonly path: string;
  readonly label: string;
  readonly required: boolean;
  /** What the field is and the rules of its type, in one or two sentences. */
  readonly hint: string;
  readonly kind: InputKind;
  readonly maxLength?: number;
  /** The choices of an enum or a currency, in the order the definition lists them. */
  readonly choices?: readonly string[];
}

/** The rules of each field type as the form's hints say them (spec 2.3), by the field type's name; an enum and a boolean need none. */
const TYPE_RULES: Readonly<Record<string, (maxLength: number | undefined) => string>> = {
  text: (max) => `One line, at most ${max ?? LIMITS.textChars} characters.`,
  multiline: (max) => `Several lines allowed, at most ${max ?? LIMITS.multilineChars} characters.`,
  date: () => 'A date, YYYY-MM-DD; printed as entered.',
  currency: () => 'ISO 4217 code; it decides how many decimals amounts may have and how they print.',
  money: () => "An amount of 0 or more, such as 1250.00, with at most the currency's decimals.",
  percent: () => 'A percentage from 0 to 100, such as 20 or 7.5%.',
  discount: () => 'An amount such as 50.00, or a percentage of the subtotal such as 10%.',
  url: () => `An https:// link, at most ${LIMITS.urlChars} characters.`,
  decimal: () =>
    `A number such as 1,250.00 or 7.5: at most ${LIMITS.integerDigits} digits before the point and ${LIMITS.fractionDigits} after it.`,
  line_items: () =>
    `${LIMITS.minLineItems} to ${LIMITS.maxLineItems} items: description, quantity and unit price (either may be negative for a credit line). Empty rows are left out.`,
};

const KINDS: Readonly<Record<string, InputKind>> = {
  text: 'text',
  multiline: 'textarea',
  date: 'date',
  enum: 'select',
  currency: 'select',
  boolean: 'checkbox',
  money: 'decimal',
  percent: 'decimal',
  discount: 'decimal',
  decimal: 'decimal',
  url: 'url',
  line_items: 'items',
};

/** Words a label writes in capitals. */
const ACRONYMS: Readonly<Record<string, string>> = {
  id: 'ID',
  po: 'PO',
  url: 'URL',
  vat: 'VAT',
  iban: 'IBAN',
  bic: 'BIC',
  upi: 'UPI',
  pix: 'PIX',
  qr: 'QR',
};

/** A field's label from its name: `seller_name` → `Seller name`, `po_number` → `PO number`. */
export function labelOf(name: string): string {
  const words = name.split('_').map((word) => ACRONYMS[word] ?? word);
  const first = words[0]!;
  return [first.charAt(0).toUpperCase() + first.slice(1), ...words.slice(1)].join(' ');
}

/** The first value of `keyword` anywhere in a JSON Schema (its `anyOf` branches included). */
function schemaKeyword(schema: unknown, keyword: string): unknown {
  if (Array.isArray(schema)) {
    for (const member of schema) {
      const found = schemaKeyword(member, keyword);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (schema === null || typeof schema !== 'object') return undefined;
  const object = schema as Record<string, unknown>;
  if (keyword in object) return object[keyword];
  return schemaKeyword(object.anyOf ?? object.oneOf, keyword);
}

const formFields = new WeakMap<TemplateDefinition, readonly FormField[]>();

/** The template's form fields, in the order the template defines them; deprecated aliases are left out. */
export function formFieldsOf(template: TemplateDefinition): readonly FormField[] {
  const known = formFields.get(template);
  if (known) return known;
  const properties = (templateObject(template).fields_schema as { properties: Record<string, unknown> }).properties;
  const fields = Object.entries(template.fields)
    .filter(([, spec]) => !spec.deprecatedFor)
    .map(([name, spec]): FormField => {
      const typeName = spec.type.name;
      const maxLength = schemaKeyword(properties[name], 'maxLength') as number | undefined;
      const rule = TYPE_RULES[typeName]?.(maxLength) ?? '';
      const choices = typeName === 'currency' ? CURRENCY_CODES : (schemaKeyword(properties[name], 'enum') as string[] | undefined);
      return {
        name,
        path: `fields.${name}`,
        label: labelOf(name),
        required: spec.required,
        hint: [spec.description, rule].filter(Boolean).join(' '),
        kind: KINDS[typeName] ?? 'text',
        ...(maxLength !== undefined && typeName !== 'line_items' ? { maxLength } : {}),
        ...(choices ? { choices } : {}),
      };
    });
  formFields.set(template, fields);
  return fields;
}

/** The line item members, as the form's columns: the contract's names and the labels shown. */
export const ITEM_MEMBERS = [
  { name: 'description', label: 'Description' },
  { name: 'quantity', label: 'Quantity' },
  { name: 'unit_price', label: 'Unit price' },
] as const;

/** Item rows shown at first, and how many more a "More rows" press adds, up to the contract's 50. */
export const ITEM_ROWS = { initial: 3, more: 5, max: LIMITS.maxLineItems } as const;

export const itemPath = (row: number, member: string) => `fields.items[${row}].${member}`;

/** What the form holds: every input's value by its name, and how many item rows it shows. */
export interface FormValues {
  readonly values: ReadonlyMap<string, string>;
  readonly itemRows: number;
}

export function itemRowsOf(form: URLSearchParams): number {
  const rows = Number(form.get('item_rows'));
  return Number.isInteger(rows) && rows >= ITEM_ROWS.initial && rows <= ITEM_ROWS.max ? rows : ITEM_ROWS.initial;
}

/** The form's values as the browser sent them (only the names the form has). */
export function formValuesOf(template: TemplateDefinition, form: URLSearchParams, itemRows = itemRowsOf(form)): FormValues {
  const values = new Map<string, string>();
  const take = (name: string) => {
    const value = form.get(name);
    if (value !== null && value !== '') values.set(name, value);
  };
  take('paper');
  take('reference');
  for (const field of formFieldsOf(template)) {
    if (field.kind !== 'items') take(field.path);
    else for (let row = 0; row < itemRows; row++) for (const member of ITEM_MEMBERS) take(itemPath(row, member.name));
  }
  return { values, itemRows };
}

/** A request body made from the form, and which form row each of its line items came from. */
export interface FormBody {
  readonly body: JsonObject;
  /** `itemRows[i]` is the form row of `fields.items[i]` (empty rows are left out of the body). */
  readonly itemRows: readonly number[];
}

/**
 * The request body of POST /api/v1/documents the form stands for: what the API would be sent, blank inputs left
 * out (as the contract leaves a blank optional field off, and refuses a blank required one).
 */
export function bodyOf(template: TemplateDefinition, form: FormValues, mode: 'final' | 'preview'): FormBody {
  const fields: JsonObject = {};
  const itemRows: number[] = [];
  const value = (name: string) => form.values.get(name) ?? '';
  for (const field of formFieldsOf(template)) {
    if (field.kind === 'checkbox') {
      if (value(field.path) === 'true') fields[field.name] = true;
    } else if (field.kind === 'items') {
      const items: JsonValue[] = [];
      for (let row = 0; row < form.itemRows; row++) {
        const item = Object.fromEntries(ITEM_MEMBERS.map((member) => [member.name, value(itemPath(row, member.name))]));
        if (Object.values(item).every((member) => member.trim() === '')) continue;
        items.push(item);
        itemRows.push(row);
      }
      if (items.length) fields[field.name] = items;
    } else if (value(field.path).trim() !== '') {
      fields[field.name] = value(field.path);
    }
  }
  const body: JsonObject = { template: template.slug, mode, fields };
  if (value('paper') !== '') body.paper = value('paper');
  if (value('reference') !== '') body.reference = value('reference');
  return { body, itemRows };
}

/** A value of a pasted body as the form's input holds it. */
function inputText(value: JsonValue | undefined): string | undefined {
  if (typeof value === 'string') return value;
  if (value instanceof JsonNumber) return value.text;
  if (value === true) return 'true';
  return undefined;
}

/** The line items of a pasted body, whichever form they were sent in (objects, or `description | qty | price` lines). */
function pastedItems(value: JsonValue | undefined): Record<string, string>[] {
  if (Array.isArray(value)) {
    return value
      .filter(isJsonObject)
      .map((item) => Object.fromEntries(ITEM_MEMBERS.map((member) => [member.name, inputText(item[member.name]) ?? ''])));
  }
  if (typeof value !== 'string') return [];
  return value
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const parts = line.split('|').map((part) => part.trim());
      const price = parts.length >= 3 ? parts.pop()! : '';
      const quantity = parts.length >= 2 ? parts.pop()! : '';
      return { description: parts.join(' | '), quantity, unit_price: price };
    });
}

/** A pasted body as the form's values, and the names the form has no input for (told on the page). */
export function formValuesFromBody(template: TemplateDefinition, body: JsonObject): { form: FormValues; leftOut: string[] } {
  const values = new Map<string, string>();
  const leftOut: string[] = [];
  const known = new Set(['template', 'mode', 'fields', 'paper', 'reference', 'locale', 'output', 'template_version']);
  for (const name of Object.keys(body)) if (!known.has(name)) leftOut.push(name);
  for (const name of ['paper', 'reference'] as const) {
    const text = inputText(body[name]);
    if (text !== undefined) values.set(name, text);
  }
  const fields = isJsonObject(body.fields) ? { ...body.fields } : {};
  // A deprecated alias fills the field it is an alias of.
  for (const [name, spec] of Object.entries(template.fields)) {
    if (spec.deprecatedFor && fields[name] !== undefined && fields[spec.deprecatedFor] === undefined) {
      fields[spec.deprecatedFor] = fields[name]!;
      delete fields[name];
    }
  }
  const formFields = formFieldsOf(template);
  let itemRows: number = ITEM_ROWS.initial;
  for (const name of Object.keys(fields)) if (!formFields.some((field) => field.name === name)) leftOut.push(`fields.${name}`);
  for (const field of formFields) {
    if (field.kind === 'items') {
      const items = pastedItems(fields[field.name]).slice(0, ITEM_ROWS.max);
      itemRows = Math.max(ITEM_ROWS.initial, items.length);
      items.forEach((item, row) => {
        for (const member of ITEM_MEMBERS) if (item[member.name]) values.set(itemPath(row, member.name), item[member.name]!);
      });
      continue;
    }
    const text = inputText(fields[field.name]);
    if (text !== undefined) values.set(field.path, text);
  }
  return { form: { values, itemRows }, leftOut };
}

/** The papers and their labels, for the form's Paper choice. */
export const PAPER_CHOICES: readonly { value: string; label: string }[] = PAPERS.map((paper) => ({
  value: paper,
  label: paper === 'a4' ? 'A4' : 'US Letter',
}));

export const DEFAULT_PAPER: string = REQUEST_PARAMETERS.paper.default ?? PAPERS[0];
