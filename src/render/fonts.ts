import fontkit from '@pdf-lib/fontkit';
import { SCRIPTS } from '../contract/scripts.ts';
import { EngineUnavailable } from './errors.ts';
import { LINE_FEED } from './pdf/ascii-buffer.ts';
import { FontEmbedding } from './pdf/fonts/font-embedding.ts';
import { instantiateZlib, type Zlib } from './pdf/zlib.ts';
import { SeenBefore } from './seen-before.ts';
import { embeddingLevels, isRightToLeft } from './text/bidi.ts';
import type { FontFace, FontWeight, ScriptFace } from './text/faces.ts';
import { covers, fallbacksOf } from './text/fallback.ts';
import { FALLBACK_FACES, type FallbackFaceInfo } from './text/font-coverage.ts';
import { type HarfBuzz, type HarfBuzzFace, instantiateHarfBuzz } from './text/harfbuzz.ts';
import { breakOpportunities } from './text/line-breaks.ts';
import { createShaper } from './text/shaping.ts';
import { isDefaultIgnorable } from './text/text.ts';
import { readTrueType, withoutOutlines } from './text/truetype.ts';
import { cjkLanguageOfLine, type SetLine, setLine } from './text/typeset.ts';

/**
 * Text of one weight in every script the bundled fonts cover: the Latin face first, then the script faces by
 * coverage (font-coverage.ts). Measuring and drawing both go through `setLine`, so what is measured is drawn.
 */
export interface TextFace {
  readonly latin: FontFace;
  /** Whether the Latin face or a script face of this weight draws a character (the choice `setLine` makes). */
  draws(codePoint: number): boolean;
  widthOf(text: string, size: number): number;
  /** A line; Han characters in the regional forms of `cjkLanguage` (`cjkLanguageOf` its value) when given. */
  setLine(text: string, cjkLanguage?: string): SetLine;
  /**
   * A line as the document begun last draws it (startDocument): its Han characters in the regional forms of the
   * value it is part of (cjkLanguageOfLine).
   */
  drawnLine(text: string): SetLine;
}

export interface FontSet {
  readonly regular: TextFace;
  readonly bold: TextFace;
  /** The characters of a text that no bundled font draws, each once, in the order they come. */
  undrawable(text: string): string[];
  /** Loads script faces a layout asked for (FontsNotLoaded); from then on they draw synchronously. */
  load(faces: readonly FallbackFaceInfo[]): Promise<void>;
  /**
   * Starts the shaper, loads the faces of FAMILIES_AT_START, and runs, for every script of the table
   * (src/contract/scripts.json), the code its text goes through once its face is loaded, on the script's sample:
   * line breaking, bidi, and HarfBuzz's shaper for the script (with the Latin face, which draws none of its letters
   * but takes the shaper through the same steps). Synchronous, with no I/O: a process or an isolate calls it while it
   * starts, so that a request's first text in a script does not pay for compiling that code (documents/warm-up.ts).
   * Answers the samples of FAMILIES_AT_START, which the set now draws with no I/O, for a document to draw.
   */
  warmUpScripts(): string;
  /**
   * Begins a document, whose request's text values are `values` (drawnLine): the lines set from now on are the
   * document's, kept past it only when an earlier document set them too. Layouts are synchronous, so one document is
   * laid out at a time.
   */
  startDocument(values: readonly string[]): void;
  /** The compressor of the PDF's streams, the embedded font files among them. */
  readonly zlib: Zlib;
  /** What embedding the set's faces keeps from one document to the next: their stable subsets, recent subsets. */
  readonly embedding: FontEmbedding;
}

/** Where the script faces and the shaper come from in a runtime: files on Bun and Node, static assets on Workers. */
interface ScriptFontSource {
  harfbuzz(): WebAssembly.Module;
  read(file: string): Promise<Uint8Array>;
  /** A face of FACES_AT_START with no I/O (read from fonts/ on Bun and Node, bundled in the Worker), for warmUpScripts. */
  readAtStart(file: string): Uint8Array;
}

/**
 * The script families whose faces a process or isolate loads while it starts (warmUpScripts), and whose text
 * documents/warm-up.ts then draws, so that the code every script face's text goes through (fallback, shaping, bidi,
 * subsets and ToUnicode of a script face) is compiled before the first request: Armenian and Hebrew, the smallest
 * left-to-right and right-to-left faces (16 and 14 KB each), and Arabic (150 KB each), whose shaping takes HarfBuzz
 * through lookups no other face at start has (its first invoice in an isolate cost 28 to 32 ms of CPU without it,
 * 16 to 20 with it, in workerd).
 */
export const FAMILIES_AT_START: readonly string[] = ['armenian', 'hebrew', 'arabic'];

