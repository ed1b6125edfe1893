import type { TrueTypeFile } from './truetype.ts';

/**
 * The glyph positioning the bundled fonts keep (fonts/README.md): pair kerning (`kern`, lookup type 2) and mark
 * attachment to a base (`mark`, type 4) and to another mark (`mkmk`, type 6). It is read once per process straight
 * from the font's GPOS and GDEF tables into flat arrays, rather than through fontkit's parse of the same tables,
 * which would weigh on every process start, and so that lookups per glyph allocate nothing.
 *
 * Not applied: the chained contextual lookups of `kern` (type 8), which in Noto Sans only nudge a few marks
 * after particular letters, and mark filtering sets. A lookup of another kind, or a value format other than
 * an x advance for kerning, stops the fonts from loading rather than being ignored silently.
 */
interface GlyphPositioning {
  /** Kerning between two glyphs, in font units (added to the first glyph's advance). */
  kern(left: number, right: number): number;
  /** Whether GDEF classes the glyph as a combining mark (zero advance, attached to what precedes it). */
  isMark(gid: number): boolean;
  /** Where a mark goes relative to the origin of its base: the base anchor less the mark anchor. */
  markToBase(mark: number, base: number): Vector | undefined;
  /** Where a mark goes relative to the origin of the mark it stacks on. */
  markToMark(mark: number, under: number): Vector | undefined;
}

interface Vector {
  x: number;
  y: number;
}

const PAIR_ADJUSTMENT = 2;
const MARK_TO_BASE = 4;
const MARK_TO_MARK = 6;
const CHAINED_CONTEXT_POSITIONING = 8;
const EXTENSION = 9;
const X_ADVANCE = 0x0004;
const MARK_GLYPH_CLASS = 3;

type PairTable =
  | { format: 1; covered: Uint8Array; pairs: Map<number, number> }
  | {
      format: 2;
      covered: Uint8Array;
      class1: Uint16Array;
      class2: Uint16Array;
      class1Count: number;
      class2Count: number;
      values: Int16Array;
    };

/** A mark attachment subtable: coverage indexes of marks and of what they attach to, and the anchors. */
interface AttachmentTable {
  markIndex: Int32Array;
  targetIndex: Int32Array;
  markClass: Uint16Array;
  /** Anchor of each mark (x, y pairs by mark coverage index). */
  markAnchor: Int16Array;
  /** Anchor of each target for each mark class (x, y pairs), and whether it exists (a target may have none). */
  targetAnchor: Int16Array;
  targetHasAnchor: Uint8Array;
  classCount: number;
}

/** Bytes of a value record of this format: two for each field present. */
function valueRecordSize(format: number): number {
  let size = 0;
  for (let bit = format; bit; bit >>= 1) size += (bit & 1) * 2;
  return size;
}

/** The glyph of each coverage index (OpenType Coverage table, formats 1 and 2). */
function coverageGlyphs(view: DataView, at: number): number[] {
  const glyphs: number[] = [];
  const count = view.getUint16(at + 2);
  if (view.getUint16(at) === 1) {
    for (let i = 0; i < count; i++) glyphs.push(view.getUint16(at + 4 + i * 2));
  } else {
    for (let i = 0; i < count; i++) {
      const record = at + 4 + i * 6;
      const [first, last, index] = [view.getUint16(record), view.getUint16(record + 2), view.getUint16(record + 4)];
      for (let gid = first; gid <= last; gid++) glyphs[index + gid - first] = gid;
    }
  }
  return glyphs;
}

/** Coverage index of every glyph, -1 for a glyph not covered. */
function coverageIndex(view: DataView, at: number, numGlyphs: number): Int32Array {
  const index = new Int32Array(numGlyphs).fill(-1);
  coverageGlyphs(view, at).forEach((gid, i) => {
    index[gid] = i;
  });
  return index;
}

