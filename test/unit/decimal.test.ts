import { describe, expect, it } from 'vitest';
import { Decimal, formatGrouped, formatPlain, formatQuantity, formatUnitPrice, roundMinor } from '../../src/money/decimal.ts';

/** A minus sign as printed: the hyphen-minus today, U+2212 once the layout change lands; both read as negative. */
const MINUS = '[-\u2212]';
const negative = (digits: string) => new RegExp(`^${MINUS}${digits.replace(/[.,]/g, '\\$&')}$`);

/** Exact decimal product by integer arithmetic, an oracle independent of decimal.js-light. */
function exactProduct(a: string, b: string): string {
  const scaled = (text: string) => {
    const [integer = '', fraction = ''] = text.replace('-', '').split('.');
    return { digits: BigInt(`${integer}${fraction}`) * (text.startsWith('-') ? -1n : 1n), scale: fraction.length };
  };
  const x = scaled(a);
  const y = scaled(b);
  const product = x.digits * y.digits;
  const scale = x.scale + y.scale;
  const sign = product < 0n ? '-' : '';
  const text = (product < 0n ? -product : product).toString().padStart(scale + 1, '0');
  return `${sign}${text.slice(0, text.length - scale)}${scale ? `.${text.slice(text.length - scale)}` : ''}`;
}

describe('Decimal: 60 significant digits, so products of the largest inputs stay exact', () => {
  it.each([
    // The largest quantity times the largest unit price of spec 2.3 (10 integer and 4 fraction digits each).
    ['9999999999.9999', '9999999999.9999'],
    // Products with more than 20 significant digits that are not round at the minor unit.
    ['1234567890.1234', '9876543210.9876'],
    ['-9999999999.9999', '8765432109.8765'],
    ['9999999999.9999', '0.0001'],
  ])('%s × %s is exact', (a, b) => {
    expect(new Decimal(a).times(b).toFixed()).toBe(exactProduct(a, b));
  });

  it('keeps the minor unit of a sum whose integer part has 20 digits', () => {
    const sum = new Decimal('99999999999998000000').plus('-0.01');
    expect(sum.toFixed(2)).toBe('99999999999997999999.99');
  });
});

describe('roundMinor: half away from zero to the minor unit', () => {
  it.each([
    ['2.345', 2, '2.35'],
    ['2.3449', 2, '2.34'],
    ['-2.345', 2, '-2.35'],
    ['-2.3449', 2, '-2.34'],
    ['0.5', 0, '1'],
    ['-0.5', 0, '-1'],
    ['1.4999', 0, '1'],
    ['1.2345', 3, '1.235'],
    ['-1.2345', 3, '-1.235'],
    ['12193263113701551580.39986984', 2, '12193263113701551580.40'],
  ])('%s to %i digits → %s', (value, digits, rounded) => {
    expect(roundMinor(new Decimal(value), digits).toFixed(digits)).toBe(rounded);
  });
});

describe('formatPlain: the Totals form (exact minor digits, "." as point, no separators, never -0)', () => {
  it.each([
    ['1250', 2, '1250.00'],
    ['1250', 0, '1250'],
    ['1234567.891', 2, '1234567.89'],
    ['0.0005', 3, '0.001'],
    ['-12.345', 2, '-12.35'],
    ['1.5', 3, '1.500'],
  ])('%s at %i digits → %s', (value, digits, text) => {
    expect(formatPlain(new Decimal(value), digits)).toBe(text);
  });

  it.each([
    ['-0.004', 2, '0.00'],
    ['-0.4', 0, '0'],
    ['-0.0004', 3, '0.000'],
  ])('a negative that rounds to zero, %s at %i digits, is %s, not -0', (value, digits, text) => {
    expect(formatPlain(new Decimal(value), digits)).toBe(text);
  });
});

describe('formatGrouped: figures as a document prints them', () => {
  it.each([
    ['0', 2, '0.00'],
    ['999', 2, '999.00'],
    ['1000', 2, '1,000.00'],
    ['1234567.891', 2, '1,234,567.89'],
    ['123456', 2, '123,456.00'],
    ['99999999999997999999.99', 2, '99,999,999,999,997,999,999.99'],
    // A currency without minor digits (JPY, KRW): no point and no fraction at all.
    ['0', 0, '0'],
    ['100', 0, '100'],
    ['1250000', 0, '1,250,000'],
    ['1249999.5', 0, '1,250,000'],
    // Three minor digits (KWD, BHD).
    ['1234.5678', 3, '1,234.568'],
    ['0.0005', 3, '0.001'],
  ])('%s at %i digits → %s', (value, digits, text) => {
    expect(formatGrouped(new Decimal(value), digits)).toBe(text);
  });

  it.each([
    ['-484', 2, '484.00'],
    ['-1234.5', 2, '1,234.50'],
    ['-1250000', 0, '1,250,000'],
    ['-1234.5678', 3, '1,234.568'],
  ])('a negative figure, %s at %i digits, is its grouped digits after one minus sign', (value, digits, text) => {
    expect(formatGrouped(new Decimal(value), digits)).toMatch(negative(text));
  });

  it('never prints a minus sign on a figure that rounds to zero', () => {
    expect(formatGrouped(new Decimal('-0.004'), 2)).toBe('0.00');
    expect(formatGrouped(new Decimal('-0.4'), 0)).toBe('0');
  });
});

describe('formatQuantity: its own decimals, without trailing zeros, grouped', () => {
  it.each([
    ['2', '2'],
    ['0', '0'],
    ['1250.5', '1,250.5'],
    ['1250.500', '1,250.5'],
    ['0.125', '0.125'],
    ['1234567.125', '1,234,567.125'],
    ['9999999999.9999', '9,999,999,999.9999'],
  ])('%s → %s', (value, text) => {
    expect(formatQuantity(new Decimal(value))).toBe(text);
  });

  it.each([
    ['-3', '3'],
    ['-0.5', '0.5'],
    ['-1234.25', '1,234.25'],
  ])('a credit quantity %s prints as minus %s', (value, text) => {
    expect(formatQuantity(new Decimal(value))).toMatch(negative(text));
  });
});

describe('formatUnitPrice: at least the minor digits, more when sent with more', () => {
  it.each([
    ['50', 2, '50.00'],
    ['12.3', 2, '12.30'],
    ['12.3456', 2, '12.3456'],
    ['1234.5', 0, '1,234.5'],
    ['1250', 0, '1,250'],
    ['1.2345', 3, '1.2345'],
    ['1.2', 3, '1.200'],
  ])('%s at %i digits → %s', (value, digits, text) => {
    expect(formatUnitPrice(new Decimal(value), digits)).toBe(text);
  });

  it('a credit unit price keeps its sign and its digits', () => {
    expect(formatUnitPrice(new Decimal('-0.0125'), 2)).toMatch(negative('0.0125'));
    expect(formatUnitPrice(new Decimal('-1000'), 2)).toMatch(negative('1,000.00'));
  });
});
