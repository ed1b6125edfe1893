import { LIMITS } from '../contract/limits.ts';
import type { JsonValue } from '../json/parse.ts';
import { log } from '../log.ts';
import type { FontSet } from '../render/fonts.ts';
import { renderPdf } from '../render/index.ts';
import { TEMPLATES } from '../templates/registry.ts';
import { renderInput } from '../templates/template.ts';
import { parseDocumentRequest } from './request.ts';

/**
 * Renders every template's example once as a preview and once as a final, and runs each script's code on its
 * sample (FontSet.warmUpScripts), when a process or isolate starts: the first request would otherwise pay for V8
 * compiling the renderer's code (tens of ms, measured in `npm run bench`), and on Workers that counts against the
 * request's CPU limit, while the isolate's start has a budget of its own (400 ms). The examples' text is Latin,
 * which the bundled faces draw without loading anything, so everything runs to the end before this returns. What
 * it leaves behind (lines set, font subsets, the shaper) changes no later document's bytes.
 */
export function warmUpRenderer(fonts: FontSet): void {
  let scripts = '';
  try {
    scripts = fonts.warmUpScripts();
  } catch (error) {
    failed('the scripts', error);
  }
  for (const template of TEMPLATES) {
    render(fonts, { ...template.example, mode: 'preview' });
    render(fonts, { ...template.example, mode: 'final' });
    // As many items as a request may hold: the pages after the first, their running head, the totals on the last.
    const { items } = template.example.fields as { items?: unknown[] };
    if (items?.length) {
      const many = Array.from({ length: LIMITS.maxLineItems }, (_, index) => items[index % items.length]);
      render(fonts, { ...template.example, mode: 'final', fields: { ...(template.example.fields as object), items: many } });
    }
  }
  // Text in the scripts whose faces are loaded: the code a script face's text goes through, right to left included.
  const { example } = TEMPLATES[0]!;
  if (scripts) render(fonts, { ...example, mode: 'final', fields: { ...(example.fields as object), client_details: scripts } });
}

function render(fonts: FontSet, body: Record<string, unknown>): void {
  try {
    renderPdf(renderInput(parseDocumentRequest(body as JsonValue)), fonts).catch((error: unknown) => failed('the renderer', error));
  } catch (error) {
    failed('the renderer', error);
  }
}

/** A warm-up that fails costs the first request its compiling, and nothing else: it is logged, never thrown. */
function failed(what: string, error: unknown): void {
  log('warn', 'warm_up_failed', { error: `warming ${what} up: ${String(error)}` });
}
