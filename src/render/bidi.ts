import bidiFactory from 'bidi-js';

/**
 * The Unicode Bidirectional Algorithm (UAX #9) by bidi-js, pure JavaScript with its own character data, so that
 * every runtime orders text the same (test/render/bidi.test.ts runs Unicode's BidiCharacterTest against it).
 */
const bidi = bidiFactory();

/**
 * The embedding level of each UTF-16 unit of a line: odd is right-to-left. The paragraph's direction comes from
 * its first strong character (rules P2–P3); a line that continues a right-to-left paragraph starts with
 * RIGHT_TO_LEFT_MARK (wrap.ts puts it there), so it keeps its paragraph's direction.
 */
export function embeddingLevels(line: string): Uint8Array {
  return bidi.getEmbeddingLevels(line).levels;
}

/** U+200F RIGHT-TO-LEFT MARK: at the start of a line, it makes the line a right-to-left paragraph (rule P2). */
export const RIGHT_TO_LEFT_MARK = '\u200F';

/** Characters of the right-to-left scripts' blocks, and the marks that are strong right-to-left. */
const RIGHT_TO_LEFT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\u200f\u061c]|[\ud802\ud803\ud83a\ud83b]/;

/** Whether a paragraph is right-to-left: its first strong character is (rules P2–P3). */
export function isRightToLeft(paragraph: string): boolean {
  return RIGHT_TO_LEFT.test(paragraph) && bidi.getEmbeddingLevels(paragraph).paragraphs[0]?.level === 1;
}

/** The mirrored form of a character drawn right-to-left, such as `)` for `(` (rule L4), or the character itself. */
export function mirrored(char: string): string {
  return bidi.getMirroredCharacter(char) ?? char;
}
