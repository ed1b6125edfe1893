import table from './scripts.json' with { type: 'json' };

/**
 * How a script's text breaks into lines beyond spaces: `spaces` (words are separated by spaces), `thai-dictionary`
 * (the Thai word list, src/render/text/thai-words.ts), `syllables` (no spaces between words, no dictionary here: lines
 * break between orthographic syllables, never inside one).
 */
export type ScriptBreaks = 'spaces' | 'thai-dictionary' | 'syllables';

/** One writing system drawn beyond Latin: a row of scripts.json. */
export interface Script {
  /** The fallback family its font is listed under in src/render/text/font-coverage.ts. */
  readonly family: string;
  /** How docs/rendering.md, the errors page and the refusal of undrawable characters name it. */
  readonly label: string;
  /** Its Unicode Script property value, for `\p{Script=…}`. */
  readonly unicode: string;
  /** The Noto font file stem in fonts/ (`-Regular.ttf`, `-Bold.ttf`); null when the Latin faces draw it. */
  readonly font: string | null;
  /** HarfBuzz's script tag (ISO 15924), which selects its shaper; null for the Latin faces' own shaper. */
  readonly harfbuzz: string | null;
  /** The language its text is tagged with (/Lang), that of most of its writers. */
  readonly language: string;
  /**
   * A business name written in it, on which the service runs the script's code when it starts
   * (FontSet.warmUpScripts), so that a request's first text in the script does not pay for compiling it.
   */
  readonly sample: string;
  /** Whether its glyphs are drawn in another order than its text (right to left, pre-base vowels): /ActualText. */
  readonly reordered: boolean;
  /** Its viramas (hex code points): with the consonant after them they draw one conjunct, never cut in two. */
  readonly viramas: readonly string[];
  readonly breaks: ScriptBreaks;
  /** True for the scripts bundled before the symbol faces; new rows come after CJK and change no older document. */
  readonly beforeSymbols: boolean;
  /**
   * Space added above a line that holds the script, in ems of its size: stacks taller than Latin letters (Tibetan,
   * Myanmar) would otherwise touch the marks of the line above.
   */
  readonly lineGap: number;
}

export const SCRIPTS: readonly Script[] = table.scripts as readonly Script[];

/** The scripts with a font of their own, by fallback family. */
export const SCRIPT_OF_FAMILY: ReadonlyMap<string, Script> = new Map(
  SCRIPTS.filter((script) => script.font).map((script) => [script.family, script]),
);

/** A pattern matching a letter of any of the scripts. */
export function scriptPattern(scripts: readonly Script[]): RegExp {
  return new RegExp(`[${scripts.map((script) => `\\p{Script=${script.unicode}}`).join('')}]`, 'u');
}

/** The writing systems the bundled fonts draw (fonts/README.md), as README and the errors page list them. */
export const DRAWN_SCRIPTS = [
  'Latin (with Vietnamese)',
  ...SCRIPTS.map((script) => script.label),
  'Chinese (Simplified and Traditional), Japanese, Korean',
  'emoji (in one colour, sequences such as flags, skin tones and families as one sign)',
  'every currency sign U+20A0–U+20C0 and the common punctuation and symbols of business text',
].join(', ');
