import { SeenBefore } from '../../seen-before.ts';
import type { FontDictionaries } from './font-dictionaries.ts';

/** What embedding a font subset costs to compute: the same for the same glyphs, so kept for reuse. */
export interface EmbeddedSubset {
  /** The subset's glyphs in order (FontUse.glyphs). */
  readonly glyphs: readonly number[];
  fontFile: Uint8Array;
  fontFileLength: number;
  toUnicode: Uint8Array;
  dictionaries: FontDictionaries;
}

/**
 * Subsets kept: 64 at most, and 16 MiB of compressed font, ToUnicode map and glyph lists at most, since one subset of
 * a long CJK document is megabytes (a Worker isolate has 128 MB in all).
 */
const SUBSET_CACHE_SIZE = 64;
/** Bytes a glyph takes in a subset's list of glyphs (an array element). */
const GLYPH_ENTRY_BYTES = 8;
const SUBSET_CACHE_BYTES = 16 * 1024 * 1024;
/** Glyph sets remembered as subset once (SeenBefore). */
const SUBSETS_SEEN = 1024;

const cachedBytes = ({ fontFile, toUnicode, glyphs, dictionaries }: EmbeddedSubset) =>
  fontFile.length + toUnicode.length + glyphs.length * GLYPH_ENTRY_BYTES + dictionaries.cidFont[1].length;

/**
 * Recent subsets of a font set's faces by their key (FontUse.key): subsetting and compressing a font is a pure
 * function of its glyphs, so recent results are reused (LRU). A subset is kept when its glyph set comes again, as a
 * repeated request's.
 */
export class SubsetCache {
  private readonly subsets = new Map<string, EmbeddedSubset>();
  private readonly seen = new SeenBefore(SUBSETS_SEEN);
  private bytes = 0;

  /** The glyphs in order of the subset kept under `key`, without making it the most recent. */
  glyphsOf(key: string): readonly number[] | undefined {
    return this.subsets.get(key)?.glyphs;
  }

  /** The subset kept under `key`, made the most recent. */
  get(key: string): EmbeddedSubset | undefined {
    const cached = this.subsets.get(key);
    if (cached) {
      this.subsets.delete(key);
      this.subsets.set(key, cached);
    }
    return cached;
  }

  /** Keeps a subset just made if its key came before, evicting the least recent beyond the limits. */
  offer(key: string, subset: EmbeddedSubset): void {
    if (!this.seen.check(key)) return;
    this.subsets.set(key, subset);
    this.bytes += cachedBytes(subset);
    while (this.subsets.size > SUBSET_CACHE_SIZE || (this.bytes > SUBSET_CACHE_BYTES && this.subsets.size > 1)) {
      const [oldest, evicted] = this.subsets.entries().next().value!;
      this.subsets.delete(oldest);
      this.bytes -= cachedBytes(evicted);
    }
  }
}
