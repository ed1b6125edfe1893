import { SCRIPT_OF_FAMILY } from '../../contract/scripts.ts';
import { embeddingLevels, mirrored } from './bidi.ts';
import type { FontFace, ScriptFace } from './faces.ts';
import { covers, type Fallback, FontsNotLoaded } from './fallback.ts';
import type { FallbackFaceInfo } from './font-coverage.ts';
import type { HarfBuzzGlyph } from './harfbuzz.ts';
import type { ShapedGlyph } from './shaping.ts';
import { isDefaultIgnorable } from './text.ts';

/** Glyphs of one face in one direction, in the order they are drawn. */
export interface GlyphRun {
  readonly face: FontFace | ScriptFace;
  readonly glyphs: readonly ShapedGlyph[];
  /** Drawn with a stroke around the fill, for bold text in a family that has no bold face. */
  readonly emboldened: boolean;
  /** What the run shows in drawing order, for /ActualText, where its glyphs show it in another order (`latinNeutrals`). */
  readonly drawnText?: string;
}

/** A line of text ready to draw: its runs from left to right, and its width in thousandths of the font size. */
export interface SetLine {
  readonly runs: readonly GlyphRun[];
  /**
   * The indices into `runs` in the order of the text (logical order), which differs from `runs` where right-to-left
   * text is in the line. pdf.js reads a line's text in the order it is drawn, one item per font, and turns each
   * right-to-left item around on its own, so the writer draws the runs in this order, each at its own place.
   */
  readonly logicalOrder: readonly number[];
  readonly width: number;
}

interface LineFaces {
  readonly latin: FontFace;
  /** The script faces to try, in priority order, after the Latin face. */
  readonly fallbacks: readonly Fallback[];
  /** A script face once loaded. */
  scriptFace(info: FallbackFaceInfo): ScriptFace | undefined;
  /** The first face that has a character: -1 the Latin face, else an index into `fallbacks` (-1 when none has it). */
  firstCovering(codePoint: number): number;
  /** The emoji face's index in `fallbacks` (-1 when there is none). */
  readonly emoji: number;
}

const KANA = /[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]/;
const HANGUL = /[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff]/;

/**
 * The regional glyph forms of Han characters (CJK `locl`), by the rule docs/rendering.md states: a value with kana is
 * Japanese, one with Hangul is Korean, and Han alone is drawn in the font's default, Simplified Chinese, forms.
 */
export function cjkLanguageOf(value: string): string | undefined {
  if (KANA.test(value)) return 'ja';
  if (HANGUL.test(value)) return 'ko';
  return undefined;
}

/** Han ideographs (the unified blocks and their extensions), whose regional forms differ. */
const HAN = /[\u3400-\u9fff\uf900-\ufaff]|[\ud840-\ud87f][\udc00-\udfff]/;

/** Kana, Hangul or Han: one scan of a line that has none (most lines) instead of the three above. */
const CJK = new RegExp(`${KANA.source}|${HANGUL.source}|${HAN.source}`);

/**
 * The regional forms of a drawn line's Han characters: those of the first value the line is part of (a wrapped
 * line of a Japanese address may hold no kana itself), else the line's own.
 */
export function cjkLanguageOfLine(line: string, values: readonly string[]): string | undefined {
  if (!CJK.test(line)) return undefined;
  const own = cjkLanguageOf(line);
  if (own !== undefined || !HAN.test(line)) return own;
  // Without what drawing added: a direction mark before the line, the space after it (a `space` break), the
  // hyphen of a word broken at a soft hyphen.
  const text = line.replace(/^[\u200e\u200f]/, '').replace(/[ -]$/, '');
  const value = values.find((candidate) => candidate.includes(text));
  return value === undefined ? undefined : cjkLanguageOf(value);
}

const LETTER = /\p{L}/u;
/** LEFT-TO-RIGHT MARK, RIGHT-TO-LEFT MARK, ARABIC LETTER MARK: they set bidi levels and draw nothing. */
const BIDI_MARKS = new Set([0x200e, 0x200f, 0x061c]);

