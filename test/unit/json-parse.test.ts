import { describe, expect, it } from 'vitest';
import { JsonNumber, JsonSyntaxError, parseJson } from '../../src/json/parse.ts';

describe('strict JSON parser', () => {
  it('parses what JSON.parse parses, keeping numbers as their text', () => {
    const value = parseJson(' {"a": [1, -2.50, 3e2, true, false, null, "x\\u00e9\\n\\"\\\\\\/"], "b": {}} ') as any;
    expect(value.a[0]).toBeInstanceOf(JsonNumber);
    expect(value.a.slice(0, 3).map((n: JsonNumber) => n.text)).toEqual(['1', '-2.50', '3e2']);
    expect(value.a.slice(3)).toEqual([true, false, null, 'xé\n"\\/']);
    expect(Object.keys(value.b)).toEqual([]);
  });

  it('keeps every digit of a large integer and reads decimals as their shortest round-trip', () => {
    const value = parseJson('[12345678901234567890123, 7.50, 0.1]') as JsonNumber[];
    expect(value[0]!.text).toBe('12345678901234567890123');
    expect(value[0]!.isInteger).toBe(true);
    expect(value[1]!.shortest).toBe('7.5');
    expect(value[2]!.shortest).toBe('0.1');
  });

  it.each([
    ['{"a":1,"a":2}', /repeated name "a"/],
    ['{"x":{"b":1,"b":1}}', /repeated name "b"/],
    ['[{"__proto__":1,"__proto__":2}]', /repeated/],
    ['{"a":1,}', /member name/],
    ['[1,]', /unexpected/],
    ['01', /after the value/],
    ['1.', /after the value/],
    ['.5', /unexpected/],
    ['+1', /unexpected/],
    ['NaN', /unexpected/],
    ['"a\tb"', /control character/],
    ['"\\x"', /bad escape/],
    ['"\\u12"', /bad \\u escape/],
    ["{'a':1}", /member name/],
    ['{"a" 1}', /expected :/],
    ['', /unexpected/],
    ['[1] [2]', /after the value/],
    ['"open', /unterminated/],
  ])('refuses %j', (text, message) => {
    expect(() => parseJson(text)).toThrow(JsonSyntaxError);
    expect(() => parseJson(text)).toThrow(message);
  });

  it('treats __proto__ as an ordinary name', () => {
    const value = parseJson('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses nesting deeper than 64 levels without exhausting the stack', () => {
    expect(() => parseJson('['.repeat(100_000) + ']'.repeat(100_000))).toThrow(/nesting deeper than 64/);
    expect(() => parseJson('['.repeat(64) + ']'.repeat(64))).not.toThrow();
  });
});
