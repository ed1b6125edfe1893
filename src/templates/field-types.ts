import * as v from 'valibot';
import type { ValidationDetailCode } from '../contract/errors.ts';
import { LIMITS } from '../contract/limits.ts';
import { isJsonObject, JsonNumber, type JsonValue } from '../json/parse.ts';
import { Decimal } from '../money/decimal.ts';
import { CURRENCY_CODES, minorDigits } from './currencies.ts';

/**
 * The value types of spec 2.3. Each has a valibot `schema` for its JSON shape (checked first, and published
 * as the template's JSON Schema, richer keywords coming from `metadata`) and a `read` that applies the value
 * rules and returns the normalised value the totals and the layout use, or the problems with detail codes.
 */
export type Path = (string | number)[];
export interface Problem {
  code: ValidationDetailCode;
  path: Path;
  message?: string;
}
export type Read<T> = { ok: true; value: T } | { ok: false; problems: Problem[] };
interface ReadContext {
  /** Minor digits of the request's currency, when it is a valid one. */
  minorDigits?: number;
}
export interface FieldType<T = unknown> {
  readonly name: string;
  readonly schema: v.GenericSchema;
  read(value: JsonValue, context: ReadContext): Read<T>;
}

const ok = <T>(value: T): Read<T> => ({ ok: true, value });
const problem = (code: ValidationDetailCode, path: Path = [], message?: string): Read<never> => ({
  ok: false,
  problems: [{ code, path, ...(message ? { message } : {}) }],
});

/** JSON numbers are `JsonNumber` objects after parsing; the JSON Schema override maps these to number/integer. */
const jsonNumberSchema = v.instance(JsonNumber, 'wrong_type');
const jsonIntegerSchema = v.pipe(
  v.instance(JsonNumber, 'wrong_type'),
  v.check((n) => n.isInteger, 'wrong_type'),
  v.metadata({ type: 'integer' }),
);

function shape<Schema extends v.GenericSchema>(schema: Schema, value: JsonValue): Read<v.InferOutput<Schema>> {
  const result = v.safeParse(schema, value);
  return result.success ? ok(result.output) : problem(result.issues[0].message as ValidationDetailCode);
}

const FORBIDDEN =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the contract forbids these control characters in text fields.
  /[\u202A-\u202E\u2066-\u2069\uFEFF\u200B]|[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u0084\u0086-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LINE_BREAK = /[\n\r\u0085\u2028\u2029]/;

/**
 * More than `maxChars` code points (the contract's unit). A text of at most that many UTF-16 units has at most that
 * many code points, and nearly every value is one: its code points are counted only past it.
 */
function longerThan(text: string, maxChars: number): boolean {
  if (text.length <= maxChars) return false;
  let length = 0;
  for (const _ of text) length++;
  return length > maxChars;
}

/** Blank: empty or only white space. A blank optional field is left off; a blank required one is `required`. */
export function isBlank(value: JsonValue | undefined): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'string') return false;
  // Nearly every value starts with a printable ASCII character, never white space: no trimmed copy for it.
  const first = value.charCodeAt(0);
  if (first > 0x20 && first < 0x7f) return false;
  return value.trim() === '';
}