/**
 * VARIATION SELECTOR-16 asks for a character's emoji form, and COMBINING ENCLOSING KEYCAP makes a keycap of the
 * digit, `#` or `*` before it: that character takes the emoji face, so that the font draws the sequence as one
 * glyph (❤️, #️⃣), where by coverage alone ❤ would take a symbol face and # the Latin one.
 */
const EMOJI_PRESENTATION = 0xfe0f;
const COMBINING_KEYCAP = 0x20e3;

/** One face's share of a line: UTF-16 range, bidi level and the face chosen for it. */
interface Item {
  start: number;
  end: number;
  level: number;
  /** -1 is the Latin face, otherwise an index into `fallbacks`. */
  face: number;
}

/**
 * The face of each character by coverage (never by guessing a language): letters take the first face that has
 * them; joiners and other ignorables stay with the letter before them; marks, spaces, digits and punctuation
 * stay in the face of the run they are in when it has them, so that a script's own shaping is not cut, and
 * otherwise take the first face that has them (a mark its font lacks is drawn, not refused).
 */
function itemize(text: string, levels: Uint8Array, faces: LineFaces): Item[] {
  const items: Item[] = [];
  let current: Item | undefined;
  const coveredBy = (face: number, codePoint: number) =>
    face < 0 ? faces.latin.glyphOf(codePoint) !== undefined : covers(faces.fallbacks[face]!.info, codePoint);
  for (let i = 0; i < text.length; ) {
    const codePoint = text.codePointAt(i)!;
    // A bidi mark has done its work in the levels; between two runs it would be an empty run of its own.
    if (BIDI_MARKS.has(codePoint)) {
      i++;
      continue;
    }
    const length = codePoint > 0xffff ? 2 : 1;
    const char = text.slice(i, i + length);
    const level = levels[i]!;
    let face: number;
    const next = text.codePointAt(i + length);
    if ((next === EMOJI_PRESENTATION || next === COMBINING_KEYCAP) && faces.emoji >= 0 && coveredBy(faces.emoji, codePoint))
      face = faces.emoji;
    else if (current && isDefaultIgnorable(codePoint)) face = current.face;
    // The emoji face maps the space, digits, # and * (for keycaps) with an emoji's width: they never stay in its run.
    else if (current && !LETTER.test(char) && !(current.face === faces.emoji && codePoint < 0x80) && coveredBy(current.face, codePoint))
      face = current.face;
    else face = faces.firstCovering(codePoint);
    if (current && current.face === face && current.level === level) current.end = i + length;
    else {
      current = { start: i, end: i + length, level, face };
      items.push(current);
    }
    i += length;
  }
  return items;
}

/**
 * A Latin run: the own shaper; right-to-left (neutrals between right-to-left words) mirrored and reversed. A
 * mirrored glyph shows the character as sent, as a script face's does, since extractors do not mirror.
 */
function latinRun(text: string, item: Item, face: FontFace): ShapedGlyph[] {
  const slice = text.slice(item.start, item.end);
  if (item.level % 2 === 0) return face.shape(slice);
  return face
    .shape([...slice].map(mirrored).join(''))
    .reverse()
    .map((glyph) => {
      const drawn = String.fromCodePoint(glyph.codePoint);
      const sent = mirrored(drawn);
      return sent === drawn ? glyph : { ...glyph, text: sent };
    });
}

/**
 * A script run shaped by HarfBuzz with the whole line as context (Arabic joins across a change of font or
 * level), each glyph with the text it shows for copying (`clusterTexts`).
 */
