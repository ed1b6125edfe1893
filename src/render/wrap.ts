import { isRightToLeft, RIGHT_TO_LEFT_MARK } from './bidi.ts';
import type { TextFace } from './fonts.ts';
import { breakOpportunities, splitsCluster } from './line-breaks.ts';
import { SOFT_HYPHEN } from './text.ts';

/** Characters a word too wide for a whole line may break after, such as in `4500012345/ACME-PROCUREMENT-EMEA`. */
const BREAK_AFTER = new Set(['/', '-', '_']);

interface Piece {
  /** What to draw: the prefix, with a hyphen when it ends at a soft hyphen. */
  line: string;
  rest: string;
}

/**
 * The longest prefix of `word` that fits `room` and ends at a place the word may break: between CJK characters
 * and Thai words (`scriptPlaces`, from line-breaks.ts), after `/`, `-` or `_` (when `identifiers`), or at a soft
 * hyphen, drawn there as a hyphen. Undefined when no such prefix fits. Found by bisection over the break places:
 * a word of 2,000 soft hyphens must not be measured 2,000 times.
 */
function breakAtOpportunity(
  word: string,
  scriptPlaces: readonly number[],
  face: TextFace,
  size: number,
  room: number,
  identifiers: boolean,
): Piece | undefined {
  const places: number[] = [];
  let next = 0;
  for (let i = 1; i < word.length; i++) {
    const char = word[i - 1]!;
    const scriptPlace = scriptPlaces[next] === i;
    if (scriptPlace) next++;
    if (scriptPlace || (char === SOFT_HYPHEN && i > 1) || (identifiers && BREAK_AFTER.has(char))) places.push(i);
  }
  const pieceAt = (i: number): Piece => ({
    line: word[i - 1] === SOFT_HYPHEN ? `${word.slice(0, i - 1)}-` : word.slice(0, i),
    rest: word.slice(i),
  });
  let best: Piece | undefined;
  let [low, high] = [0, places.length - 1];
  while (low <= high) {
    const middle = (low + high) >> 1;
    const piece = pieceAt(places[middle]!);
    if (face.widthOf(piece.line, size) <= room) {
      best = piece;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return best;
}

/** The places of `places` in what is left of a word once its first `cut` UTF-16 units are on a line. */
function placesAfter(places: readonly number[], cut: number): number[] {
  return places.filter((place) => place > cut).map((place) => place - cut);
}

/**
 * The last resort: the longest prefix that fits, cut between characters but never inside what is drawn as one
 * (a letter and its combining marks, a conjunct, a joined pair: line-breaks.ts splitsCluster), and at least one
 * letter. Found by bisection, since a word can be 2,000 characters long.
 */
function breakAnywhere(word: string, face: TextFace, size: number, room: number): Piece {
  const chars = [...word];
  const cuts: number[] = [];
  for (let end = 1; end < chars.length; end++) {
    if (!splitsCluster(chars[end - 1]!.codePointAt(0)!, chars[end]!.codePointAt(0)!)) cuts.push(end);
  }
  const fits = (cut: number) => face.widthOf(chars.slice(0, cut).join(''), size) <= room;
  let best = cuts[0] ?? chars.length;
  let [low, high] = [1, cuts.length - 1];
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (fits(cuts[middle]!)) {
      best = cuts[middle]!;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return { line: chars.slice(0, best).join(''), rest: chars.slice(best).join('') };
}

/** Thai MAI YAMOK, written after a space (ดี ๆ): it repeats the word before it, and no line starts with it. */
const REPETITION_MARK = '\u0e46';

/** The words of a paragraph between its spaces, a word that starts with ๆ kept with the word before it. */
function wordsOf(paragraph: string): string[] {
  const words: string[] = [];
  for (const word of paragraph.split(' ')) {
    if (word.startsWith(REPETITION_MARK) && words.length > 0) words[words.length - 1] += ` ${word}`;
    else words.push(word);
  }
  return words;
}

/**
 * Wraps text to a column. Line breaks in the text are kept and lines break at spaces. A word that does not fit
 * what is left of a line may break there at a soft hyphen (drawn as a hyphen) or, in CJK and Thai text, where
 * line-breaks.ts finds a place (no hyphen), so that text without spaces fills each line; otherwise it moves to
 * the next line. Only a word wider than a whole line is broken: after the last `/`, `-` or `_` that fits, else
 * between characters but never inside a cluster, so nothing ever runs past the column. A line's width is the sum
 * of its words and spaces, which is exact because the fonts kern no pair with a space
 * (test/render/shaping.test.ts).
 */
export function wrapText(text: string, face: TextFace, size: number, columnWidth: number): string[] {
  // A column is never narrower than one point, so that breaking a word always makes progress.
  const width = Math.max(columnWidth, 1);
  const lines: string[] = [];
  const spaceWidth = face.widthOf(' ', size);
  for (const paragraph of text.split('\n')) {
    const first = lines.length;
    let line = '';
    let lineWidth = 0;
    const words = wordsOf(paragraph);
    for (let index = 0; index < words.length; index++) {
      let word = words[index]!;
      let wordWidth = face.widthOf(word, size);
      const candidateWidth = index === 0 ? wordWidth : lineWidth + spaceWidth + wordWidth;
      if (candidateWidth <= width) {
        line = index === 0 ? word : `${line} ${word}`;
        lineWidth = candidateWidth;
        continue;
      }
      // Found once per word: a paragraph of Thai or Japanese without spaces is one word of many lines.
      let scriptPlaces = breakOpportunities(word);
      if (line !== '') {
        const hyphenated = breakAtOpportunity(word, scriptPlaces, face, size, width - lineWidth - spaceWidth, false);
        if (hyphenated) {
          lines.push(`${line} ${hyphenated.line}`);
          scriptPlaces = placesAfter(scriptPlaces, word.length - hyphenated.rest.length);
          word = hyphenated.rest;
          wordWidth = face.widthOf(word, size);
        } else {
          lines.push(line);
        }
      }
      while (wordWidth > width) {
        const piece = breakAtOpportunity(word, scriptPlaces, face, size, width, true) ?? breakAnywhere(word, face, size, width);
        lines.push(piece.line);
        scriptPlaces = placesAfter(scriptPlaces, word.length - piece.rest.length);
        word = piece.rest;
        wordWidth = face.widthOf(word, size);
      }
      line = word;
      lineWidth = wordWidth;
    }
    lines.push(line);
    if (lines.length - first > 1 && isRightToLeft(paragraph)) {
      for (let i = first + 1; i < lines.length; i++) lines[i] = RIGHT_TO_LEFT_MARK + lines[i];
    }
  }
  return lines;
}
