import { sha256Hex } from '../hash.ts';
import { parseJson } from '../json/parse.ts';
import type { TemplateDefinition } from '../templates/template.ts';
import { documentFilename } from './filename.ts';
import { type RenderDeps, renderDocument } from './render.ts';
import { parseDocumentRequest } from './request.ts';

/** A template's own example, rendered as a preview: the front door's sample. */
export interface Sample {
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly sha256: string;
  readonly filename: string;
}

/**
 * The samples of one process or isolate: each template's example rendered once, on first asking, and kept (a few
 * tens of kilobytes each), so that the front door's links cost a render once and nothing after. The bytes are the
 * same every time (9.7), so a browser's cache may keep them too.
 */
export class TemplateSamples {
  private readonly made = new Map<string, Promise<Sample>>();
  private readonly deps: RenderDeps;

  constructor(deps: RenderDeps) {
    this.deps = deps;
  }

  of(template: TemplateDefinition): Promise<Sample> {
    let sample = this.made.get(template.slug);
    if (!sample) {
      sample = this.render(template);
      // A render that failed (a font out of reach) is tried again by the next request, not kept.
      sample.catch(() => this.made.delete(template.slug));
      this.made.set(template.slug, sample);
    }
    return sample;
  }

  private async render(template: TemplateDefinition): Promise<Sample> {
    // Read as the API reads a body, so the sample is the document GET /api/v1/templates/{slug}'s example makes.
    const document = parseDocumentRequest(parseJson(JSON.stringify({ ...template.example, mode: 'preview' })));
    const bytes = await renderDocument(document, { asJson: false, onRendered: () => {} }, this.deps);
    return { bytes, sha256: sha256Hex(bytes), filename: documentFilename(document) };
  }
}
