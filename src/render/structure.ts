/**
 * The logical structure of a document (PDF 32000 14.7, 14.8: tagged PDF), built by the layout in reading order
 * while it draws, and written by the PDF writer as the structure tree. Everything drawn is either content of
 * one structure element or an artifact: page furniture (running head, page numbers, footer, the preview
 * watermark and the repeated table header) is a pagination artifact, rules, frames and shading are layout
 * artifacts (pdf-writer.ts marks every rule and rectangle so).
 */

/** The standard structure types the templates use (PDF 32000 14.8.4). */
export type StructureType = 'Document' | 'H1' | 'H2' | 'P' | 'Table' | 'TR' | 'TH' | 'TD' | 'Link';

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
const SCRIPT_LANGUAGES: readonly (readonly [RegExp, string])[] = [
  [/\p{Script=Greek}/gu, 'el'],
  [/\p{Script=Cyrillic}/gu, 'ru'],
  [/\p{Script=Arabic}/gu, 'ar'],
  [/\p{Script=Hebrew}/gu, 'he'],
  [/\p{Script=Devanagari}/gu, 'hi'],
  [/\p{Script=Bengali}/gu, 'bn'],
  [/\p{Script=Tamil}/gu, 'ta'],
  [/\p{Script=Thai}/gu, 'th'],
];
const LATIN = /\p{Script=Latin}/gu;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/gu;
const HANGUL = /\p{Script=Hangul}/gu;
const HAN = /\p{Script=Han}/gu;

const NON_ASCII = /[^\p{ASCII}]/u;
export const isAscii = (text: string) => !NON_ASCII.test(text);

export function languageOfText(text: string): string | undefined {
  const count = (pattern: RegExp) => text.match(pattern)?.length ?? 0;
  const [kana, hangul, han] = [count(KANA), count(HANGUL), count(HAN)];
  const hanLanguage = kana > 0 ? 'ja' : hangul > 0 ? 'ko' : 'zh';
  const counts: [string, number][] = [
    [hanLanguage, kana + hangul + han],
    ...SCRIPT_LANGUAGES.map(([pattern, language]): [string, number] => [language, count(pattern)]),
  ];
  let best: string | undefined;
  let most = count(LATIN);
  for (const [language, letters] of counts) if (letters > most) [best, most] = [language, letters];
  return best;
}