function checkCharacters(text: string, allowLineBreaks: boolean): Read<string> {
  if (allowLineBreaks) {
    if (/\r(?!\n)/.test(text)) return problem('invalid_characters', [], 'A CR must be followed by LF.');
    text = text.replace(/\r\n/g, '\n');
    if (/[\u0085\u2028\u2029]/.test(text)) return problem('invalid_characters', [], 'Line breaks must be LF or CR LF.');
  } else if (LINE_BREAK.test(text)) {
    return problem('line_break_not_allowed');
  }
  const forbidden = FORBIDDEN.exec(text);
  if (forbidden) {
    const code = forbidden[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    return problem('invalid_characters', [], `The character U+${code} is not allowed.`);
  }
  return ok(text);
}

export function text(maxChars: number = LIMITS.textChars): FieldType<string> {
  const schema = v.union([v.pipe(v.string('wrong_type'), v.metadata({ maxLength: maxChars })), jsonIntegerSchema], 'wrong_type');
  return {
    name: 'text',
    schema,
    read(value) {
      const typed = shape(schema, value);
      if (!typed.ok) return typed;
      const raw = typed.value instanceof JsonNumber ? typed.value.text : typed.value;
      const checked = checkCharacters(raw, false);
      if (!checked.ok) return checked;
      if (longerThan(raw, maxChars)) return problem('too_long', [], `At most ${maxChars} characters.`);
      return ok(raw);
    },
  };
}

export function multiline(maxChars: number = LIMITS.multilineChars): FieldType<string> {
  const schema = v.pipe(v.string('wrong_type'), v.metadata({ maxLength: maxChars }));
  return {
    name: 'multiline',
    schema,
    read(value) {
      const typed = shape(schema, value);
      if (!typed.ok) return typed;
      const checked = checkCharacters(typed.value, true);
      if (!checked.ok) return checked;
      if (longerThan(checked.value, maxChars)) return problem('too_long', [], `At most ${maxChars} characters.`);
      return checked;
    },
  };
}

function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

export const date: FieldType<string> = (() => {
  const schema = v.pipe(v.string('wrong_type'), v.metadata({ format: 'date' }));
  return {
    name: 'date',
    schema,
    read(value) {
      const typed = shape(schema, value);
      if (!typed.ok) return typed;
      return isCalendarDate(typed.value) ? typed : problem('invalid_date', [], 'A real calendar date YYYY-MM-DD.');
    },
  };
})();

export function oneOf<const T extends string>(values: readonly T[]): FieldType<T> {
  const schema = v.pipe(v.string('wrong_type'), v.metadata({ enum: values }));
  return {
    name: 'enum',
    schema,
    read(value) {
      const typed = shape(schema, value);
      if (!typed.ok) return typed;
      const chosen = values.find((choice) => choice === typed.value);
      return chosen === undefined ? problem('not_one_of', [], `One of: ${values.join(', ')}.`) : ok(chosen);
    },
  };
}

const BOOLEAN_SCHEMA = v.boolean('wrong_type');

export const boolean: FieldType<boolean> = {
  name: 'boolean',
  schema: BOOLEAN_SCHEMA,
  read(value) {
    return shape(BOOLEAN_SCHEMA, value);
  },
};

export const currency: FieldType<string> = (() => {
  const schema = v.pipe(v.string('wrong_type'), v.metadata({ enum: CURRENCY_CODES }));
  return {
    name: 'currency',
    schema,
    read(value) {
      const typed = shape(schema, value);
      if (!typed.ok) return typed;
      return minorDigits(typed.value) === undefined
        ? problem('unsupported_currency', [], 'A three-letter ISO 4217 code such as EUR; no symbols.')
        : typed;
    },
  };
})();

/** A parsed number with how many fraction digits it was written with (the money rules count them). */
interface DecimalValue {
  value: Decimal;
  fractionDigits: number;
}

const DECIMAL_TEXT = /^(-)?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/;

/** Reads the decimal forms of spec 2.3 written as text: `1,250.00`, `7.5`, `-100`. */
function readDecimalText(text: string): Read<DecimalValue> {
  const match = DECIMAL_TEXT.exec(text);
  if (!match) return problem('not_a_number', [], 'A number such as 1250, 1,250.00 or 7.5.');
  const integerDigits = match[2]!.replace(/,/g, '').replace(/^0+(?=\d)/, '');
  const fraction = match[3] ?? '';
  if (integerDigits.length > LIMITS.integerDigits || fraction.length > LIMITS.fractionDigits) {
    return problem('too_many_digits', [], `At most ${LIMITS.integerDigits} digits before the point and ${LIMITS.fractionDigits} after it.`);
  }
  const value = new Decimal(`${match[1] ?? ''}${integerDigits}.${fraction || '0'}`);
  return ok({ value: value.isZero() ? new Decimal(0) : value, fractionDigits: fraction.length });
}

export const decimal: FieldType<DecimalValue> = (() => {
  const schema = v.union([v.string('wrong_type'), jsonNumberSchema], 'wrong_type');
  return {
    name: 'decimal',
    schema,
    read(value) {
      const typed = shape(schema, value);
      if (!typed.ok) return typed;
      if (!(typed.value instanceof JsonNumber)) return readDecimalText(typed.value);
      const shortest = typed.value.shortest;
      if (shortest === 'Infinity' || shortest === '-Infinity') return problem('too_many_digits');
      return readDecimalText(/e/.test(shortest) ? new Decimal(shortest).toFixed() : shortest);
    },
  };
})();

function checkMoney(read: Read<DecimalValue>, context: ReadContext): Read<Decimal> {
  if (!read.ok) return read;
  if (read.value.value.isNegative()) return problem('out_of_range', [], 'An amount cannot be negative.');
  if (context.minorDigits !== undefined && read.value.fractionDigits > context.minorDigits) {
    return problem('too_many_decimals', [], `The currency allows ${context.minorDigits} decimals.`);
  }
  return ok(read.value.value);
}

export const money: FieldType<Decimal> = {
  name: 'money',
  schema: v.pipe(decimal.schema, v.metadata({ description: 'Amount of 0 or more, as a string such as "1250.00" (or a JSON number).' })),
  read(value, context) {
    return checkMoney(decimal.read(value, context), context);
  },
};

function readPercentText(text: string): Read<Decimal> {
  const read = readDecimalText(text.endsWith('%') ? text.slice(0, -1) : text);
  if (!read.ok) return read;
  const rate = read.value.value;
  if (rate.isNegative() || rate.gt(100)) return problem('out_of_range', [], 'A percentage from 0 to 100.');
  return ok(rate);
}

const PERCENT_SCHEMA = v.pipe(v.string('wrong_type'), v.metadata({ pattern: '^\\d{1,3}(\\.\\d{1,4})?%?$' }));

export const percent: FieldType<Decimal> = {
  name: 'percent',
  schema: PERCENT_SCHEMA,
  read(value) {
    const typed = shape(PERCENT_SCHEMA, value);
    return typed.ok ? readPercentText(typed.value) : typed;
  },
};

export type Discount = { kind: 'percent'; rate: Decimal } | { kind: 'amount'; amount: Decimal };

const DISCOUNT_SCHEMA = v.pipe(
  v.string('wrong_type'),
  v.metadata({ description: 'A money amount such as "50.00", or a percentage of the subtotal such as "10%".' }),
);

export const discount: FieldType<Discount> = {
  name: 'discount',
  schema: DISCOUNT_SCHEMA,
  read(value, context) {
    const typed = shape(DISCOUNT_SCHEMA, value);
    if (!typed.ok) return typed;
    if (typed.value.endsWith('%')) {
      const rate = readPercentText(typed.value);
      return rate.ok ? ok({ kind: 'percent', rate: rate.value }) : rate;
    }
    const amount = checkMoney(readDecimalText(typed.value), context);
    return amount.ok ? ok({ kind: 'amount', amount: amount.value }) : amount;
  },
};

/** Leading and trailing U+0020 removed by index: a regex such as `/^ +| +$/g` is quadratic on a long run of spaces. */
function trimSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) === 0x20) end--;
  return text.slice(start, end);
}

