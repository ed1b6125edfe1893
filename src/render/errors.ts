/**
 * What the renderer refuses, in its own terms; the use case that asked for the render turns each into the
 * contract's answer (render_rejected, engine_busy, render_timeout).
 */

/** Characters no bundled font draws in a value, and where the value is (`fields.client_name`), when known. */
interface UndrawableValue {
  readonly field?: string;
  readonly characters: readonly string[];
}

/** Characters no bundled font can draw: the document is refused rather than printed with empty boxes. */
export class UndrawableText extends Error {
  readonly values: readonly UndrawableValue[];
  constructor(values: readonly UndrawableValue[]) {
    super(`cannot draw ${values.map((value) => characterNames(value.characters)).join('; ')}`);
    this.values = values;
  }
}

/** Characters as a reader finds them in the text, each with its code point: `"😀" (U+1F600)`. */
export function characterNames(characters: readonly string[]): string {
  return characters.map((char) => `"${char}" (U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`).join(', ');
}

/** A part of the engine a text needs (a script font, the shaper) could not be loaded; a later render tries again. */
export class EngineUnavailable extends Error {
  constructor(what: string, cause: unknown) {
    super(`could not load ${what}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
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
