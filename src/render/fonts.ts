import fontkit from '@pdf-lib/fontkit';
import { EngineUnavailable } from './errors.ts';
import type { FontFace, FontWeight, ScriptFace } from './faces.ts';
import { covers, fallbacksOf } from './fallback.ts';
import type { FallbackFaceInfo } from './font-coverage.ts';
import { type HarfBuzz, instantiateHarfBuzz } from './harfbuzz.ts';
import { SeenBefore } from './seen-before.ts';
import { createShaper } from './shaping.ts';
import { isDefaultIgnorable } from './text.ts';
import { readTrueType, withoutOutlines } from './truetype.ts';
import { type SetLine, setLine } from './typeset.ts';
import { instantiateZlib, type Zlib } from './zlib.ts';

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
}

export interface FontSet {
  readonly regular: TextFace;
  readonly bold: TextFace;
  /** The characters of a text that no bundled font draws, each once, in the order they come. */
  undrawable(text: string): string[];
  /** Loads script faces a layout asked for (FontsNotLoaded); from then on they draw synchronously. */
  load(faces: readonly FallbackFaceInfo[]): Promise<void>;
  /** The compressor of the PDF's streams, the embedded font files among them. */
  readonly zlib: Zlib;
}

/** Where the script faces and the shaper come from in a runtime: files on Bun and Node, static assets on Workers. */
interface ScriptFontSource {
  harfbuzz(): Promise<WebAssembly.Module>;
  read(file: string): Promise<Uint8Array>;
}

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

export function loadFonts(files: FontFiles): FontSet {
  const latin = { regular: loadLatinFace(files.regular, 'NotoSans-Regular'), bold: loadLatinFace(files.bold, 'NotoSans-Bold') };
  const loaded = new Map<string, ScriptFace>();
  let harfbuzz: HarfBuzz | undefined;

  const scriptFace = (info: FallbackFaceInfo): ScriptFace | undefined => loaded.get(info.file);

  const textFace = (weight: FontWeight): TextFace => {
    const face = latin[weight];
    const fallbacks = files.scripts ? fallbacksOf(weight) : [];
    /**
     * Per regional form of Han characters (none for most text), the lines set: a key joining the language and the
     * text was ambiguous (`ja` with `東京` and none with `ja 東京` were one key), and one request's line could be
     * drawn in another's document.
     */
    const lines = new Map<string | undefined, Map<string, SetLine>>();
    const seen = new SeenBefore(LINES_SEEN);
    let cachedChars = 0;
    // The first face of a character, found once: CJK text would otherwise search every face before the CJK one.
    const firstFaces = new Map<number, number>();
    const firstCovering = (codePoint: number): number => {
      let found = firstFaces.get(codePoint);
      if (found === undefined) {
        found = face.glyphOf(codePoint) !== undefined ? -1 : fallbacks.findIndex((fallback) => covers(fallback.info, codePoint));
        firstFaces.set(codePoint, found);
      }
      return found;
    };
    const set = (text: string, cjkLanguage?: string): SetLine => {
      const known = lines.get(cjkLanguage)?.get(text);
      if (known) return known;
      const line = setLine(text, { latin: face, fallbacks, scriptFace, firstCovering }, cjkLanguage);
      // Seen by its text alone: a text set in two languages is only kept the earlier for it.
      if (text.length > CACHED_LINE_LENGTH || !seen.check(text)) return line;
      if (cachedChars + text.length > LINE_CACHE_CHARS) {
        lines.clear();
        cachedChars = 0;
      }
      let ofLanguage = lines.get(cjkLanguage);
      if (!ofLanguage) {
        ofLanguage = new Map();
        lines.set(cjkLanguage, ofLanguage);
      }
      ofLanguage.set(text, line);
      cachedChars += text.length;
      return line;
    };
    return {
      latin: face,
      draws: (codePoint) => firstCovering(codePoint) >= 0 || face.glyphOf(codePoint) !== undefined,
      widthOf: (text, size) => (face.drawsAlone(text) ? face.widthOf(text, size) : (set(text).width * size) / 1000),
      setLine: set,
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
      harfbuzz = await instantiateHarfBuzz(await source.harfbuzz());
    });
    const shaper = harfbuzz!;
    await Promise.all(
      faces.map((info) =>
        once(info.file, info.file, async () => {
          const file = readTrueType(await source.read(info.file));
          loaded.set(info.file, {
            info,
            postscriptName: info.file.replace(/\.ttf$/, ''),
            file,
            harfbuzz: shaper.face(withoutOutlines(file)),
          });
        }),
      ),
    );
  };

  const regular = textFace('regular');
  const undrawable = (text: string): string[] => {
    if (latin.regular.drawsAlone(text)) return [];
    const found = new Set<string>();
    for (const char of text) {
      const codePoint = char.codePointAt(0)!;
      if (char !== '\n' && !isDefaultIgnorable(codePoint) && !regular.draws(codePoint)) found.add(char);
    }
    return [...found];
  };

  return { regular, bold: textFace('bold'), undrawable, load, zlib: instantiateZlib(files.zlib) };
}
