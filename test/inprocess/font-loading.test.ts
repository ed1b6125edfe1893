import { describe, expect, it } from 'vitest';
import { readFontFiles } from '../../src/render/font-files.ts';
import { loadFonts } from '../../src/render/fonts.ts';
import { seedCaller } from '../support/accounts.ts';
import { createTestApp } from '../support/app.ts';
import { expectError, finalInvoice, ledger, makeDocument } from '../support/documents.ts';

/** The bundled fonts, with the first `failures` reads of a script font (or of the shaper) failing. */
function failingFirst(failures: number, part: 'read' | 'harfbuzz') {
  const files = readFontFiles();
  const source = files.scripts!;
  let left = failures;
  const calls = { read: 0, harfbuzz: 0 };
  const called = (which: 'read' | 'harfbuzz') => {
    calls[which]++;
    if (which === part && left > 0) {
      left--;
      throw new Error('static assets answered 500');
    }
  };
  const fonts = loadFonts({
    ...files,
    scripts: {
      harfbuzz: () => {
        called('harfbuzz');
        return source.harfbuzz();
      },
      read: async (file) => {
        called('read');
        return source.read(file);
      },
      readAtStart: source.readAtStart,
    },
  });
  return { fonts, calls };
}

describe('a script font that cannot be loaded', () => {
  it.each(['read', 'harfbuzz'] as const)(
    'answers 502 engine_unavailable, charges nothing, and the next request loads it (%s fails once)',
    async (part) => {
      const { fonts, calls } = failingFirst(1, part);
      const app = await createTestApp({ fonts });
      const caller = await seedCaller(app, { credits: 5 });
      const arabic = finalInvoice({ client_name: 'شركة الأمل للتجارة' });
      const body = await expectError(await makeDocument(app, caller, arabic, { key: 'k-fonts' }), 502, 'engine_unavailable');
      expect(body.credit_used).toBe(false);
      expect(body.error.message).not.toContain('static assets');
      expect(await ledger(app, caller)).toMatchObject({ credits: 5, documents: 0 });
      expect((await makeDocument(app, caller, arabic, { key: 'k-fonts' })).status).toBe(201);
      expect(await ledger(app, caller)).toMatchObject({ credits: 4, documents: 1 });
      expect(calls[part]).toBe(2);
    },
  );

  it('is loaded once for renders that need it at the same time', async () => {
    const { fonts, calls } = failingFirst(0, 'read');
    const app = await createTestApp({ fonts });
    const caller = await seedCaller(app, { credits: 5 });
    const answers = await Promise.all(
      ['شركة الأمل', 'مؤسسة النور'].map((client_name) => makeDocument(app, caller, finalInvoice({ client_name }))),
    );
    expect(answers.map((answer) => answer.status)).toEqual([201, 201]);
    expect(calls).toEqual({ read: 1, harfbuzz: 1 });
  });
});
