import { PDFHexString } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { AsciiBuffer, decimalText } from '../../src/render/pdf/ascii-buffer.ts';

describe('AsciiBuffer.integer', () => {
  it('writes a non-negative integer as String does (object numbers, offsets, MCIDs)', () => {
    const values = [0, 7, 9, 10, 99, 100, 1234, 65535, 1_000_000, 4_294_967_295];
    const out = new AsciiBuffer();
    for (const value of values) {
      out.integer(value);
      out.text(' ');
    }
    expect(out.string(0, out.length)).toBe(values.map((value) => `${value} `).join(''));
  });
});

describe('AsciiBuffer.decimal', () => {
  it('writes what decimalText makes (content stream numbers): rounded to hundredths, shortest form', () => {
    const edges = [
      0, -0, 0.004, -0.004, 0.005, -0.005, 0.05, -0.05, 0.1, 0.5, 1, -1, 1.005, 2.675, 10.1, 99.99, 99.995, 100, 841.89, -595.28, 123456.78,
    ];
    let seed = 7;
    const random = Array.from({ length: 20_000 }, () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return (seed / 2 ** 31 - 0.5) * 2000;
    });
    const decades = Array.from({ length: 12 * 500 }, (_, index) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return (seed / 2 ** 31 - 0.5) * 10 ** Math.floor(index / 500);
    });
    const large = [...decades, 1e11 + 0.125, -987654321098.765, 1e12, 123456789012345.67, 1e21, -1e21, 1.5e300];
    const notFinite = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
    for (const value of [...edges, ...random, ...large, ...notFinite]) {
      const out = new AsciiBuffer();
      out.decimal(value);
      expect(out.string(0, out.length), String(value)).toBe(decimalText(value));
    }
  });
});

describe('AsciiBuffer.textString', () => {
  it("writes pdf-lib's PDFHexString.fromText, byte for byte (the title, ActualText, a link's description)", () => {
    const texts = [
      '',
      'Invoice INV-2026-0042',
      'Ärger – “quoted” €',
      'فاتورة رقم ١٢',
      '請求書 鑫龘',
      'Pay 💶 now 👍🏽',
      'lone \ud800 surrogate',
      'x'.repeat(2000),
      // Past AsciiBuffer.string's 8,192 characters a call.
      'é'.repeat(2100),
    ];
    const out = new AsciiBuffer();
    for (const text of texts) {
      out.reset();
      out.textString(text);
      expect(out.string(0, out.length)).toBe(PDFHexString.fromText(text).toString());
    }
  });
});
