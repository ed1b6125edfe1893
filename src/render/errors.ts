/**
 * What the renderer refuses, in its own terms; the use case that asked for the render turns each into the
 * contract's answer (render_rejected, engine_busy, render_timeout).
 */

/** A character no bundled font can draw: the document is refused rather than printed with empty boxes. */
export class UndrawableText extends Error {
  readonly codePoints: number[];
  constructor(codePoints: number[]) {
    super(`cannot draw ${codePointNames(codePoints)}`);
    this.codePoints = codePoints;
  }
}

/** Code points as Unicode writes them: `U+00E9, U+1F600`. */
export function codePointNames(codePoints: readonly number[]): string {
  return codePoints.map((cp) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`).join(', ');
}

/** Every render slot of this process is taken. */
export class EngineBusy extends Error {
  constructor() {
    super('every render slot is taken');
  }
}

/** The render finished after its time budget; its bytes are discarded. */
export class RenderTimedOut extends Error {
  constructor(budgetMs: number) {
    super(`render took longer than ${budgetMs} ms`);
  }
}
