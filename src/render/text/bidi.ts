import bidiFactory from 'bidi-js';

/**
 * The Unicode Bidirectional Algorithm (UAX #9) by bidi-js, pure JavaScript with its own character data, so that
 * every runtime orders text the same (test/render/bidi.test.ts runs Unicode's BidiCharacterTest against it).
 */
const bidi = bidiFactory();

/**
 * The embedding level of each UTF-16 unit of a line: odd is right-to-left. The paragraph's direction comes from
 * its first strong character (rules P2–P3); a line that continues a paragraph with right-to-left text starts
 * with the mark of its paragraph's direction (wrap.ts puts it there, `directionMarkOf`).
 */
export function embeddingLevels(line: string): Uint8Array {
  return bidi.getEmbeddingLevels(line).levels;
}

/** At the start of a line, RIGHT-TO-LEFT MARK makes it a right-to-left paragraph, LEFT-TO-RIGHT MARK a left-to-right one (rule P2). */
const RIGHT_TO_LEFT_MARK = '\u200F';
const LEFT_TO_RIGHT_MARK = '\u200E';

/** Characters of the right-to-left scripts' blocks, and the marks that are strong right-to-left. */
const RIGHT_TO_LEFT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\u200f\u061c]|[\ud802\ud803\ud83a\ud83b]/;

/**
 * The mark that keeps a paragraph's direction on each of its wrapped lines, or '' when it needs none: a line is
 * set as a paragraph of its own (rules P2–P3 on its first strong character), which for a line of a paragraph
 * with right-to-left text may not be the paragraph's direction.
 */
export function directionMarkOf(paragraph: string): string {
  if (!RIGHT_TO_LEFT.test(paragraph)) return '';
  return firstParagraphLevel(paragraph) === 1 ? RIGHT_TO_LEFT_MARK : LEFT_TO_RIGHT_MARK;
}

const ISOLATE_INITIATORS = new Set(['LRI', 'RLI', 'FSI']);

/**
 * The level of the text's first paragraph by rules P2–P3, as bidi-js's getEmbeddingLevels gives it, from the
 * characters' bidi types up to the first strong one (skipping isolates, ending at a paragraph separator), without
 * resolving every level of the text: that allocated for every character, on every line drawn.
 */
export function firstParagraphLevel(text: string): 0 | 1 {
  let isolates = 0;
  for (let index = 0; index < text.length; index++) {
    // Per UTF-16 unit, as bidi-js types characters.
    const type = bidi.getBidiCharTypeName(text[index]!);
    if (type === 'B') return 0;
    if (ISOLATE_INITIATORS.has(type)) isolates++;
    else if (type === 'PDI' && isolates > 0) isolates--;
    else if (isolates === 0 && (type === 'R' || type === 'AL')) return 1;
    else if (isolates === 0 && type === 'L') return 0;
  }
  return 0;
}

/** Whether a text set as a paragraph of its own (a drawn line, its direction mark included) is right-to-left. */
export function isRightToLeft(text: string): boolean {
  return directionMarkOf(text) === RIGHT_TO_LEFT_MARK;
}

/** The mirrored form of a character drawn right-to-left, such as `)` for `(` (rule L4), or the character itself. */
export function mirrored(char: string): string {
  return bidi.getMirroredCharacter(char) ?? char;
}
