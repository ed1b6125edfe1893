import { LIMITS } from '../contract/limits.ts';

/**
 * A JSON number with its source text. `JSON.parse` loses the digits of large integers, which the contract
 * needs ("a JSON integer, taken as its digits"), so numbers stay text until a field type reads them.
 */
export class JsonNumber {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  get isInteger(): boolean {
    return /^-?\d+$/.test(this.text);
  }
  /** The shortest round-trip decimal of the IEEE double the text denotes (`7.50` → `7.5`). */
  get shortest(): string {
    return String(Number(this.text));
  }
}

export type JsonValue = string | boolean | null | JsonNumber | JsonValue[] | JsonObject;
export interface JsonObject {
  [name: string]: JsonValue;
}

export class JsonSyntaxError extends Error {}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * Strict RFC 8259 parser: refuses a repeated name inside one object and nesting deeper than LIMITS.jsonDepth.
 * Objects have no prototype, so a member called `__proto__` is an ordinary name.
 */
export function parseJson(text: string): JsonValue {
  let pos = 0;

  const fail = (what: string): never => {
    throw new JsonSyntaxError(`${what} at character ${pos}`);
  };
  const skipWhitespace = () => {
    while (pos < text.length && WHITESPACE.has(text.charCodeAt(pos))) pos++;
  };
  const expect = (literal: string) => {
    if (!text.startsWith(literal, pos)) fail(`expected ${literal}`);
    pos += literal.length;
  };

  const parseString = (): string => {
    pos++;
    let out = '';
    let chunkStart = pos;
    for (;;) {
      if (pos >= text.length) fail('unterminated string');
      const code = text.charCodeAt(pos);
      if (code === 0x22) {
        out += text.slice(chunkStart, pos);
        pos++;
        return out;
      }
      if (code < 0x20) fail('control character in string');
      if (code !== 0x5c) {
        pos++;
        continue;
      }
      out += text.slice(chunkStart, pos);
      const escaped = text[pos + 1];
      if (escaped === 'u') {
        const hex = text.slice(pos + 2, pos + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('bad \\u escape');
        out += String.fromCharCode(parseInt(hex, 16));
        pos += 6;
      } else {
        const decoded = escaped === undefined ? undefined : ESCAPES[escaped];
        if (decoded === undefined) fail('bad escape');
        out += decoded;
        pos += 2;
      }
      chunkStart = pos;
    }
  };

  const parseValue = (depth: number): JsonValue => {
    if (depth > LIMITS.jsonDepth) fail(`nesting deeper than ${LIMITS.jsonDepth} levels`);
    skipWhitespace();
    const char = text[pos];
    switch (char) {
      case '{': {
        pos++;
        const object: JsonObject = Object.create(null);
        skipWhitespace();
        if (text[pos] === '}') {
          pos++;
          return object;
        }
        for (;;) {
          skipWhitespace();
          if (text[pos] !== '"') fail('expected a member name');
          const name = parseString();
          if (Object.hasOwn(object, name)) fail(`repeated name "${name}"`);
          skipWhitespace();
          expect(':');
          object[name] = parseValue(depth + 1);
          skipWhitespace();
          if (text[pos] === ',') {
            pos++;
            continue;
          }
          expect('}');
          return object;
        }
      }
      case '[': {
        pos++;
        const array: JsonValue[] = [];
        skipWhitespace();
        if (text[pos] === ']') {
          pos++;
          return array;
        }
        for (;;) {
          array.push(parseValue(depth + 1));
          skipWhitespace();
          if (text[pos] === ',') {
            pos++;
            continue;
          }
          expect(']');
          return array;
        }
      }
      case '"':
        return parseString();
      case 't':
        expect('true');
        return true;
      case 'f':
        expect('false');
        return false;
      case 'n':
        expect('null');
        return null;
      default: {
        NUMBER.lastIndex = pos;
        const match = NUMBER.exec(text);
        if (!match) return fail('unexpected character');
        pos += match[0].length;
        return new JsonNumber(match[0]);
      }
    }
  };

  const value = parseValue(1);
  skipWhitespace();
  if (pos !== text.length) fail('unexpected text after the value');
  return value;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof JsonNumber);
}
