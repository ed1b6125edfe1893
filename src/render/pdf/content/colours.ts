import type { Rgb } from '../../layout/canvas.ts';
import { decimalText as num } from '../ascii-buffer.ts';

/**
 * A document's colours' operators, made once per colour: a page changes colour at most texts (labels and values
 * alternate), and three numbers' strings per change were garbage. The layout draws with a palette of constants.
 */
export class ColourOperators {
  private readonly known = new Map<Rgb, { rg: string; RG: string }>();

  /** The operator that sets `color` for filling (`rg`) or stroking (`RG`). */
  of(color: Rgb, operator: 'rg' | 'RG'): string {
    let operators = this.known.get(color);
    if (!operators) {
      const components = `${num(color[0])} ${num(color[1])} ${num(color[2])}`;
      operators = { rg: `${components} rg`, RG: `${components} RG` };
      this.known.set(color, operators);
    }
    return operators[operator];
  }
}
