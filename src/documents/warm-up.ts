import type { JsonValue } from '../json/parse.ts';
import { log } from '../log.ts';
import type { FontSet } from '../render/fonts.ts';
import { renderPdf } from '../render/index.ts';
import { TEMPLATES } from '../templates/registry.ts';
import { renderInput } from '../templates/template.ts';
import { parseDocumentRequest } from './request.ts';

/**
 * Renders every template's example once as a preview and once as a final, when a process or isolate starts: the
 * first request would otherwise pay for V8 compiling the renderer's code (tens of ms, measured in `npm run bench`),
 * and on Workers that counts against the request's CPU limit, while the isolate's start has a budget of its own.
 * The examples' text is Latin, which the bundled faces draw without loading anything, so the renders run to the end
 * before this returns. What they leave behind (lines set, font subsets) changes no later document's bytes.
 */
export function warmUpRenderer(fonts: FontSet): void {
  for (const template of TEMPLATES) {
    for (const mode of ['preview', 'final']) {
      const document = parseDocumentRequest({ ...template.example, mode } as JsonValue);
      renderPdf(renderInput(document), fonts).catch((error: unknown) => {
        log('warn', 'warm_up_failed', { error: `warming the renderer up: ${String(error)}` });
      });
    }
  }
}
