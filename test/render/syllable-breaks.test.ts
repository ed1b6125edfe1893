import { describe, expect, it } from 'vitest';
import { breakOpportunities } from '../../src/render/text/line-breaks.ts';

/** The word with a bar at each place a line may break. */
function marked(word: string): string {
  let out = '';
  let last = 0;
  for (const at of breakOpportunities(word)) {
    out += `${word.slice(last, at)}|`;
    last = at;
  }
  return out + word.slice(last);
}

describe('lines of Myanmar, Khmer and Lao break between syllables, never inside one', () => {
  it.each([
    ['မြန်မာနိုင်ငံ', 'မြန်|မာ|နိုင်|ငံ'],
    ['ကျေးဇူးတင်ပါသည်။', 'ကျေး|ဇူး|တင်|ပါ|သည်။'],
    ['ကုမ္ပဏီ', 'ကုမ္ပ|ဏီ'],
    ['ខ្មែរ', 'ខ្មែរ'],
    ['កម្ពុជា', 'ក|ម្ពុ|ជា'],
    ['ពាណិជ្ជកម្ម', 'ពា|ណិជ្ជកម្ម'],
    ['គីឡូក្រាម', 'គី|ឡូ|ក្រាម'],
    ['សួស្តី', 'សួ|ស្តី'],
    ['ສະບາຍດີ', 'ສະ|ບາຍ|ດີ'],
    ['ເມືອງລາວ', 'ເມືອງ|ລາວ'],
  ])('%s → %s', (word, expected) => {
    expect(marked(word)).toBe(expected);
  });

  it('leaves words of other scripts as they were', () => {
    expect(breakOpportunities('invoice')).toEqual([]);
    expect(breakOpportunities('नमस्ते')).toEqual([]);
    expect(breakOpportunities('ትምህርት')).toEqual([]);
  });
});