function scriptRun(text: string, item: Item, face: ScriptFace, cjkLanguage: string | undefined): ShapedGlyph[] {
  const rtl = item.level % 2 === 1;
  const family = face.info.family;
  const language = family === 'cjk' ? cjkLanguage : undefined;
  const script = SCRIPT_OF_FAMILY.get(family)?.harfbuzz;
  const shaped = face.harfbuzz.shape(text, item.start, item.end - item.start, {
    direction: rtl ? 'rtl' : 'ltr',
    ...(script ? { script } : {}),
    ...(language ? { language } : {}),
  });
  const scale = 1000 / face.harfbuzz.unitsPerEm;
  const glyphs: ShapedGlyph[] = shaped.map((glyph) => ({
    gid: glyph.gid,
    codePoint: text.codePointAt(glyph.cluster)!,
    advance: glyph.xAdvance * scale,
    dx: glyph.xOffset * scale,
    dy: glyph.yOffset * scale,
  }));
  return clusterTexts(text, item, glyphs, shaped, rtl);
}

const NONSPACING_MARK = /^\p{Mn}$/u;

/**
 * What each glyph shows when the text is copied. pdf.js and poppler both read a line's glyphs in drawing order
 * (left to right) and turn right-to-left stretches around by their own bidi algorithm, so the glyphs of a
 * cluster show its text in visual order: as sent left to right, reversed right to left. Within a cluster the
 * characters go one to a glyph as far as they fit, where a mark glyph (drawn without advance, off its pen
 * position) takes only a nonspacing mark, which pdf.js places without looking at where it is drawn, and never
 * as the cluster's first glyph (pdf.js would join a mark that starts a line to the line before); what is left
 * goes to the last glyph with an advance, and a glyph left without text shows nothing (pdf/fonts/font-use.ts). Clusters
 * of default-ignorable characters alone (ZWNJ, ZWJ, direction marks), which HarfBuzz draws as empty glyphs
 * without advance, are not drawn: their characters join the cluster before, so that pdf.js, which skips a glyph
 * that shows only format characters, keeps them.
 */
function clusterTexts(text: string, item: Item, glyphs: ShapedGlyph[], shaped: readonly HarfBuzzGlyph[], rtl: boolean): ShapedGlyph[] {
  const starts = [...new Set(shaped.map((glyph) => glyph.cluster))].sort((a, b) => a - b);
  const textOf = new Map(starts.map((start, index) => [start, text.slice(start, starts[index + 1] ?? item.end)]));
  const empty = new Map<number, boolean>();
  glyphs.forEach(({ advance, dx, dy }, index) => {
    const cluster = shaped[index]!.cluster;
    empty.set(cluster, (empty.get(cluster) ?? true) && advance === 0 && dx === 0 && dy === 0);
  });
  const ignorable = (start: number) => [...textOf.get(start)!].every((char) => isDefaultIgnorable(char.codePointAt(0)!));
  const hidden = new Set(starts.filter((start) => empty.get(start) && ignorable(start)));
  if (hidden.size === starts.length) hidden.clear();
  let leading = '';
  let lastDrawn: number | undefined;
  for (const start of starts) {
    if (hidden.has(start)) {
      if (lastDrawn === undefined) leading += textOf.get(start)!;
      else textOf.set(lastDrawn, textOf.get(lastDrawn)! + textOf.get(start)!);
      continue;
    }
    if (leading) textOf.set(start, leading + textOf.get(start)!);
    leading = '';
    lastDrawn = start;
  }
  const out: ShapedGlyph[] = [];
  for (let first = 0; first < glyphs.length; ) {
    const cluster = shaped[first]!.cluster;
    let end = first;
    while (end < glyphs.length && shaped[end]!.cluster === cluster) end++;
    if (!hidden.has(cluster)) {
      const clusterText = textOf.get(cluster)!;
      // A cluster of one glyph (most are) shows all its text, as showCluster gives it, without its arrays.
      if (end - first === 1) out.push({ ...glyphs[first]!, text: rtl ? reversedCharacters(clusterText) : clusterText });
      else for (const glyph of showCluster(glyphs.slice(first, end), clusterText, rtl)) out.push(glyph);
    }
    first = end;
  }
  return out;
}

