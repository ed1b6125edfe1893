import { SCRIPTS, scriptPattern } from '../../contract/scripts.ts';
/**
 * The logical structure of a document (PDF 32000 14.7, 14.8: tagged PDF), built by the layout in reading order
 * while it draws, and written by the PDF writer as the structure tree. Everything drawn is either content of
 * one structure element or an artifact: page furniture (running head, page numbers, footer, the preview
 * watermark and the repeated table header) is a pagination artifact, rules, frames and shading are layout
 * artifacts (pdf/content/page-content.ts marks every rule and rectangle so).
 */

/** The standard structure types the templates use (PDF 32000 14.8.4). */
export type StructureType = 'Document' | 'H1' | 'H2' | 'P' | 'Table' | 'TR' | 'TH' | 'TD' | 'Link' | 'Figure';

/** Drawn for the page, not for the reader: not in the structure tree, skipped by a screen reader. */
export interface Artifact {
  readonly artifact: 'Pagination' | 'Layout';
}

export const PAGINATION: Artifact = { artifact: 'Pagination' };

export class StructureElement {
  readonly type: StructureType;
  /** Of a table header cell: the column or the row it heads. */
  readonly scope: 'Column' | 'Row' | undefined;
  readonly children: StructureElement[] = [];
  /** Of a Figure: its alternative text, what a screen reader says for it. */
  alt: string | undefined;

  constructor(type: StructureType, scope?: 'Column' | 'Row') {
    this.type = type;
    this.scope = scope;
  }

  /** A new last child: the tree's order is the reading order. */
  add(type: StructureType, scope?: 'Column' | 'Row'): StructureElement {
    const child = new StructureElement(type, scope);
    this.children.push(child);
    return child;
  }
}

/** What a drawn text is to a reader. */
export type Mark = StructureElement | Artifact;

export const isArtifact = (mark: Mark): mark is Artifact => 'artifact' in mark;

/**
 * The language of a text in a script other than Latin, as a BCP 47 tag for the /Lang of its structure element,
 * so that a screen reader switches to a voice that can read it. A script is taken for the language most of its
 * readers write in it (Cyrillic as Russian, Arabic as Arabic, Devanagari as Hindi): the request names no
 * language, and a voice for the script's main language reads it far better than an English one. Han letters
 * count as Japanese in a text with kana and as Korean in one with Hangul (the rule typeset.ts draws them by),
 * otherwise as Chinese. The script with the most letters decides; a text with more Latin letters than any other
 * script's keeps the document's language (undefined).
 */
const SCRIPT_LANGUAGES: readonly (readonly [RegExp, string])[] = SCRIPTS.map((script) => [scriptPattern([script]), script.language]);
/** The letters counted, each of one script (the scripts do not overlap): their index is the count's. */
const [LATIN, KANA, HANGUL, HAN] = [0, 1, 2, 3];
const COUNTED: readonly RegExp[] = [
  /\p{Script=Latin}/u,
  /[\p{Script=Hiragana}\p{Script=Katakana}]/u,
  /\p{Script=Hangul}/u,
  /\p{Script=Han}/u,
  ...SCRIPT_LANGUAGES.map(([pattern]) => pattern),
];
const [NOT_COUNTED, NOT_SEEN] = [0xfe, 0xff];
const CODE_POINTS = 0x110000;
/**
 * Per code point, the index in COUNTED of the pattern it matches, worked out by the patterns the first time the
 * code point is met: a text's letters are then counted in one pass, where a global match per script allocated an
 * array of its letters and went over the text twelve times. Made at the first text beyond ASCII (1.1 MB).
 */
let countedOf: Uint8Array | undefined;

function countedIndex(codePoint: number): number {
  countedOf ??= new Uint8Array(CODE_POINTS).fill(NOT_SEEN);
  let index = countedOf[codePoint]!;
  if (index === NOT_SEEN) {
    const char = String.fromCodePoint(codePoint);
    const found = COUNTED.findIndex((pattern) => pattern.test(char));
    index = found < 0 ? NOT_COUNTED : found;
    countedOf[codePoint] = index;
  }
  return index;
}

/** The letters of each of COUNTED in the text languageOfText is counting: one array for every call. */
const COUNTS = new Uint32Array(COUNTED.length);

const NON_ASCII = /[^\p{ASCII}]/u;
export const isAscii = (text: string) => !NON_ASCII.test(text);

export function languageOfText(text: string): string | undefined {
  const counts = COUNTS.fill(0);
  for (let at = 0; at < text.length; at++) {
    const codePoint = text.codePointAt(at)!;
    if (codePoint > 0xffff) at++;
    const index = countedIndex(codePoint);
    if (index !== NOT_COUNTED) counts[index]!++;
  }
  // The most letters win, Latin's before the others' and Chinese, Japanese and Korean's before the other scripts';
  // compared one by one without a list of candidates, since it is called for most elements of a document.
  const kana = counts[KANA]!;
  const hangul = counts[HANGUL]!;
  let best: string | undefined;
  let most = counts[LATIN]!;
  const cjk = kana + hangul + counts[HAN]!;
  if (cjk > most) {
    best = kana > 0 ? 'ja' : hangul > 0 ? 'ko' : 'zh';
    most = cjk;
  }
  for (let index = 0; index < SCRIPT_LANGUAGES.length; index++) {
    const letters = counts[HAN + 1 + index]!;
    if (letters > most) {
      best = SCRIPT_LANGUAGES[index]![1];
      most = letters;
    }
  }
  return best;
}
