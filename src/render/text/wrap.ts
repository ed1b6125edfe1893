import type { TextFace } from '../fonts.ts';
import { directionMarkOf } from './bidi.ts';
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
 * The last index below `count` for which `fits` holds, or -1, where `fits` holds up to some index and not after
 * (the width of a longer prefix is never smaller). Probes 0, 1, 3, 7, … until one does not fit, then bisects
 * between: what is measured is at most about twice what fits, however long the word (a 2,000-character line of
 * CJK or Thai text is measured by the line, not by the paragraph).
 */
function lastFitting(count: number, fits: (index: number) => boolean): number {
  let low = 0;
  let high = count - 1;
  for (let probe = 0; probe < count; probe = probe * 2 + 1) {
    if (!fits(probe)) {
      high = probe - 1;
      break;
    }
    low = probe + 1;
  }
  let best = low - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (fits(middle)) {
      best = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return best;
}

/**
 * The longest prefix of `word` that fits `room` and ends at a place the word may break: between CJK characters
 * and Thai words (`scriptPlaces`, from line-breaks.ts), after `/`, `-` or `_` (when `identifiers`), or at a soft
 * hyphen, drawn there as a hyphen. Undefined when no such prefix fits. Found by `lastFitting` over the break
 * places: a word of 2,000 soft hyphens must not be measured 2,000 times.
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
  const last = lastFitting(places.length, (index) => face.widthOf(pieceAt(places[index]!).line, size) <= room);
  return last < 0 ? undefined : pieceAt(places[last]!);
}

/** The places of `places` in what is left of a word once its first `cut` UTF-16 units are on a line. */
function placesAfter(places: readonly number[], cut: number): number[] {
  return places.filter((place) => place > cut).map((place) => place - cut);
}

/**
 * The last resort: the longest prefix that fits, cut between characters but never inside what is drawn as one
 * (a letter and its combining marks, a conjunct, a joined pair: line-breaks.ts splitsCluster), and at least one
 * letter. Found by `lastFitting`, since a word can be 2,000 characters long.
 */
function breakAnywhere(word: string, face: TextFace, size: number, room: number): Piece {
  const chars = [...word];
  let cuts: number[] = [];
  for (let end = 1; end < chars.length; end++) {
    if (!splitsCluster(chars[end - 1]!.codePointAt(0)!, chars[end]!.codePointAt(0)!)) cuts.push(end);
  }
  // A word that is one cluster from end to end (300 Thai leading vowels) is cut between characters all the same:
  // a broken cluster is better than text running past the column and off the page.
  if (cuts.length === 0) cuts = Array.from({ length: chars.length - 1 }, (_, index) => index + 1);
  const fits = (index: number) => face.widthOf(chars.slice(0, cuts[index]).join(''), size) <= room;
  const best = cuts[Math.max(lastFitting(cuts.length, fits), 0)] ?? chars.length;
  return { line: chars.slice(0, best).join(''), rest: chars.slice(best).join('') };
}

/** Prefixes measured before a long rest of a word: a line never holds more, except of the narrowest glyphs. */
const FIRST_PREFIX = 128;

/**
 * The width of what is left of a word, or Infinity when it is wider than `width`, which growing prefixes show
 * first: the rest of a 2,000-character line of CJK text is not measured again for each line cut from it.
 */
function widthWithin(text: string, face: TextFace, size: number, width: number): number {
  for (let length = FIRST_PREFIX; length < text.length; length *= 2) {
    // Never half a surrogate pair: a prefix ends after a whole character.
    const end = text.charCodeAt(length - 1) >= 0xd800 && text.charCodeAt(length - 1) <= 0xdbff ? length + 1 : length;
    if (face.widthOf(text.slice(0, end), size) > width) return Number.POSITIVE_INFINITY;
  }
  return face.widthOf(text, size);
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
 * Where a wrapped line ends, when the text goes on: at a space or a line break of the text (`space`), which the line
 * does not draw, or inside a word broken across lines (`word`). A reader that joins an element's lines (poppler, and
 * screen readers through it) needs a space at the one, or `Friedrichstraße 123` and `10117 Berlin` are read as one
 * number, and none at the other.
 */
export type LineBreak = 'space' | 'word';

/** A line of wrapped text; the last has no break after it. */
export interface WrappedLine {
  readonly text: string;
  readonly breakAfter?: LineBreak;
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
export function wrapText(text: string, face: TextFace, size: number, columnWidth: number): WrappedLine[] {
  // A column is never narrower than one point, so that breaking a word always makes progress.
  const width = Math.max(columnWidth, 1);
  const lines: string[] = [];
  /** The indices of the lines that end where the text has a space or a line break. */
  const beforeSpace = new Set<number>();
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
          wordWidth = widthWithin(word, face, size, width);
        } else {
          beforeSpace.add(lines.length);
          lines.push(line);
        }
      }
      while (wordWidth > width) {
        const piece = breakAtOpportunity(word, scriptPlaces, face, size, width, true) ?? breakAnywhere(word, face, size, width);
        lines.push(piece.line);
        scriptPlaces = placesAfter(scriptPlaces, word.length - piece.rest.length);
        word = piece.rest;
        wordWidth = widthWithin(word, face, size, width);
      }
      line = word;
      lineWidth = wordWidth;
    }
    beforeSpace.add(lines.length);
    lines.push(line);
    const mark = lines.length - first > 1 ? directionMarkOf(paragraph) : '';
    for (let i = first + 1; mark && i < lines.length; i++) lines[i] = mark + lines[i];
  }
  return lines.map((line, index) =>
    index === lines.length - 1 ? { text: line } : { text: line, breakAfter: beforeSpace.has(index) ? 'space' : 'word' },
  );
}
