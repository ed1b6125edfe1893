/** Text that NFC leaves as it is and that has no TAB: most values, kept as they are without the work. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * The characters NFC makes that the bundled fonts lack while they draw their decomposed form: `=`, `<` and `>`
 * with U+0338 (≠, ≮, ≯). They stay decomposed, so that NFC never refuses text the fonts can draw
 * (test/render/typography.test.ts checks this list against the fonts).
 */
const KEPT_DECOMPOSED = /[\u2260\u226e\u226f]/g;

/**
 * Text as the layout takes it from a request. NFC first, so that text pasted in decomposed form (as macOS
 * writes it) is drawn with the fonts' precomposed letters rather than a base and a separately placed accent;
 * a TAB, which the fonts have no glyph for, is a space.
 */
export function layoutText(text: string): string {
  if (PRINTABLE_ASCII.test(text)) return text;
  return text
    .normalize('NFC')
    .replace(KEPT_DECOMPOSED, (char) => char.normalize('NFD'))
    .replace(/\t/g, ' ');
}

/** The request's values with every string prepared by `layoutText`, inside line items too. */
export function layoutValues<T>(value: T): T {
  if (typeof value === 'string') return layoutText(value) as T;
  if (Array.isArray(value)) return value.map(layoutValues) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, layoutValues(member)])) as T;
  }
  return value;
}

/** U+00AD: where a word may break; drawn as a hyphen only there. */
export const SOFT_HYPHEN = '\u00AD';

/**
 * Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties 16.0), written out so that every runtime draws
 * the same: these format characters have no appearance of their own and are never drawn. A soft hyphen shows
 * as a hyphen only where the line breaks at it (wrap.ts).
 */
export const DEFAULT_IGNORABLE: readonly (readonly [number, number])[] = [
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff0, 0xfff8],
  [0x1bca0, 0x1bca3],
  [0x1d173, 0x1d17a],
  [0xe0000, 0xe0fff],
];

export function isDefaultIgnorable(codePoint: number): boolean {
  // A loop: `some` with an arrow made a closure for every character asked about.
  for (let index = 0; index < DEFAULT_IGNORABLE.length; index++) {
    const [first, last] = DEFAULT_IGNORABLE[index]!;
    if (codePoint >= first && codePoint <= last) return true;
  }
  return false;
}

/**
 * General_Category Mark (Mn, Mc, Me). The property is stable for every character the bundled fonts draw (Latin,
 * Greek and Cyrillic accents, Arabic harakat, Hebrew points, Indic vowel signs and viramas, Thai vowels and tone
 * marks) and has been since long before any runtime this service runs on, so Bun, Node and workerd agree; only
 * characters assigned after them could differ, and no font here draws those.
 */
const MARK = /^\p{M}$/u;

/** Combining marks: they belong to the letter before them and never start a line. */
export function isCombiningMark(codePoint: number): boolean {
  return codePoint >= 0x0300 && MARK.test(String.fromCodePoint(codePoint));
}
