import { EngineBusy, RenderTimedOut } from './errors.ts';
import type { FontSet } from './fonts.ts';
import { type RenderInput, renderPdf } from './index.ts';

/** Seconds a client is told to wait on 503 engine_busy: a render slot frees as soon as a render ends. */
export const ENGINE_BUSY_RETRY_AFTER_SECONDS = 1;

interface EngineLimits {
  /** Renders one process runs at once; more are refused with EngineBusy. */
  renderConcurrency: number;
  /** A render that takes longer is discarded with RenderTimedOut. */
  renderTimeoutMs: number;
}

/**
 * The PDF engine of one process or isolate. Renders run in the request's own thread (`npm run bench` prints
 * how long one takes), so the engine bounds how many run at once and how long one may take.
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

  async render(input: RenderInput): Promise<Uint8Array<ArrayBuffer>> {
    if (this.inFlight >= this.limits.renderConcurrency) throw new EngineBusy();
    this.inFlight++;
    const started = performance.now();
    try {
      const bytes = await renderPdf(input, this.fonts);
      if (performance.now() - started > this.limits.renderTimeoutMs) throw new RenderTimedOut(this.limits.renderTimeoutMs);
      return bytes;
    } finally {
      this.inFlight--;
    }
  }
}
