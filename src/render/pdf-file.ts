import { type PDFContext, type PDFObject, type PDFRef, PDFStream } from 'pdf-lib';
import { concatBytes } from '../bytes.ts';
import { deflate } from './deflate.ts';

/** An object written as its PDF syntax by the caller (the structure elements), by its number: ASCII only. */
export type WrittenObject = readonly [objectNumber: number, syntax: string];

/**
 * The object stream's compression level. It holds the structure tree, one element per table cell, rebuilt for
 * every document: pako's level 5 makes it as small as the default level 6 does, and faster; the fast levels (1-3)
 * make the 50-line reference invoice 3% larger. Its state is kept between calls (deflate.ts), so zlib's default
 * window and hash table cost no set-up per document, and compress the 50-line invoice's stream faster and smaller
 * than a 4 KB window did with pako's own per-call state.
 */
const OBJECT_STREAM_LEVEL = 5;
/**
 * A cross-reference stream entry: 1 byte of type, 4 of offset (or of the object stream's number), 2 of generation
 * (or of the index in the object stream).
 */
const XREF_WIDTHS = '[1 4 2]';
const ROW = 7;

/**
 * The cross-reference entries as PNG Up-predicted rows (PDF 32000 7.4.4.4): each byte less the one above it. The
 * entries of objects in the object stream differ only in their index, by one from row to row, so the rows
 * compress to almost nothing (a third of the size without the predictor).
 */
function xrefRows(entries: readonly (readonly [number, number, number])[]): Uint8Array {
  const rows = new Uint8Array(entries.length * (ROW + 1));
  const previous = new Uint8Array(ROW);
  const row = new Uint8Array(ROW);
  entries.forEach(([type, second, third], number) => {
    row[0] = type;
    for (let byte = 0; byte < 4; byte++) row[1 + byte] = (second >>> (8 * (3 - byte))) & 0xff;
    row[5] = third >> 8;
    row[6] = third & 0xff;
    const at = number * (ROW + 1);
    rows[at] = 2;
    for (let byte = 0; byte < ROW; byte++) rows[at + 1 + byte] = (row[byte]! - previous[byte]!) & 0xff;
    previous.set(row);
  });
  return rows;
}

const encoder = new TextEncoder();
/** Object syntax is ASCII (every string in it is hex-encoded), so its UTF-8 bytes are its characters. */
const ascii = (text: string) => encoder.encode(text);
/** The header, with the comment of bytes above 127 that marks the file as binary (PDF 32000 7.5.2). */
const HEADER = Uint8Array.of(...encoder.encode('%PDF-1.7\n%'), 0xe2, 0xe3, 0xcf, 0xd3, 0x0a, 0x0a);

/**
 * Serializes the document (PDF 32000 7.5.7, 7.5.8): streams as indirect objects, every other object, pdf-lib's
 * and the caller's `written` ones, in one compressed object stream, and a compressed cross-reference stream.
 * pdf-lib's own writers cannot take objects written as text, and build and compress a dictionary object per
 * structure element, which costs more than the rest of the document; this writes the same objects in order.
 */
export function serializePdf(context: PDFContext, written: readonly WrittenObject[]): Uint8Array<ArrayBuffer> {
  const streams: [PDFRef, PDFStream][] = [];
  const packed: WrittenObject[] = [];
  for (const [ref, object] of context.enumerateIndirectObjects() as [PDFRef, PDFObject][]) {
    if (object instanceof PDFStream) streams.push([ref, object]);
    else packed.push([ref.objectNumber, object.toString()]);
  }
  packed.push(...written);
  packed.sort((a, b) => a[0] - b[0]);

  let offsets = '';
  let body = '';
  for (const [number, syntax] of packed) {
    offsets += `${number} ${body.length} `;
    body += `${syntax}\n`;
  }
  const objectStream = context.nextRef().objectNumber;
  const xrefStream = context.nextRef().objectNumber;
  const size = xrefStream + 1;

  const parts: Uint8Array[] = [];
  let length = 0;
  const push = (bytes: Uint8Array) => {
    parts.push(bytes);
    length += bytes.length;
  };
  /** Per object number: [type, field 2, field 3] of its cross-reference entry; free (0 0 0) unless written. */
  const entries: [number, number, number][] = Array.from({ length: size }, () => [0, 0, 0]);
  entries[0] = [0, 0, 65535];
  const pushObject = (number: number, dictionary: string, data: Uint8Array) => {
    entries[number] = [1, length, 0];
    push(ascii(`${number} 0 obj\n${dictionary}\nstream\n`));
    push(data);
    push(ascii('\nendstream\nendobj\n'));
  };

  push(HEADER);
  for (const [ref, stream] of streams) {
    entries[ref.objectNumber] = [1, length, 0];
    const bytes = new Uint8Array(stream.sizeInBytes());
    stream.copyBytesInto(bytes, 0);
    push(ascii(`${ref.objectNumber} 0 obj\n`));
    push(bytes);
    push(ascii('\nendobj\n'));
  }
  packed.forEach(([number], index) => {
    entries[number] = [2, objectStream, index];
  });
  const contents = deflate(ascii(offsets + body), OBJECT_STREAM_LEVEL);
  pushObject(
    objectStream,
    `<</Type /ObjStm /N ${packed.length} /First ${offsets.length} /Filter /FlateDecode /Length ${contents.length}>>`,
    contents,
  );

  const xrefOffset = length;
  entries[xrefStream] = [1, xrefOffset, 0];
  const xref = deflate(xrefRows(entries));
  const { Root, Info } = context.trailerInfo;
  const trailer = `/Root ${Root!.toString()}${Info ? ` /Info ${Info.toString()}` : ''}`;
  pushObject(
    xrefStream,
    `<</Type /XRef /Size ${size} /W ${XREF_WIDTHS} ${trailer} /Filter /FlateDecode /DecodeParms <</Predictor 12 /Columns ${ROW}>> /Length ${xref.length}>>`,
    xref,
  );
  push(ascii(`startxref\n${xrefOffset}\n%%EOF\n`));

  return concatBytes(parts);
}
