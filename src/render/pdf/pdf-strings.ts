import { PDFHexString, PDFObject } from 'pdf-lib';
import { AsciiBuffer } from './ascii-buffer.ts';

const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).toUpperCase().padStart(2, '0'));

/**
 * Every string this writer puts into a PDF object is hex-encoded, never a literal `( … )`: in a hex string no
 * character can close the string or start another object, so `)`, `\`, CR or LF in a caller's link or number
 * stay data (PDF 32000 7.3.4.3).
 */
export function asciiString(text: string): PDFHexString {
  let hex = '';
  for (let i = 0; i < text.length; i++) hex += HEX_BYTES[text.charCodeAt(i) & 0x7f]!;
  return PDFHexString.of(hex);
}

/**
 * A link target is 7-bit ASCII (PDF 32000 12.6.4.7). The url rules only let ASCII through; anything else
 * would be percent-encoded as UTF-8, as an IRI becomes a URI (RFC 3987 3.1).
 */
export function uriString(url: string): PDFHexString {
  const encoder = new TextEncoder();
  return asciiString(url.replace(/[^\p{ASCII}]+/gu, (run) => [...encoder.encode(run)].map((byte) => `%${HEX_BYTES[byte]}`).join('')));
}

/**
 * An object already written as PDF syntax, put among pdf-lib's objects as it is: a font's dictionaries
 * (FontDictionaries), the marks pdf-lib writes into their templates (faceDictionaries), text strings.
 */
export class PdfSyntax extends PDFObject {
  private readonly syntax: string;
  private constructor(syntax: string) {
    super();
    this.syntax = syntax;
  }

  static of(syntax: string): PdfSyntax {
    return new PdfSyntax(syntax);
  }

  override toString(): string {
    return this.syntax;
  }
  override sizeInBytes(): number {
    return this.syntax.length;
  }
  override copyBytesInto(buffer: Uint8Array, offset: number): number {
    for (let i = 0; i < this.syntax.length; i++) buffer[offset + i] = this.syntax.charCodeAt(i);
    return this.syntax.length;
  }
}

/**
 * The text strings of one document (its title, its links' descriptions, the preview marking's ActualText) as
 * AsciiBuffer.textString writes them, through one buffer: pdf-lib's PDFHexString.fromText, same bytes, built a
 * padded string per character, 5% of the largest preview's render (its links at 2,000 characters).
 */
export class TextStrings {
  private readonly syntax = new AsciiBuffer();

  of(text: string): PdfSyntax {
    this.syntax.reset();
    this.syntax.textString(text);
    return PdfSyntax.of(this.syntax.string(0, this.syntax.length));
  }
}
