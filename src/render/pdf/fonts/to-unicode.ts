import { type AsciiBuffer, GREATER, LESS, LINE_FEED, SPACE } from '../ascii-buffer.ts';

/** A subset glyph id and the text it shows. */
export type ToUnicodeEntry = readonly [id: number, text: string];

/** What a glyph that shows no text of its own maps to: U+2060 WORD JOINER (see FontUse.toUnicode). */
const SHOWS_NOTHING = '\u2060';

export const CMAP_HEAD = new TextEncoder().encode(
  '/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n' +
    '/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n',
);

const CMAP_TAIL_TEXT = 'endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend';

/**
 * ToUnicode entries (sorted by id) as bfchar blocks of at most 100 entries (PDF 32000 9.10.3), each ending in a
 * line break, then the CMap's tail when `withTail`: `<0041> <0041>` per entry, UTF-16BE hex, written as bytes into
 * `out` (a document's entries are written per document, and strings were most of that). The bytes are a view of
 * `out`, which the next call writes over.
 */
export function bfcharBlocks(entries: readonly ToUnicodeEntry[], out: AsciiBuffer, withTail = false): Uint8Array {
  out.reset();
  for (let start = 0; start < entries.length; start += 100) {
    const end = Math.min(entries.length, start + 100);
    out.text(`${end - start} beginbfchar\n`);
    for (let index = start; index < end; index++) {
      const [id, text] = entries[index]!;
      const shown = text === '' ? SHOWS_NOTHING : text;
      out.char(LESS);
      out.hex4(id);
      out.char(GREATER);
      out.char(SPACE);
      out.char(LESS);
      for (let i = 0; i < shown.length; i++) out.hex4(shown.charCodeAt(i));
      out.char(GREATER);
      out.char(LINE_FEED);
    }
    out.text('endbfchar\n');
  }
  if (withTail) out.text(CMAP_TAIL_TEXT);
  return out.view();
}
