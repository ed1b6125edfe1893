import { describe, expect, it } from 'vitest';
import { JsonNumber } from '../../src/json/parse.ts';
import { CURRENCY_CODES, CURRENCY_MINOR_DIGITS } from '../../src/templates/currencies.ts';
import { isBlank, lineItems, multiline, text, url } from '../../src/templates/field-types.ts';

describe('currencies', () => {
  it('accepts exactly 155 codes, each three capital letters with its minor digits', () => {
    expect(CURRENCY_CODES).toHaveLength(155);
    for (const code of CURRENCY_CODES) expect(code).toMatch(/^[A-Z]{3}$/);
    expect(CURRENCY_MINOR_DIGITS).toMatchObject({ USD: 2, EUR: 2, JPY: 0, KWD: 3, BHD: 3, CLP: 0, KRW: 0, TND: 3 });
    for (const excluded of ['BOV', 'CHE', 'CHW', 'CLF', 'COU', 'MXV', 'USN', 'UYI', 'XAU', 'XDR', 'XXX', 'XTS']) {
      expect(CURRENCY_CODES).not.toContain(excluded);
    }
  });
});

describe('normalised values', () => {
  it('url: trimmed, scheme lower-cased, the rest as sent', () => {
    expect(url.read('  HTTPS://Pay.Example.com/X?a=1  ', {})).toEqual({ ok: true, value: 'https://Pay.Example.com/X?a=1' });
  });

  it('text: a JSON integer is taken as its digits', () => {
    expect(text().read(new JsonNumber('12345678901234567890'), {})).toEqual({ ok: true, value: '12345678901234567890' });
  });

  it('multiline: CR LF becomes LF', () => {
    expect(multiline().read('a\r\nb', {})).toEqual({ ok: true, value: 'a\nb' });
  });
});

describe('lengths in code points', () => {
  // U+1D11E MUSICAL SYMBOL G CLEF: one code point, two UTF-16 units.
  const clef = '\u{1D11E}';

  it('text and multiline: a character outside the BMP counts once, at the limit and past it', () => {
    for (const [type, limit] of [
      [text(200), 200],
      [multiline(2000), 2000],
    ] as const) {
      expect(type.read(clef.repeat(limit), {})).toEqual({ ok: true, value: clef.repeat(limit) });
      expect(type.read(`${clef.repeat(limit - 1)}ab`, {})).toMatchObject({ ok: false, problems: [{ code: 'too_long' }] });
    }
  });

  it('line items as text: 12,000 code points in UTF-16 units beyond it', () => {
    const line = `${clef.repeat(190)} | 1 | 2\n`;
    const items = [...line.repeat(61)].slice(0, 11_999).join('');
    expect(items.length).toBeGreaterThan(12_000);
    expect(lineItems.read(items, {})).not.toMatchObject({ problems: [{ code: 'too_long' }] });
    expect(lineItems.read(`${items}xx`, {})).toMatchObject({
      ok: false,
      problems: [{ code: 'too_long' }],
    });
  });
});

describe('blank values', () => {
  it('are missing, null, empty or white space only (any of JavaScript trim’s), never a value with a character', () => {
    for (const blank of [undefined, null, '', ' ', '\t\n\r', '\u00a0\u3000\u2028\ufeff', ' \u1680 '])
      expect(isBlank(blank), JSON.stringify(blank)).toBe(true);
    for (const value of ['a', ' a', '\u00a0a', '~', '!', '\u3000x\u3000', 'é', false, 0, [], {}]) {
      expect(isBlank(value as Parameters<typeof isBlank>[0]), JSON.stringify(value)).toBe(false);
    }
  });
});
