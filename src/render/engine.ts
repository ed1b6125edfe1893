import { HEADERS } from '../contract/headers.ts';
import type { DocumentRequest } from '../documents/request.ts';
import { ApiError } from '../http/api-error.ts';
import type { FontSet } from './fonts.ts';
import { renderPdf } from './index.ts';

export interface EngineLimits {
  /** Renders one process runs at once; more get 503 engine_busy. */
  renderConcurrency: number;
  /** A render that takes longer is discarded with 504 render_timeout (nothing is charged). */
  renderTimeoutMs: number;
}

/**
 * The PDF engine of one process or isolate. Renders run in the request's own thread (a 50-line invoice takes
 * about 2 ms; see README), so the engine bounds how many run at once and how long one may take.
 * workerd's clock does not advance during CPU work, so there the time budget is the platform's CPU limit.
 */
export class RenderEngine {
  private inFlight = 0;
  private readonly fonts: FontSet;
  private readonly limits: EngineLimits;

  constructor(fonts: FontSet, limits: EngineLimits) {
    this.fonts = fonts;
    this.limits = limits;
  }

  async render(request: DocumentRequest): Promise<Uint8Array<ArrayBuffer>> {
    if (this.inFlight >= this.limits.renderConcurrency) {
      throw new ApiError('engine_busy', {
        message: 'The PDF engine is at capacity; retry shortly. Nothing was charged.',
        headers: { [HEADERS.retryAfter]: '1' },
      });
    }
    this.inFlight++;
    const started = performance.now();
    try {
      const bytes = await renderPdf(request, this.fonts);
      if (performance.now() - started > this.limits.renderTimeoutMs) {
        throw new ApiError('render_timeout', { message: 'Rendering took too long; nothing was charged.' });
      }
      return bytes;
    } finally {
      this.inFlight--;
    }
  }
}
