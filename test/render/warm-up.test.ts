import { describe, expect, it, vi } from 'vitest';
import { SCRIPTS } from '../../src/contract/scripts.ts';
import { parseDocumentRequest } from '../../src/documents/request.ts';
import { warmUpRenderer } from '../../src/documents/warm-up.ts';
import { parseJson } from '../../src/json/parse.ts';
import { readFontFiles } from '../../src/render/font-files.ts';
import { FACES_AT_START, FAMILIES_AT_START, type FontSet, loadFonts } from '../../src/render/fonts.ts';
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
  fixture('script-invoices/hebrew.json'),
  fixture('script-invoices/armenian.json'),
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
    // For a template with items, one with as many as a request may hold; and one with text in the scripts whose
    // faces it loaded, right to left included.
    const withItems = TEMPLATES.filter((template) => Array.isArray((template.example.fields as { items?: unknown }).items));
    expect(documents).toHaveLength(TEMPLATES.length * 2 + withItems.length + 1);
    const scripts = documents.at(-1)!.join('\n');
    for (const family of FAMILIES_AT_START) expect(scripts).toContain(SCRIPTS.find((script) => script.family === family)!.sample);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(logged).not.toHaveBeenCalled();
    logged.mockRestore();
  });

  it('starts the shaper and loads the faces of the families at start, with no asynchronous read', async () => {
    const files = readFontFiles();
    const source = files.scripts!;
    const calls = { harfbuzz: 0, read: 0, readAtStart: [] as string[] };
    const fonts = loadFonts({
      ...files,
      scripts: {
        harfbuzz: () => {
          calls.harfbuzz++;
          return source.harfbuzz();
        },
        read: (file) => {
          calls.read++;
          return source.read(file);
        },
        readAtStart: (file) => {
          calls.readAtStart.push(file);
          return source.readAtStart(file);
        },
      },
    });
    fonts.warmUpScripts();
    const atStart = FACES_AT_START.map((info) => info.file);
    expect(new Set(FACES_AT_START.map((info) => `${info.family} ${info.weight}`))).toEqual(
      new Set(FAMILIES_AT_START.flatMap((family) => [`${family} regular`, `${family} bold`])),
    );
    expect(calls).toEqual({ harfbuzz: 1, read: 0, readAtStart: atStart });
    // Their text needs no load; the first text in another script loads its face, and finds the shaper started.
    for (const file of ['hebrew', 'armenian', 'arabic']) await render(fonts, fixture(`script-invoices/${file}.json`));
    expect(calls.read).toBe(0);
    await render(fonts, fixture('script-invoices/thai.json'));
    expect(calls).toEqual({ harfbuzz: 1, read: 2, readAtStart: atStart });
  });

  it('changes no later document’s bytes: the same as from fonts that never warmed up', async () => {
    const cold = loadFonts(readFontFiles());
    const warm = loadFonts(readFontFiles());
    warmUpRenderer(warm);
    for (const body of REQUESTS) expect(await render(warm, body)).toBe(await render(cold, body));
  });
});