/** A text's characters (code points) in reverse order. */
function reversedCharacters(text: string): string {
  if (text.length === 1 || (text.length === 2 && text.codePointAt(0)! > 0xffff)) return text;
  return [...text].reverse().join('');
}

function showCluster(glyphs: ShapedGlyph[], clusterText: string, rtl: boolean): ShapedGlyph[] {
  const chars = rtl ? [...clusterText].reverse() : [...clusterText];
  const pieces = glyphs.map(() => '');
  let next = 0;
  glyphs.forEach((glyph, index) => {
    if (next < chars.length && (glyph.advance !== 0 || (index > 0 && NONSPACING_MARK.test(chars[next]!)))) pieces[index] = chars[next++]!;
  });
  if (next < chars.length) {
    let last = glyphs.length - 1;
    while (last > 0 && glyphs[last]!.advance === 0) last--;
    pieces[last] = pieces.slice(last).join('') + chars.slice(next).join('');
    pieces.fill('', last + 1);
  }
  return glyphs.map((glyph, index) => ({ ...glyph, text: pieces[index]! }));
}

const WHITE_SPACE = /^\s+$/;

/**
 * What the glyphs of a script face's right-to-left text show, for pdf.js: it makes one text item of the runs of
 * one font side by side (pdf/content/stretches.ts), drops the white space at either end of an item, and a
 * right-to-left line, drawn in logical order, has an item wherever the font changes. So a right-to-left space
 * at either end of such runs is shown by the glyph beside it (the space's glyph shows nothing), which pdf.js
 * turns around with the item; what they show as a whole, left to right, does not change. A left-to-right space
 * (after a right-to-left stretch in a left-to-right line) is left to pdf.js, which puts a space where the pen
 * moves on to the right; runs without right-to-left text keep their glyphs as they were.
 */
function keepEdgeSpaces<T extends GlyphRun & { level: number }>(visual: T[]): T[] {
  const out: T[] = [];
  for (let first = 0; first < visual.length; ) {
    let end = first + 1;
    while (end < visual.length && visual[end]!.face === visual[first]!.face) end++;
    const block = visual.slice(first, end);
    first = end;
    if (!('info' in block[0]!.face) || block.every((run) => run.level % 2 === 0)) {
      out.push(...block);
      continue;
    }
    const glyphs = block.map((run) => [...run.glyphs]);
    const places = glyphs.flatMap((run, number) => run.map((_, index) => ({ run, index, rtl: block[number]!.level % 2 === 1 })));
    const textOf = ({ run, index }: (typeof places)[number]) => run[index]!.text ?? String.fromCodePoint(run[index]!.codePoint);
    const show = ({ run, index }: (typeof places)[number], text: string) => {
      run[index] = { ...run[index]!, text };
    };
    const solid = (place: (typeof places)[number]) => textOf(place) !== '' && !WHITE_SPACE.test(textOf(place));
    const moveSpace = (space: (typeof places)[number], beside: (typeof places)[number], before: boolean) => {
      if (!space.rtl || !WHITE_SPACE.test(textOf(space)) || !solid(beside)) return;
      show(beside, before ? textOf(space) + textOf(beside) : textOf(beside) + textOf(space));
      show(space, '');
    };
    if (places.length >= 2) {
      moveSpace(places[0]!, places[1]!, true);
      moveSpace(places.at(-1)!, places.at(-2)!, false);
    }
    out.push(...block.map((run, index) => ({ ...run, glyphs: glyphs[index]! })));
  }
  return out;
}

/**
 * A right-to-left run of the Latin face holds only spaces, punctuation and brackets (between right-to-left
 * words), which pdf.js leaves in drawing order, as its item holds no right-to-left letter, and whose spaces it
 * drops at an item's ends: so the run's first glyph in the text that is not a space shows the run's text in
 * logical order, and the others show nothing. poppler turns such a stretch around itself: its /ActualText
 * keeps the text in drawing order (`drawnText`).
 */