/** The class of every glyph (OpenType ClassDef table, formats 1 and 2; 0 for a glyph not listed). */
function classTable(view: DataView, at: number, numGlyphs: number): Uint16Array {
  const classes = new Uint16Array(numGlyphs);
  if (view.getUint16(at) === 1) {
    const start = view.getUint16(at + 2);
    const count = view.getUint16(at + 4);
    for (let i = 0; i < count; i++) classes[start + i] = view.getUint16(at + 6 + i * 2);
  } else {
    const count = view.getUint16(at + 2);
    for (let i = 0; i < count; i++) {
      const record = at + 4 + i * 6;
      classes.fill(view.getUint16(record + 4), view.getUint16(record), view.getUint16(record + 2) + 1);
    }
  }
  return classes;
}

function readPairTable(view: DataView, at: number, numGlyphs: number): PairTable {
  const valueFormat1 = view.getUint16(at + 4);
  const valueFormat2 = view.getUint16(at + 6);
  if ((valueFormat1 | valueFormat2) & ~X_ADVANCE)
    throw new Error(`kerning value formats ${valueFormat1}/${valueFormat2}: only an x advance is applied`);
  const recordSize = valueRecordSize(valueFormat1) + valueRecordSize(valueFormat2);
  const hasAdvance = (valueFormat1 & X_ADVANCE) !== 0;
  const first = coverageGlyphs(view, at + view.getUint16(at + 2));
  const covered = new Uint8Array(numGlyphs);
  for (const gid of first) covered[gid] = 1;
  if (view.getUint16(at) === 1) {
    const pairs = new Map<number, number>();
    for (let i = 0; i < view.getUint16(at + 8); i++) {
      const set = at + view.getUint16(at + 10 + i * 2);
      for (let j = 0; j < view.getUint16(set); j++) {
        const record = set + 2 + j * (2 + recordSize);
        pairs.set(first[i]! * numGlyphs + view.getUint16(record), hasAdvance ? view.getInt16(record + 2) : 0);
      }
    }
    return { format: 1, covered, pairs };
  }
  const class1Count = view.getUint16(at + 12);
  const class2Count = view.getUint16(at + 14);
  const values = new Int16Array(class1Count * class2Count);
  for (let i = 0; i < values.length; i++) values[i] = hasAdvance ? view.getInt16(at + 16 + i * recordSize) : 0;
  return {
    format: 2,
    covered,
    class1: classTable(view, at + view.getUint16(at + 8), numGlyphs),
    class2: classTable(view, at + view.getUint16(at + 10), numGlyphs),
    class1Count,
    class2Count,
    values,
  };
}

/** MarkBasePos and MarkMarkPos format 1 share one layout: marks, then the glyphs they attach to. */
function readAttachmentTable(view: DataView, at: number, numGlyphs: number): AttachmentTable {
  const classCount = view.getUint16(at + 6);
  const markIndex = coverageIndex(view, at + view.getUint16(at + 2), numGlyphs);
  const targetIndex = coverageIndex(view, at + view.getUint16(at + 4), numGlyphs);
  const markArray = at + view.getUint16(at + 8);
  const targetArray = at + view.getUint16(at + 10);
  const markCount = view.getUint16(markArray);
  const markClass = new Uint16Array(markCount);
  const markAnchor = new Int16Array(markCount * 2);
  for (let i = 0; i < markCount; i++) {
    markClass[i] = view.getUint16(markArray + 2 + i * 4);
    const anchor = markArray + view.getUint16(markArray + 4 + i * 4);
    markAnchor[i * 2] = view.getInt16(anchor + 2);
    markAnchor[i * 2 + 1] = view.getInt16(anchor + 4);
  }
  const targetCount = view.getUint16(targetArray);
  const targetAnchor = new Int16Array(targetCount * classCount * 2);
  const targetHasAnchor = new Uint8Array(targetCount * classCount);
  for (let i = 0; i < targetCount * classCount; i++) {
    const offset = view.getUint16(targetArray + 2 + i * 2);
    if (offset === 0) continue;
    targetHasAnchor[i] = 1;
    targetAnchor[i * 2] = view.getInt16(targetArray + offset + 2);
    targetAnchor[i * 2 + 1] = view.getInt16(targetArray + offset + 4);
  }
  return { markIndex, targetIndex, markClass, markAnchor, targetAnchor, targetHasAnchor, classCount };
}

