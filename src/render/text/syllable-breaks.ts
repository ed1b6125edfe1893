import { SCRIPTS } from '../../contract/scripts.ts';

/**
 * Line breaks in the scripts written without spaces between words and without a dictionary here (scripts.json
 * `breaks: syllables`: Myanmar, Khmer, Lao): a line may break between two orthographic syllables, never inside
 * one. It is the quality of a browser without a word list for the script: a word of several syllables may end a
 * line in its middle, which readers of these scripts accept far more than a line cut inside a syllable (what
 * wrap.ts's last resort, between clusters, would otherwise do). A dictionary, as for Thai, is the next step.
 *
 * A syllable starts at a consonant or an independent vowel that is not subjoined (after a virama or coeng) and
 * not a final consonant (one followed by a killer: Myanmar asat or stacking virama, Khmer bantoc and its
 * kind); in Khmer and Lao, whose final consonants are written bare or with a subjoined consonant (Khmer កម្ម),
 * only a consonant followed by a vowel sign, alone or after a subjoined consonant (ក្រា), starts one, so some places
 * between syllables are missed rather than a syllable cut; a Lao vowel written before its consonant starts the
 * syllable itself. A break may also follow the script's own punctuation (Myanmar ၊ ။, Khmer ។ ៕).
 */
interface SyllableRules {
  /** The characters after which a consonant is subjoined (part of the syllable before). */
  readonly joiners: ReadonlySet<number>;
  /** The signs that make the consonant before them a final one. */
  readonly killers: ReadonlySet<number>;
  /** Whether a consonant without a sign after it starts a syllable (Myanmar: its inherent vowel is read). */
  readonly bareStarts: boolean;
  /** Vowels written before the consonant they follow in speech: a syllable starts at them. */
  readonly leadingVowels: ReadonlySet<number>;
  /** Vowel signs encoded as letters (Lao ະ າ ຳ), which follow their consonant as marks do. */
  readonly letterVowels: ReadonlySet<number>;
  /** Punctuation after which a line may break. */
  readonly breaksAfter: ReadonlySet<number>;
}

const range = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, index) => first + index);

const RULES: Readonly<Record<string, SyllableRules>> = {
  myanmar: {
    joiners: new Set([0x1039]),
    killers: new Set([0x103a, 0x1039]),
    bareStarts: true,
    leadingVowels: new Set(),
    letterVowels: new Set(),
    breaksAfter: new Set([0x104a, 0x104b]),
  },
  khmer: {
    joiners: new Set([0x17d2]),
    killers: new Set(range(0x17cb, 0x17d1)),
    bareStarts: false,
    leadingVowels: new Set(),
    letterVowels: new Set(),
    breaksAfter: new Set([0x17d4, 0x17d5]),
  },
  lao: {
    joiners: new Set(),
    killers: new Set(),
    bareStarts: false,
    leadingVowels: new Set(range(0x0ec0, 0x0ec4)),
    letterVowels: new Set(range(0x0eb0, 0x0ebc)),
    breaksAfter: new Set(),
  },
};

const SYLLABLE_SCRIPTS = SCRIPTS.filter((script) => script.breaks === 'syllables').map((script) => {
  const rules = RULES[script.family];
  if (!rules) throw new Error(`scripts.json: ${script.family} breaks by syllables, but syllable-breaks.ts has no rules for it`);
  return { letter: new RegExp(`^\\p{Script=${script.unicode}}$`, 'u'), rules };
});

const BASE = /^\p{Lo}$/u;
const MARK = /^\p{M}$/u;

/** UTF-16 indices inside `word` where a line may break between syllables of Myanmar, Khmer or Lao; [] for others. */
export function syllableBreaks(word: string): number[] {
  const chars = [...word];
  const breaks: number[] = [];
  let at = 0;
  for (let index = 0; index < chars.length; at += chars[index]!.length, index++) {
    if (index === 0) continue;
    const char = chars[index]!;
    const script = SYLLABLE_SCRIPTS.find((candidate) => candidate.letter.test(char));
    if (!script) continue;
    const { rules } = script;
    const code = char.codePointAt(0)!;
    const before = chars[index - 1]!.codePointAt(0)!;
    const after = chars[index + 1]?.codePointAt(0);
    if (rules.breaksAfter.has(before)) {
      breaks.push(at);
      continue;
    }
    if (rules.joiners.has(before) || rules.leadingVowels.has(before)) continue;
    if (rules.leadingVowels.has(code)) {
      breaks.push(at);
      continue;
    }
    if (!BASE.test(char) || rules.letterVowels.has(code) || (after !== undefined && rules.killers.has(after))) continue;
    const isVowel = (code: number | undefined) =>
      code !== undefined && ((MARK.test(String.fromCodePoint(code)) && !rules.joiners.has(code)) || rules.letterVowels.has(code));
    // A consonant with a subjoined one and a vowel after them (Khmer ក្រា) starts a syllable; without a vowel the pair
    // ends one (Khmer ម្ម).
    const signed = isVowel(after) || (after !== undefined && rules.joiners.has(after) && isVowel(chars[index + 3]?.codePointAt(0)));
    if (signed || rules.bareStarts) breaks.push(at);
  }
  return breaks;
}
