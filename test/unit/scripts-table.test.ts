import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/contract/errors.ts';
import { DRAWN_SCRIPTS, SCRIPTS } from '../../src/contract/scripts.ts';
import { languageOfText } from '../../src/render/layout/structure.ts';
import { FALLBACK_FACES } from '../../src/render/text/font-coverage.ts';
import { CORPUS } from '../fixtures/scripts/corpus.ts';
import { ROOT } from '../support/processes.ts';

/** One row per script (issue 37): everything else that names a script is derived from src/contract/scripts.json. */
describe('the scripts table', () => {
  it('has, for each script with a font, its regular and bold files, listed in the fallback faces in the table’s order', () => {
    const withFonts = SCRIPTS.filter((script) => script.font);
    for (const script of withFonts) {
      for (const weight of ['Regular', 'Bold'])
        expect(existsSync(join(ROOT, 'fonts', `${script.font}-${weight}.ttf`)), script.font!).toBe(true);
    }
    const families = [...new Set(FALLBACK_FACES.map((face) => face.family))];
    const scriptFamilies = families.filter((family) => withFonts.some((script) => script.family === family));
    expect(scriptFamilies).toEqual([
      ...withFonts.filter((script) => script.beforeSymbols).map((script) => script.family),
      ...withFonts.filter((script) => !script.beforeSymbols).map((script) => script.family),
    ]);
    // The faces added later come after CJK, so no character an earlier face drew changes face.
    expect(families.indexOf('cjk')).toBeLessThan(families.indexOf(withFonts.find((script) => !script.beforeSymbols)!.family));
    expect(families.at(-1)).toBe('emoji');
  });

  it('names every script in the refusal of undrawable characters', () => {
    for (const script of SCRIPTS) expect(DRAWN_SCRIPTS).toContain(script.label);
    expect(ERRORS.render_rejected.details.undrawable_characters).toContain(DRAWN_SCRIPTS);
  });

  it('tags a text of each script with its language, and has a corpus line for each script with a font', () => {
    for (const script of SCRIPTS.filter((row) => row.font)) {
      const samples = Object.values(CORPUS).filter((entry) => entry.font === `${script.font}-Regular.ttf`);
      expect(samples.length, script.family).toBeGreaterThan(0);
      expect(languageOfText(samples[0]!.strings[0]!), script.family).toBe(script.language);
    }
  });
});