/** The files of FAMILIES_AT_START's faces, regular and bold. */
export const FACES_AT_START: readonly FallbackFaceInfo[] = FALLBACK_FACES.filter((info) => FAMILIES_AT_START.includes(info.family));

export interface FontFiles {
  regular: Uint8Array;
  bold: Uint8Array;
  /**
   * native/zlib.wasm compiled (zlib.ts): a bundled binary like the fonts, which each runtime loads its own way,
   * and needed by every render as the fonts are.
   */
  zlib: WebAssembly.Module;
  /** Without it, text outside the Latin faces is refused as undrawable. */
  scripts?: ScriptFontSource;
}

function loadLatinFace(bytes: Uint8Array, postscriptName: string): FontFace {
  const file = readTrueType(bytes);
  const parsed = fontkit.create(bytes);
  const characters = new Map(parsed.characterSet.map((codePoint) => [codePoint, parsed.glyphForCodePoint(codePoint).id]));
  const shaper = createShaper(file, characters);
  return {
    postscriptName,
    file,
    glyphOf: shaper.glyphOf,
    drawsAlone: shaper.drawsAlone,
    widthOf: (text, size) => (shaper.width(text) * size) / 1000,
    shape: shaper.shape,
  };
}

/**
 * Lines already set, per weight: the same texts recur (words measured while wrapping, then drawn; labels, names on
 * every page), and shaping is the cost. Only texts of a line's length are kept (the prefixes of a long word
 * measured while wrapping it are seldom set again), 64,000 characters in all: a set glyph weighs about 150 bytes,
 * so the cache stays near 10 MB per weight (a Worker isolate has 128 MB in all).
 */
const LINE_CACHE_CHARS = 64_000;
const CACHED_LINE_LENGTH = 256;
/** Lines remembered as set once (SeenBefore): a document sets a few hundred; a line set again is then kept. */
const LINES_SEEN = 16_384;

/**
 * Lines set, per regional form of Han characters (none for most text), then per text: a key joining the language
 * and the text was ambiguous (`ja` with `東京` and none with `ja 東京` were one key), and one request's line could be
 * drawn in another's document.
 */
class SetLines {
  private readonly lines = new Map<string | undefined, Map<string, SetLine>>();
  /** The characters of the texts held. */
  chars = 0;

  get(cjkLanguage: string | undefined, text: string): SetLine | undefined {
    return this.lines.get(cjkLanguage)?.get(text);
  }

  add(cjkLanguage: string | undefined, text: string, line: SetLine): void {
    let ofLanguage = this.lines.get(cjkLanguage);
    if (!ofLanguage) {
      ofLanguage = new Map();
      this.lines.set(cjkLanguage, ofLanguage);
    }
    ofLanguage.set(text, line);
    this.chars += text.length;
  }

  clear(): void {
    this.lines.clear();
    this.chars = 0;
  }
}

