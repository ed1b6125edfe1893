import type { FontFace } from './fonts.ts';

/** Splits text at the longest prefix that fits, by character (for a word wider than the column). */
function breakWord(word: string, face: FontFace, size: number, width: number): { lines: string[]; rest: string } {
  const lines: string[] = [];
  let current = '';
  let currentWidth = 0;
  for (const char of word) {
    const charWidth = face.widthOf(char, size);
    if (current !== '' && currentWidth + charWidth > width) {
      lines.push(current);
      current = '';
      currentWidth = 0;
    }
    current += char;
    currentWidth += charWidth;
  }
  return { lines, rest: current };
}

/**
 * Wraps text to a column: line breaks in the text are kept, lines break at spaces, and a word wider than the
 * column breaks between characters, so nothing ever runs past the column.
 */
export function wrapText(text: string, face: FontFace, size: number, width: number): string[] {
  const lines: string[] = [];
  const spaceWidth = face.widthOf(' ', size);
  for (const paragraph of text.split('\n')) {
    let line = '';
    let lineWidth = 0;
    for (const word of paragraph.split(' ')) {
      const wordWidth = face.widthOf(word, size);
      if (line === '' && lineWidth === 0) {
        if (wordWidth <= width) {
          line = word;
          lineWidth = wordWidth;
          continue;
        }
      } else if (lineWidth + spaceWidth + wordWidth <= width) {
        line += ` ${word}`;
        lineWidth += spaceWidth + wordWidth;
        continue;
      } else {
        lines.push(line);
        line = '';
        lineWidth = 0;
      }
      if (wordWidth <= width) {
        line = word;
        lineWidth = wordWidth;
      } else {
        const broken = breakWord(word, face, size, width);
        lines.push(...broken.lines);
        line = broken.rest;
        lineWidth = face.widthOf(line, size);
      }
    }
    lines.push(line);
  }
  return lines;
}
