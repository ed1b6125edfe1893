import bidiFactory from 'bidi-js';

/**
 * The Unicode Bidirectional Algorithm (UAX #9) by bidi-js, pure JavaScript with its own character data, so that
 * every runtime orders text the same (test/render/bidi.test.ts runs Unicode's BidiCharacterTest against it).
 */
const bidi = bidiFactory();

/**
 * The embedding level of each UTF-16 unit of a line: odd is right-to-left. The paragraph's direction comes from
 * its first strong character (rules P2–P3); a line that continues a right-to-left paragraph starts with U+200F
 * (wrap.ts puts it there), so it keeps its paragraph's direction.
 */
export function embeddingLevels(line: string): Uint8Array {
  return bidi.getEmbeddingLevels(line).levels;
}

/** The mirrored form of a character drawn right-to-left, such as `)` for `(` (rule L4), or the character itself. */
export function mirrored(char: string): string {
  return bidi.getMirroredCharacter(char) ?? char;
}