export function loadFonts(files: FontFiles): FontSet {
  const latin = { regular: loadLatinFace(files.regular, 'NotoSans-Regular'), bold: loadLatinFace(files.bold, 'NotoSans-Bold') };
  const loaded = new Map<string, ScriptFace>();
  let harfbuzz: HarfBuzz | undefined;

  const scriptFace = (info: FallbackFaceInfo): ScriptFace | undefined => loaded.get(info.file);

  /**
   * The lines of the document being laid out, per weight, its number and its values: a line is kept past its
   * document only when an earlier document set it too (SeenBefore); until then its document keeps it, as a text is
   * set more than once in a document (measured, then drawn; labels on every page).
   */
  const documentLines: SetLines[] = [];
  let documentNumber = 0;
  let documentValues: readonly string[] = [];
  const startDocument = (values: readonly string[]) => {
    documentNumber = (documentNumber + 1) & 0x3fffffff;
    documentValues = values;
    for (const lines of documentLines) lines.clear();
  };

  const textFace = (weight: FontWeight): TextFace => {
    const face = latin[weight];
    const fallbacks = files.scripts ? fallbacksOf(weight) : [];
    const emoji = fallbacks.findIndex((fallback) => fallback.info.family === 'emoji');
    const kept = new SetLines();
    const ofDocument = new SetLines();
    documentLines.push(ofDocument);
    const seen = new SeenBefore(LINES_SEEN);
    // The first face of a character, found once: CJK text would otherwise search every face before the CJK one.
    const firstFaces = new Map<number, number>();
    const firstCovering = (codePoint: number): number => {
      let found = firstFaces.get(codePoint);
      if (found === undefined) {
        found = -1;
        // A loop, not findIndex with an arrow: a parameter an arrow captures is given a context on every call,
        // and this runs for every character of every value.
        if (face.glyphOf(codePoint) === undefined) {
          for (let index = 0; index < fallbacks.length && found < 0; index++) if (covers(fallbacks[index]!.info, codePoint)) found = index;
        }
        firstFaces.set(codePoint, found);
      }
      return found;
    };
    const set = (text: string, cjkLanguage?: string): SetLine => {
      const known = kept.get(cjkLanguage, text) ?? ofDocument.get(cjkLanguage, text);
      if (known) return known;
      const line = setLine(text, { latin: face, fallbacks, scriptFace, firstCovering, emoji }, cjkLanguage);
      if (text.length > CACHED_LINE_LENGTH) return line;
      // Seen by its text alone: a text set in two languages is kept for the later one earlier.
      if (!seen.check(text, documentNumber)) {
        ofDocument.add(cjkLanguage, text, line);
        return line;
      }
      if (kept.chars + text.length > LINE_CACHE_CHARS) kept.clear();
      kept.add(cjkLanguage, text, line);
      return line;
    };
    return {
      latin: face,
      // The Latin face's own table first: most characters are its, and firstCovering is a map's look-up.
      draws: (codePoint) => face.glyphOf(codePoint) !== undefined || firstCovering(codePoint) >= 0,
      widthOf: (text, size) => (face.drawsAlone(text) ? face.widthOf(text, size) : (set(text).width * size) / 1000),
      setLine: set,
      drawnLine: (text) => set(text, cjkLanguageOfLine(text, documentValues)),
    };
  };

  // One load of the shaper and of each face at a time, shared by the renders that wait for it; a load that
  // failed is forgotten, so that the next render tries again rather than failing for good.
  const loading = new Map<string, Promise<void>>();
  const once = (key: string, what: string, task: () => Promise<void>): Promise<void> => {
    let pending = loading.get(key);
    if (!pending) {
      pending = task().catch((error: unknown) => {
        loading.delete(key);
        throw new EngineUnavailable(what, error);
      });
      loading.set(key, pending);
    }
    return pending;
  };

  const load = async (faces: readonly FallbackFaceInfo[]): Promise<void> => {
    const source = files.scripts;
    if (!source) return;
    await once('', 'the shaper', async () => {
      harfbuzz ??= instantiateHarfBuzz(source.harfbuzz());
    });
    await Promise.all(
      faces
        .filter((info) => !loaded.has(info.file))
        .map((info) => once(info.file, info.file, async () => addFace(info, await source.read(info.file)))),
    );
  };

  const addFace = (info: FallbackFaceInfo, bytes: Uint8Array) => {
    const file = readTrueType(bytes);
    loaded.set(info.file, { info, postscriptName: info.file.replace(/\.ttf$/, ''), file, harfbuzz: harfbuzz!.face(withoutOutlines(file)) });
  };

  const regular = textFace('regular');
  const undrawable = (text: string): string[] => {
    if (latin.regular.drawsAlone(text)) return [];
    let found: Set<string> | undefined;
    // By index, and a set only for a text that has such characters: iterating the text made a string of every
    // character, and most texts beyond the Latin face's are drawn by the script faces.
    for (let index = 0; index < text.length; index++) {
      const codePoint = text.codePointAt(index)!;
      if (codePoint > 0xffff) index++;
      if (codePoint !== LINE_FEED && !regular.draws(codePoint) && !isDefaultIgnorable(codePoint)) {
        found ??= new Set();
        found.add(String.fromCodePoint(codePoint));
      }
    }
    return found ? [...found] : [];
  };

  // The Latin face in HarfBuzz, made by warmUpScripts only: HarfBuzz keeps a face's bytes for the life of the process.
  let latinShaping: HarfBuzzFace | undefined;
  const warmUpScripts = (): string => {
    const source = files.scripts;
    if (!source) return '';
    harfbuzz ??= instantiateHarfBuzz(source.harfbuzz());
    for (const info of FACES_AT_START) if (!loaded.has(info.file)) addFace(info, source.readAtStart(info.file));
    latinShaping ??= harfbuzz.face(withoutOutlines(latin.regular.file));
    for (const script of SCRIPTS) {
      breakOpportunities(script.sample);
      embeddingLevels(script.sample);
      const direction = isRightToLeft(script.sample) ? 'rtl' : 'ltr';
      if (script.harfbuzz) latinShaping.shape(script.sample, 0, script.sample.length, { direction, script: script.harfbuzz });
    }
    return SCRIPTS.filter((script) => FAMILIES_AT_START.includes(script.family))
      .map((script) => script.sample)
      .join('\n');
  };

  const zlib = instantiateZlib(files.zlib);
  return {
    regular,
    bold: textFace('bold'),
    undrawable,
    load,
    warmUpScripts,
    startDocument,
    zlib,
    embedding: new FontEmbedding(zlib),
  };
}
