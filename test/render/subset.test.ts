import fontkit from '@pdf-lib/fontkit';
import { describe, expect, it } from 'vitest';
import { concatBytes } from '../../src/bytes.ts';
import { readFontFiles } from '../../src/render/font-files.ts';
import {
  closeGlyphSet,
  glyphDataLength,
  knownGlyphs,
  readTrueType,
  subsetTrueType,
  tableChecksum,
} from '../../src/render/text/truetype.ts';

const bytes = readFontFiles().regular;
const font = readTrueType(bytes);
const original = fontkit.create(bytes);
const glyphOf = (char: string) => original.glyphForCodePoint(char.codePointAt(0)!).id;
/** OpenType: the checksum of a whole font file, its head's adjustment included, is this. */
const FILE_CHECKSUM = 0xb1b0afba;

/** The glyphs of `text` and their components, each glyph's outline as SVG path data and its advance. */
function outlines(file: Uint8Array, ids: readonly number[]) {
  const parsed = fontkit.create(file);
  return ids.map((id) => ({ path: parsed.getGlyph(id).path.toSVG(), advance: parsed.getGlyph(id).advanceWidth }));
}

describe('TrueType subsets (issue 19)', () => {
  // Latin letters, then accented ones that are composites of them (and of marks the subset adds).
  const stable = closeGlyphSet(font, [...'Invoice 0123'].map(glyphOf));
  const own = closeGlyphSet(font, [...'ĀĂĄčéŁαж'].map(glyphOf)).filter((gid) => !stable.includes(gid));
  const glyphs = [...stable, ...own];

  it('leaves out the known glyph data it starts with and is, with it put back, the whole subset, its checksums right', () => {
    const whole = subsetTrueType(font, glyphs);
    const wholeFile = concatBytes([whole.directory, whole.rest]);
    const { known, glyphData } = knownGlyphs(font, stable);
    expect(glyphData).toEqual(wholeFile.subarray(whole.directory.length, whole.directory.length + glyphDataLength(font, stable)));
    const part = subsetTrueType(font, glyphs, known);
    expect(concatBytes([part.directory, glyphData, part.rest])).toEqual(wholeFile);
    expect(part.length).toBe(wholeFile.length);
    expect(tableChecksum(wholeFile)).toBe(FILE_CHECKSUM);
  });

  it('is the whole subset after known glyphs when its own glyph data takes long offsets', () => {
    const many = [...stable, ...Array.from({ length: font.numGlyphs }, (_, gid) => gid).filter((gid) => !stable.includes(gid))];
    const more = [...many, ...many.slice(1)];
    expect(glyphDataLength(font, more)).toBeGreaterThan(0x1fffe);
    const whole = subsetTrueType(font, more);
    const { known, glyphData } = knownGlyphs(font, stable);
    const part = subsetTrueType(font, more, known);
    expect(concatBytes([part.directory, glyphData, part.rest])).toEqual(concatBytes([whole.directory, whole.rest]));
  });

  it('draws every glyph as the whole font does, composites renumbered, with short offsets while the glyph data allows', () => {
    const { directory, rest } = subsetTrueType(font, glyphs);
    const file = concatBytes([directory, rest]);
    expect(readTrueType(file).view.getInt16(readTrueType(file).tables.get('head')!.offset + 50)).toBe(0);
    expect(
      outlines(
        file,
        glyphs.map((_, index) => index),
      ),
    ).toEqual(outlines(bytes, glyphs));
  });

  it('closes the next glyph set of a font whole after one that could not be read', () => {
    // Glyph 1 is empty; glyph 2 claims components until past the end of its bytes, so reading it throws.
    const bytes = new Uint8Array(64);
    const view = new DataView(bytes.buffer);
    view.setInt16(0, -1);
    for (let at = 10; at + 2 <= bytes.length; at += 6) view.setUint16(at, 0x0020);
    const broken = { ...font, bytes, view, numGlyphs: 3, glyphData: 0, glyphOffsets: Uint32Array.of(0, 0, 0, 64) };
    // Glyph 1 is gathered before glyph 2 throws.
    expect(() => closeGlyphSet(broken, [2, 1])).toThrow(RangeError);
    expect(closeGlyphSet(broken, [1])).toEqual([0, 1]);
  });

  it('takes long offsets for glyph data past what short ones hold (128 KB)', () => {
    const every = Array.from({ length: font.numGlyphs }, (_, gid) => gid);
    const twice = [...every, ...every.slice(1)];
    expect(glyphDataLength(font, twice)).toBeGreaterThan(0x1fffe);
    const { directory, rest } = subsetTrueType(font, twice);
    const file = concatBytes([directory, rest]);
    expect(readTrueType(file).view.getInt16(readTrueType(file).tables.get('head')!.offset + 50)).toBe(1);
    expect(tableChecksum(file)).toBe(FILE_CHECKSUM);
    const last = twice.length - 1;
    expect(outlines(file, [last])).toEqual(outlines(bytes, [twice[last]!]));
  });
});
