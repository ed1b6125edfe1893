import { describe, expect, it, vi } from 'vitest';
import { parseDocumentRequest } from '../../src/documents/request.ts';
import { warmUpRenderer } from '../../src/documents/warm-up.ts';
import { parseJson } from '../../src/json/parse.ts';
import { readFontFiles } from '../../src/render/font-files.ts';
import { type FontSet, loadFonts } from '../../src/render/fonts.ts';
import { renderPdf } from '../../src/render/index.ts';
import { TEMPLATES } from '../../src/templates/registry.ts';
import { renderInput } from '../../src/templates/template.ts';
import { sha256 } from '../support/pdf.ts';
import { fixture } from '../support/requests.ts';

/** Requests whose text is the warm-up's (the examples, Latin) and beyond it: a script face loaded after the warm-up. */
const REQUESTS = [
  ...TEMPLATES.flatMap((template) => [
    { ...template.example, mode: 'final' },
    { ...template.example, mode: 'preview', paper: 'letter' },
  ]),
  fixture('reference-invoice.json'),
  fixture('script-invoices/mixed.json'),
];

const render = (fonts: FontSet, body: unknown) =>
  renderPdf(renderInput(parseDocumentRequest(parseJson(JSON.stringify(body)))), fonts).then(sha256);

describe('the renderer warmed up when a process or isolate starts', () => {
  it('has laid out every template’s example, final and preview, before it returns, with no failure logged', async () => {
    const fonts = loadFonts(readFontFiles());
    const documents: string[][] = [];
    const startDocument = (values: readonly string[]) => {
      documents.push([...values]);
      fonts.startDocument(values);
    };
    const counted: FontSet = { ...fonts, startDocument };
    const logged = vi.spyOn(console, 'error');
    warmUpRenderer(counted);
    expect(documents).toHaveLength(TEMPLATES.length * 2);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(logged).not.toHaveBeenCalled();
    logged.mockRestore();
  });

  it('changes no later document’s bytes: the same as from fonts that never warmed up', async () => {
    const cold = loadFonts(readFontFiles());
    const warm = loadFonts(readFontFiles());
    warmUpRenderer(warm);
    for (const body of REQUESTS) expect(await render(warm, body)).toBe(await render(cold, body));
  });
});