function attach(tables: readonly AttachmentTable[], mark: number, target: number): Vector | undefined {
  for (const table of tables) {
    const m = table.markIndex[mark]!;
    const t = table.targetIndex[target]!;
    if (m < 0 || t < 0) continue;
    const slot = t * table.classCount + table.markClass[m]!;
    if (!table.targetHasAnchor[slot]) continue;
    return {
      x: table.targetAnchor[slot * 2]! - table.markAnchor[m * 2]!,
      y: table.targetAnchor[slot * 2 + 1]! - table.markAnchor[m * 2 + 1]!,
    };
  }
  return undefined;
}

/** The subtables of each lookup a feature uses, by lookup type, in lookup order (extensions unwrapped). */
function featureSubtables(view: DataView, gpos: number, feature: string): { type: number; at: number }[] {
  const featureList = gpos + view.getUint16(gpos + 6);
  const lookupList = gpos + view.getUint16(gpos + 8);
  const indexes = new Set<number>();
  for (let i = 0; i < view.getUint16(featureList); i++) {
    const record = featureList + 2 + i * 6;
    const tag = String.fromCharCode(view.getUint8(record), view.getUint8(record + 1), view.getUint8(record + 2), view.getUint8(record + 3));
    if (tag !== feature) continue;
    const table = featureList + view.getUint16(record + 4);
    for (let j = 0; j < view.getUint16(table + 2); j++) indexes.add(view.getUint16(table + 4 + j * 2));
  }
  const subtables: { type: number; at: number }[] = [];
  for (const index of [...indexes].sort((a, b) => a - b)) {
    const lookup = lookupList + view.getUint16(lookupList + 2 + index * 2);
    const type = view.getUint16(lookup);
    for (let j = 0; j < view.getUint16(lookup + 4); j++) {
      const at = lookup + view.getUint16(lookup + 6 + j * 2);
      subtables.push(type === EXTENSION ? { type: view.getUint16(at + 2), at: at + view.getUint32(at + 4) } : { type, at });
    }
  }
  return subtables;
}

function expect(feature: string, subtables: { type: number }[], allowed: number[]): void {
  for (const { type } of subtables) {
    if (!allowed.includes(type)) throw new Error(`GPOS ${feature} has a lookup of type ${type}, which the shaper does not apply`);
  }
}

export function readGlyphPositioning(file: TrueTypeFile): GlyphPositioning {
  const { view, numGlyphs } = file;
  const gdef = file.tables.get('GDEF');
  const glyphClasses =
    gdef && view.getUint16(gdef.offset + 4)
      ? classTable(view, gdef.offset + view.getUint16(gdef.offset + 4), numGlyphs)
      : new Uint16Array(numGlyphs);
  const gpos = file.tables.get('GPOS');
  const subtables = (feature: string) => (gpos ? featureSubtables(view, gpos.offset, feature) : []);

  const kernSubtables = subtables('kern');
  const markSubtables = subtables('mark');
  const mkmkSubtables = subtables('mkmk');
  expect('kern', kernSubtables, [PAIR_ADJUSTMENT, CHAINED_CONTEXT_POSITIONING]);
  expect('mark', markSubtables, [MARK_TO_BASE]);
  expect('mkmk', mkmkSubtables, [MARK_TO_MARK]);
  const pairs = kernSubtables.filter((sub) => sub.type === PAIR_ADJUSTMENT).map((sub) => readPairTable(view, sub.at, numGlyphs));
  const toBase = markSubtables.map((sub) => readAttachmentTable(view, sub.at, numGlyphs));
  const toMark = mkmkSubtables.map((sub) => readAttachmentTable(view, sub.at, numGlyphs));

  return {
    kern(left, right) {
      for (const table of pairs) {
        if (!table.covered[left]) continue;
        if (table.format === 1) {
          const value = table.pairs.get(left * numGlyphs + right);
          if (value !== undefined) return value;
        } else {
          const c1 = table.class1[left]!;
          const c2 = table.class2[right]!;
          if (c1 < table.class1Count && c2 < table.class2Count) return table.values[c1 * table.class2Count + c2]!;
        }
      }
      return 0;
    },
    isMark: (gid) => glyphClasses[gid] === MARK_GLYPH_CLASS,
    markToBase: (mark, base) => attach(toBase, mark, base),
    markToMark: (mark, under) => attach(toMark, mark, under),
  };
}
