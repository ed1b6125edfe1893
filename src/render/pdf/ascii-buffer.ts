export const [LINE_FEED, SPACE, LESS, GREATER] = [0x0a, 0x20, 0x3c, 0x3e];
const DIGIT_ZERO = 0x30;
const [MINUS, POINT] = [0x2d, 0x2e];
/** Below this, a number's hundredths and decimalText's shortest form agree (checked up to it in the tests). */
const DECIMAL_DIGITS_EXACT = 1e12;
/** The hex digits' character codes: every string the writer puts in a PDF is written with them. */
export const HEX_DIGITS = Uint8Array.from('0123456789ABCDEF', (char) => char.charCodeAt(0));
/** Most character codes String.fromCharCode is given at once (the engines' argument limits are far above). */
const CHARS_PER_CALL = 8192;
/** Longest piece `append` copies byte by byte. */
const SHORT_COPY = 256;

/** Numbers in content streams: rounded to 2 decimals, shortest form; the same text in every runtime. */
export function decimalText(value: number): string {
  const rounded = Math.round(value * 100) / 100;
  return rounded === 0 ? '0' : String(rounded);
}

/**
 * PDF syntax (ASCII: every string the writer puts in a PDF is hex) written as bytes into a growing buffer: built
 * as strings, a glyph run's operators (GlyphRuns.show) left a string or more per glyph for the collector, and a
 * page's content or the object stream was joined and encoded once more.
 */
export class AsciiBuffer {
  private codes = new Uint8Array(1024);
  length = 0;

  reset(): void {
    this.length = 0;
  }

  private room(count: number): void {
    if (this.length + count <= this.codes.length) return;
    const larger = new Uint8Array(Math.max(this.codes.length * 2, this.length + count));
    larger.set(this.codes.subarray(0, this.length));
    this.codes = larger;
  }

  char(code: number): void {
    this.room(1);
    this.codes[this.length++] = code;
  }

  text(text: string): void {
    this.room(text.length);
    for (let i = 0; i < text.length; i++) this.codes[this.length++] = text.charCodeAt(i);
  }

  /** A 16-bit value as four capital hex digits. */
  hex4(value: number): void {
    this.room(4);
    const { codes } = this;
    codes[this.length] = HEX_DIGITS[(value >> 12) & 0xf]!;
    codes[this.length + 1] = HEX_DIGITS[(value >> 8) & 0xf]!;
    codes[this.length + 2] = HEX_DIGITS[(value >> 4) & 0xf]!;
    codes[this.length + 3] = HEX_DIGITS[value & 0xf]!;
    this.length += 4;
  }

  /** A non-negative integer in decimal, as String writes it, without making the string. */
  integer(value: number): void {
    let digits = 1;
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    this.room(digits);
    let rest = value;
    for (let at = this.length + digits - 1; at >= this.length; at--) {
      this.codes[at] = DIGIT_ZERO + (rest % 10);
      rest = Math.floor(rest / 10);
    }
    this.length += digits;
  }

  /**
   * decimalText(value), without making the string: hundredths as an integer, the fraction's trailing zero and an
   * integer's point left out. A page writes two per text drawn.
   */
  decimal(value: number): void {
    // Hundredths are exact integers below 2^53; beyond, and for NaN and the infinities, the string is written.
    if (!(Math.abs(value) < DECIMAL_DIGITS_EXACT)) {
      this.text(decimalText(value));
      return;
    }
    const hundredths = Math.round(value * 100);
    if (hundredths < 0) this.char(MINUS);
    const magnitude = Math.abs(hundredths);
    this.integer(Math.floor(magnitude / 100));
    const fraction = magnitude % 100;
    if (fraction === 0) return;
    this.char(POINT);
    this.char(DIGIT_ZERO + Math.floor(fraction / 10));
    if (fraction % 10) this.char(DIGIT_ZERO + (fraction % 10));
  }

  /**
   * A text string as PDF 32000 7.9.2.2 has one beyond ASCII: UTF-16BE with its byte order mark, hex-encoded
   * (`<FEFF…>`), each UTF-16 unit as four capital hex digits, as pdf-lib's PDFHexString.fromText writes it; without
   * its arrays and strings per character.
   */
  textString(text: string): void {
    this.text('<FEFF');
    this.utf16Hex(text);
    this.char(GREATER);
  }

  /** The UTF-16 units of a text, each as four capital hex digits. */
  utf16Hex(text: string): void {
    for (let i = 0; i < text.length; i++) this.hex4(text.charCodeAt(i));
  }

  /** A line of its own: after a line break unless it is the first. */
  line(text: string): void {
    if (this.length) this.char(LINE_FEED);
    this.text(text);
  }

  /** Copies `from`…`to` of another buffer. */
  append(other: AsciiBuffer, from: number, to: number): void {
    this.room(to - from);
    // Most pieces are a few dozen bytes, which are copied faster one by one than through a subarray.
    if (to - from > SHORT_COPY) {
      this.codes.set(other.codes.subarray(from, to), this.length);
      this.length += to - from;
      return;
    }
    const { codes } = this;
    const source = other.codes;
    for (let at = from; at < to; at++) codes[this.length++] = source[at]!;
  }

  /** What `from`…`to` holds, as a string. */
  string(from: number, to: number): string {
    let text = '';
    for (let at = from; at < to; at += CHARS_PER_CALL) {
      const part = this.codes.subarray(at, Math.min(to, at + CHARS_PER_CALL));
      text += String.fromCharCode.apply(null, part as unknown as number[]);
    }
    return text;
  }

  /** What it holds, as a view that the next write may change. */
  view(): Uint8Array {
    return this.codes.subarray(0, this.length);
  }

  /** A copy of what it holds. */
  bytes(): Uint8Array<ArrayBuffer> {
    return this.codes.slice(0, this.length);
  }
}
