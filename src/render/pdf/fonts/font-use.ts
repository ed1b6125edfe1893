import type { EmbeddableFace } from '../../text/faces.ts';
import type { ShapedGlyph } from '../../text/shaping.ts';
import { closeGlyphSet } from '../../text/truetype.ts';
import type { StableSubset } from './stable-subset.ts';
import type { SubsetCache } from './subset-cache.ts';
import type { ToUnicodeEntry } from './to-unicode.ts';

/**
 * The glyphs one font draws in a document, renumbered for its subset. A glyph shows the text it was first seen
 * with; in a script face, the same glyph showing other text (a letter alone and inside a conjunct) is embedded
 * once more under its own number, so that each occurrence copies as what it shows.
 */
export class FontUse {
  readonly face: EmbeddableFace;
  /** The glyphs every subset of a Latin face starts with; none for a script face. */
  readonly stable: StableSubset | undefined;
  /** The PDF resource name of the font on every page. */
  resource: string;
  /** Glyph → the text it shows; a Latin glyph shows its one character. Not the stable glyphs showing theirs. */
  readonly used = new Map<number, string>();
  /**
   * `gid text` → the number of a copy of the glyph that shows that text: in a script face, and for a Latin
   * glyph that was given a text of its own (a bracket mirrored in right-to-left text), which Latin-only
   * documents never have, so their bytes stay.
   */
  private readonly copies = new Map<string, number>();
  private readonly copyOrder: [number, string][] = [];
  private readonly distinctText: boolean;
  /** Glyphs seen with a text of their own. */
  private readonly textual = new Set<number>();
  glyphs: readonly number[] = [];
  /**
   * The subset's glyph id of each glyph of the face, written by seal for the subset's glyphs: the face's array
   * (FontEmbedding.idsOf), one for every document, as documents are written one at a time.
   */
  private readonly newIds: Uint16Array;
  /** The key() of the sealed subset. */
  subsetKey = '';

  constructor(face: EmbeddableFace, resource: string, distinctText: boolean, newIds: Uint16Array, stable?: StableSubset) {
    this.face = face;
    this.stable = stable;
    this.resource = resource;
    this.distinctText = distinctText;
    this.newIds = newIds;
  }

  private distinct(glyph: ShapedGlyph): boolean {
    return this.distinctText || glyph.text !== undefined || this.textual.has(glyph.gid);
  }

  /** Notes a run's glyphs, and the characters the font cannot draw (shaped as glyph 0). */
  collect(glyphs: readonly ShapedGlyph[], missing: Set<number>): void {
    for (let index = 0; index < glyphs.length; index++) {
      const glyph = glyphs[index]!;
      if (glyph.gid === 0) {
        missing.add(glyph.codePoint);
        continue;
      }
      if (glyph.text !== undefined) this.textual.add(glyph.gid);
      const shown = this.shownBy(glyph.gid);
      if (shown === undefined) {
        this.used.set(glyph.gid, textOf(glyph));
        continue;
      }
      if (showsText(glyph, shown) || !this.distinct(glyph)) continue;
      const text = textOf(glyph);
      const key = copyKey(glyph.gid, text);
      if (!this.copies.has(key)) {
        this.copies.set(key, -1);
        this.copyOrder.push([glyph.gid, text]);
      }
    }
  }

  /** The text a glyph id shows in the subset: as first seen in the document, else as a stable glyph. */
  private shownBy(gid: number): string | undefined {
    return this.used.get(gid) ?? this.stable?.texts.get(gid);
  }

  /**
   * Numbers the glyphs: the stable subset's first, then the others and their components in font order, then the
   * copies. The numbering is a function of the key, as the subset is: a cached subset's is taken as it is.
   */
  seal(subsets: SubsetCache): void {
    this.subsetKey = this.key();
    this.glyphs = subsets.glyphsOf(this.subsetKey) ?? this.numbered();
    const copiesFrom = this.glyphs.length - this.copyOrder.length;
    for (let index = 0; index < copiesFrom; index++) this.newIds[this.glyphs[index]!] = index;
    this.copyOrder.forEach(([gid, text], index) => {
      this.copies.set(copyKey(gid, text), copiesFrom + index);
    });
  }

  private numbered(): number[] {
    const { stable } = this;
    const own = closeGlyphSet(this.face.file, this.used.keys());
    const glyphs = stable ? [...stable.glyphs] : [];
    for (let index = 0; index < own.length; index++) if (!stable?.members.has(own[index]!)) glyphs.push(own[index]!);
    for (const [gid] of this.copyOrder) glyphs.push(gid);
    return glyphs;
  }

  /** The subset's number of a glyph as it shows its text. */
  idOf(glyph: ShapedGlyph): number {
    if (!this.distinct(glyph) || showsText(glyph, this.shownBy(glyph.gid)!)) return this.newIds[glyph.gid]!;
    return this.copies.get(copyKey(glyph.gid, textOf(glyph)))!;
  }

  /**
   * ToUnicode entries: each subset glyph and the text it shows. A glyph that shows nothing (a part of a cluster
   * whose text other glyphs carry) maps to WORD JOINER, an invisible format character: pdf.js skips glyphs
   * that map to format characters, where a glyph without an entry would copy as a control character; poppler
   * reads the cluster's /ActualText instead. The stable subset's glyphs showing their characters are not here:
   * their entries are the stable subset's.
   */
  toUnicode(): ToUnicodeEntry[] {
    const entries: ToUnicodeEntry[] = [];
    this.used.forEach((text, gid) => {
      entries.push([this.newIds[gid]!, text]);
    });
    for (const [gid, text] of this.copyOrder) entries.push([this.copies.get(copyKey(gid, text))!, text]);
    return entries.sort((a, b) => a[0] - b[0]);
  }

  /** What identifies the subset: the font and every glyph with the text it shows. */
  key(): string {
    // Without a list of the entries (taken for every font of every document), but joined: a string appended piece
    // by piece is kept as its pieces, and a cached subset's key kept them all alive, to be promoted.
    const glyphs: string[] = [];
    this.used.forEach((text, gid) => {
      glyphs.push(`${gid}.${text}`);
    });
    for (const [gid, text] of this.copyOrder) glyphs.push(`${gid}.${text}`);
    return `${this.face.postscriptName}:${glyphs.join(',')}`;
  }

  /** A deterministic subset tag: six capitals from a hash of the glyph set (PDF 32000 9.6.4). */
  tag(): string {
    let hash = 2166136261;
    for (const gid of this.glyphs) hash = Math.imul(hash ^ gid, 16777619) >>> 0;
    let tag = '';
    for (let i = 0; i < 6; i++) {
      tag += String.fromCharCode(65 + (hash % 26));
      hash = Math.floor(hash / 26) + i * 7;
    }
    return tag;
  }
}

/** What a glyph shows: a script face's glyph its text, a Latin glyph its character. */
const textOf = (glyph: ShapedGlyph): string => glyph.text ?? String.fromCodePoint(glyph.codePoint);

/**
 * Whether a glyph shows `shown`: a Latin glyph's character compared as a code point, no string made for every glyph
 * of the document.
 */
function showsText(glyph: ShapedGlyph, shown: string): boolean {
  if (glyph.text !== undefined) return glyph.text === shown;
  return shown.length === (glyph.codePoint > 0xffff ? 2 : 1) && shown.codePointAt(0) === glyph.codePoint;
}

/** The key of a glyph's copy that shows `text` (FontUse.copies). */
const copyKey = (gid: number, text: string): string => `${gid} ${text}`;