function latinNeutrals(glyphs: ShapedGlyph[], level: number): { glyphs: ShapedGlyph[]; drawnText?: string } {
  const shown = glyphs.map((glyph) => glyph.text ?? String.fromCodePoint(glyph.codePoint));
  const carrier = shown.findLastIndex((text) => !WHITE_SPACE.test(text));
  if (level % 2 === 0 || glyphs.length < 2 || carrier < 0) return { glyphs };
  const logical = [...shown].reverse().join('');
  return { glyphs: glyphs.map((glyph, index) => ({ ...glyph, text: index === carrier ? logical : '' })), drawnText: shown.join('') };
}

/** Rule L2: from the highest level down to the lowest odd one, reverse every sequence of runs at that level or above. */
function visualOrder<T extends { level: number }>(runs: T[]): T[] {
  const ordered = [...runs];
  const highest = Math.max(...ordered.map((run) => run.level));
  const lowestOdd = Math.min(...ordered.map((run) => (run.level % 2 === 1 ? run.level : highest + 1)));
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < ordered.length; ) {
      if (ordered[i]!.level < level) {
        i++;
        continue;
      }
      let end = i;
      while (end < ordered.length && ordered[end]!.level >= level) end++;
      ordered.splice(i, end - i, ...ordered.slice(i, end).reverse());
      i = end;
    }
  }
  return ordered;
}

/**
 * Sets a line of text: the Unicode Bidirectional Algorithm for its levels, font fallback by coverage, HarfBuzz
 * for the script faces (Han in the regional forms of `cjkLanguage`, by default the line's own), then the runs
 * in visual order. Text the Latin face draws alone, left to right, takes
 * the Latin shaper's path exactly as before script faces existed, which keeps Latin documents' bytes.
 */
export function setLine(text: string, faces: LineFaces, cjkLanguage?: string): SetLine {
  if (faces.latin.drawsAlone(text)) {
    const glyphs = faces.latin.shape(text);
    return { runs: [{ face: faces.latin, glyphs, emboldened: false }], logicalOrder: [0], width: sumAdvances(glyphs) };
  }
  // Looked for only here: text the Latin face draws alone has no Han.
  const language = cjkLanguage ?? cjkLanguageOf(text);
  const items = itemize(text, embeddingLevels(text), faces);
  const missing = new Set<FallbackFaceInfo>();
  const runs = items.map((item): GlyphRun & { level: number } => {
    if (item.face < 0)
      return { level: item.level, face: faces.latin, ...latinNeutrals(latinRun(text, item, faces.latin), item.level), emboldened: false };
    const fallback = faces.fallbacks[item.face]!;
    const face = faces.scriptFace(fallback.info);
    if (!face) {
      missing.add(fallback.info);
      return { level: item.level, face: faces.latin, glyphs: [], emboldened: false };
    }
    return { level: item.level, face, glyphs: scriptRun(text, item, face, language), emboldened: fallback.emboldened };
  });
  if (missing.size) throw new FontsNotLoaded([...missing]);
  // `runs` is in the order of the text: each run's place in the visual order is its entry in logicalOrder.
  const visual = keepEdgeSpaces(visualOrder(runs.map((run, index) => ({ ...run, index }))));
  const logicalOrder: number[] = [];
  visual.forEach((run, place) => {
    logicalOrder[run.index] = place;
  });
  const ordered = visual.map(({ face, glyphs, emboldened, drawnText }) => ({
    face,
    glyphs,
    emboldened,
    ...(drawnText ? { drawnText } : {}),
  }));
  return { runs: ordered, logicalOrder, width: ordered.reduce((sum, run) => sum + sumAdvances(run.glyphs), 0) };
}

function sumAdvances(glyphs: readonly ShapedGlyph[]): number {
  let sum = 0;
  for (const glyph of glyphs) sum += glyph.advance;
  return sum;
}