const URL_ALLOWED = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;
const PLAIN_HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*(?::\d{1,5})?$/;

const URL_SCHEMA = v.pipe(
  v.string('wrong_type'),
  v.metadata({ description: 'An https:// link; the server applies the url rules of spec 2.3.' }),
);

/** The url type: returns the text to print and link, the trimmed value with its scheme lower-cased. */
export const url: FieldType<string> = {
  name: 'url',
  schema: URL_SCHEMA,
  read(value) {
    const typed = shape(URL_SCHEMA, value);
    if (!typed.ok) return typed;
    const trimmed = trimSpaces(typed.value);
    const invalid = (why: string) => problem('invalid_url', [], why);
    if (trimmed.length > LIMITS.urlChars) return invalid(`At most ${LIMITS.urlChars} characters.`);
    if (!/^https:\/\//i.test(trimmed)) return invalid('Only https:// links are accepted.');
    if (!URL_ALLOWED.test(trimmed)) return invalid('Plain ASCII without spaces only.');
    const rest = trimmed.slice('https://'.length);
    const authority = rest.split(/[/?#]/, 1)[0]!;
    if (authority.includes('@')) return invalid('No user name or password.');
    if (!PLAIN_HOST.test(authority)) return invalid('The host must be written plainly after https://.');
    return ok(`https://${rest}`);
  },
};

/**
 * A one-line text with a form of its own (an IBAN, a BIC, a UPI id): a `text` of the contract (section 2.3), read as
 * text first, then by `readAs`, which gives the value in its normal form or undefined; undefined is the problem
 * `code`. The field's description says the form.
 */
export function formattedText(
  maxChars: number,
  readAs: (text: string) => string | undefined,
  code: ValidationDetailCode,
): FieldType<string> {
  const base = text(maxChars);
  return {
    name: base.name,
    schema: base.schema,
    read(value, context) {
      const read = base.read(value, context);
      if (!read.ok) return read;
      const formed = readAs(read.value);
      return formed === undefined ? problem(code) : ok(formed);
    },
  };
}

export interface LineItem {
  description: string;
  quantity: DecimalValue;
  unitPrice: DecimalValue;
}

/** The members of a line item object (spec 2.4), used by the validator and for the JSON Schema alike. */
const LINE_ITEM_MEMBERS = {
  description: text(LIMITS.lineItemDescriptionChars),
  quantity: decimal,
  unit_price: decimal,
} as const;

/** The read of a value found under `key` of an object or array: its problems' paths start with `key`. */
export function readUnder<T>(key: string | number, read: Read<T>): Read<T> {
  return read.ok ? read : { ok: false, problems: read.problems.map((p) => ({ ...p, path: [key, ...p.path] })) };
}

/** The values of every read, or the problems of all of them. */
function collect<T>(reads: Read<T>[]): Read<T[]> {
  const problems = reads.flatMap((read) => (read.ok ? [] : read.problems));
  if (problems.length) return { ok: false, problems };
  return ok(reads.flatMap((read) => (read.ok ? [read.value] : [])));
}

function readItemMember<T>(
  name: keyof typeof LINE_ITEM_MEMBERS,
  type: FieldType<T>,
  value: JsonValue | undefined,
  context: ReadContext,
): Read<T> {
  if (isBlank(value)) return problem('required', [name]);
  return readUnder(name, type.read(value!, context));
}

/** The three members of a line item, whichever form it was sent in; problems carry the member's path. */
function readItemMembers(
  members: Readonly<Record<keyof typeof LINE_ITEM_MEMBERS, JsonValue | undefined>>,
  context: ReadContext,
  problems: Problem[],
): Read<LineItem> {
  const description = readItemMember('description', LINE_ITEM_MEMBERS.description, members.description, context);
  const quantity = readItemMember('quantity', LINE_ITEM_MEMBERS.quantity, members.quantity, context);
  const unitPrice = readItemMember('unit_price', LINE_ITEM_MEMBERS.unit_price, members.unit_price, context);
  for (const read of [description, quantity, unitPrice]) if (!read.ok) problems.push(...read.problems);
  if (problems.length || !description.ok || !quantity.ok || !unitPrice.ok) return { ok: false, problems };
  return ok({ description: description.value, quantity: quantity.value, unitPrice: unitPrice.value });
}

function readItemObject(item: JsonValue, context: ReadContext): Read<LineItem> {
  if (!isJsonObject(item)) return problem('wrong_type', [], 'A line item is an object with description, quantity and unit_price.');
  const unknown = Object.keys(item).filter((name) => !Object.hasOwn(LINE_ITEM_MEMBERS, name));
  const problems: Problem[] = unknown.map((name) => ({ code: 'unknown_field', path: [name] }));
  return readItemMembers({ description: item.description, quantity: item.quantity, unit_price: item.unit_price }, context, problems);
}

/** `description | quantity | unit price`: the last two pipe-separated parts are the numbers. */
function readItemLine(line: string, context: ReadContext): Read<LineItem> {
  const parts = line.split('|').map((part) => part.trim());
  if (parts.length < 3) {
    return problem('required', [], 'Each line is: description | quantity | unit price.');
  }
  const unitPrice = parts.pop()!;
  const quantity = parts.pop()!;
  return readItemMembers({ description: parts.join(' | '), quantity, unit_price: unitPrice }, context, []);
}

function checkItemCount<T>(items: T[]): Read<T[]> {
  if (items.length < LIMITS.minLineItems) return problem('no_items', [], 'At least one line item.');
  if (items.length > LIMITS.maxLineItems) return problem('too_many_items', [], `At most ${LIMITS.maxLineItems} line items.`);
  return ok(items);
}

export const lineItems: FieldType<LineItem[]> = {
  name: 'line_items',
  schema: v.union(
    [
      v.pipe(
        v.array(v.strictObject(Object.fromEntries(Object.entries(LINE_ITEM_MEMBERS).map(([k, t]) => [k, t.schema])))),
        v.metadata({ minItems: LIMITS.minLineItems, maxItems: LIMITS.maxLineItems }),
      ),
      v.pipe(
        v.string(),
        v.metadata({
          maxLength: LIMITS.lineItemsTextChars,
          description: 'One line item per non-blank line: description | quantity | unit price.',
        }),
      ),
    ],
    'wrong_type',
  ),
  read(value, context) {
    if (Array.isArray(value)) {
      const counted = checkItemCount(value);
      if (!counted.ok) return counted;
      return collect(value.map((item, index) => readUnder(index, readItemObject(item, context))));
    }
    if (typeof value !== 'string') return problem('wrong_type', [], 'An array of line items or a text with one item per line.');
    if (longerThan(value, LIMITS.lineItemsTextChars)) {
      return problem('too_long', [], `At most ${LIMITS.lineItemsTextChars} characters.`);
    }
    const lines = value.split(/\r?\n/).filter((line) => line.trim() !== '');
    const counted = checkItemCount(lines);
    if (!counted.ok) return counted;
    return collect(lines.map((line, index) => readUnder(index, readItemLine(line, context))));
  },
};
