import { type PDFContext, PDFName, PDFNumber, type PDFObject, type PDFRef, PDFStream } from 'pdf-lib';
import { concatBytes } from '../../bytes.ts';
import { AsciiBuffer, LINE_FEED, SPACE } from './ascii-buffer.ts';
import type { Zlib } from './zlib.ts';

/**
 * Objects written as PDF syntax by the caller (the structure tree): numbers `first`, `first + 1`… one after
 * another in `syntax`, object `i` ending at `ends[i]`. ASCII only.
 */
export interface WrittenObjects {
  readonly first: number;
  readonly syntax: AsciiBuffer;
  readonly ends: readonly number[];
}

/**
 * A cross-reference stream entry: 1 byte of type, 4 of offset (or of the object stream's number), 2 of generation
 * (or of the index in the object stream).
 */
const XREF_WIDTHS = '[1 4 2]';
const ROW = 7;

/**
 * Cross-reference entries per object number, as three columns: type (0 free, 1 in the file, 2 in the object
 * stream), offset or object stream, generation or index. Typed arrays, not an array of three per object: two
 * hundred small arrays a document were garbage.
 */
class XrefEntries {
  readonly types: Uint8Array;
  readonly seconds: Uint32Array;
  readonly thirds: Uint16Array;
  constructor(size: number) {
    this.types = new Uint8Array(size);
    this.seconds = new Uint32Array(size);
    this.thirds = new Uint16Array(size);
  }
  set(number: number, type: number, second: number, third: number): void {
    this.types[number] = type;
    this.seconds[number] = second;
    this.thirds[number] = third;
  }
}

/**
 * The cross-reference entries as PNG Up-predicted rows (PDF 32000 7.4.4.4): each byte less the one above it. The
 * entries of objects in the object stream differ only in their index, by one from row to row, so the rows
 * compress to almost nothing (a third of the size without the predictor).
 */
function xrefRows({ types, seconds, thirds }: XrefEntries): Uint8Array {
  const rows = new Uint8Array(types.length * (ROW + 1));
  const previous = new Uint8Array(ROW);
  const row = new Uint8Array(ROW);
  for (let number = 0; number < types.length; number++) {
    const second = seconds[number]!;
    const third = thirds[number]!;
    row[0] = types[number]!;
    for (let byte = 0; byte < 4; byte++) row[1 + byte] = (second >>> (8 * (3 - byte))) & 0xff;
    row[5] = third >> 8;
    row[6] = third & 0xff;
    const at = number * (ROW + 1);
    rows[at] = 2;
    for (let byte = 0; byte < ROW; byte++) rows[at + 1 + byte] = (row[byte]! - previous[byte]!) & 0xff;
    previous.set(row);
  }
  return rows;
}

/**
 * The object stream's offset table (the body appended after it) and body (serializePdf): one of each for every
 * call, as serializing is synchronous, instead of two grown by doubling per document.
 */
const objectStreamOffsets = new AsciiBuffer();
const objectStreamBody = new AsciiBuffer();

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
export function serializePdf(context: PDFContext, written: WrittenObjects, zlib: Zlib): Uint8Array<ArrayBuffer> {
  const streams: [PDFRef, PDFStream][] = [];
  const objects: [number, PDFObject][] = [];
  for (const [ref, object] of context.enumerateIndirectObjects() as [PDFRef, PDFObject][]) {
    if (object instanceof PDFStream) streams.push([ref, object]);
    else objects.push([ref.objectNumber, object]);
  }
  objects.sort((a, b) => a[0] - b[0]);

  // The objects' syntax is written as bytes once, in the order of their numbers (the written block among
  // pdf-lib's), beside the table of their offsets that goes before it.
  const packed: number[] = [];
  const offsets = objectStreamOffsets;
  const body = objectStreamBody;
  offsets.reset();
  body.reset();
  const pack = (number: number) => {
    packed.push(number);
    offsets.integer(number);
    offsets.char(SPACE);
    offsets.integer(body.length);
    offsets.char(SPACE);
  };
  const packWritten = () => {
    written.ends.forEach((end, index) => {
      pack(written.first + index);
      body.append(written.syntax, index === 0 ? 0 : written.ends[index - 1]!, end);
      body.char(LINE_FEED);
    });
  };
  let writtenPacked = false;
  for (const [number, object] of objects) {
    if (!writtenPacked && number > written.first) {
      packWritten();
      writtenPacked = true;
    }
    pack(number);
    body.text(object.toString());
    body.char(LINE_FEED);
  }
  if (!writtenPacked) packWritten();
  const first = offsets.length;
  offsets.append(body, 0, body.length);
  const objectStream = context.nextRef().objectNumber;
  const xrefStream = context.nextRef().objectNumber;
  const size = xrefStream + 1;

  const parts: Uint8Array[] = [];
  let length = 0;
  const push = (bytes: Uint8Array) => {
    parts.push(bytes);
    length += bytes.length;
  };
  /** Per object number, its cross-reference entry; free (0 0 0) unless written. */
  const entries = new XrefEntries(size);
  entries.set(0, 0, 0, 65535);
  const pushObject = (number: number, dictionary: string, data: Uint8Array) => {
    entries.set(number, 1, length, 0);
    push(ascii(`${number} 0 obj\n${dictionary}\nstream\n`));
    push(data);
    push(ascii('\nendstream\nendobj\n'));
  };

  push(HEADER);
  for (const [ref, stream] of streams) {
    // As pdf-lib's PDFStream writes itself (its /Length set first), but the contents pushed as they are: its
    // copyBytesInto copied them one byte at a time, every font file and page of every document.
    const contents = stream.getContents();
    stream.dict.set(PDFName.Length, PDFNumber.of(contents.length));
    pushObject(ref.objectNumber, stream.dict.toString(), contents);
  }
  packed.forEach((number, index) => {
    entries.set(number, 2, objectStream, index);
  });
  const contents = zlib.compress(offsets.view());
  pushObject(
    objectStream,
    `<</Type /ObjStm /N ${packed.length} /First ${first} /Filter /FlateDecode /Length ${contents.length}>>`,
    contents,
  );

  const xrefOffset = length;
  entries.set(xrefStream, 1, xrefOffset, 0);
  const xref = zlib.compress(xrefRows(entries));
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
