import type { SetLine } from '../../text/typeset.ts';
import { decimalText as num } from '../ascii-buffer.ts';

/** Runs of a line drawn one after the other, after the pen moves by `move` (see `LineStretches.of`). */
export interface Stretch {
  /** A TJ displacement, in thousandths of the font size: positive moves left. */
  readonly move: number;
  /** Indices into the line's runs, left to right. */
  readonly runs: readonly number[];
}

/**
 * The order a line's runs are drawn in: the order of the text, so that pdf.js, which reads a line's items in
 * drawing order (one item per font) and turns each right-to-left item around on its own, gives a right-to-left
 * line as sent. Runs of one script face side by side stay together, left to right: pdf.js makes one item of
 * them and orders its digits and words itself (Arabic text with Arabic-Indic digits); it leaves an item without
 * right-to-left letters as drawn, so the Latin face's runs (digits, punctuation between right-to-left words)
 * each keep their own place in the order. Runs that follow each other from left to right make one stretch;
 * before each stretch the pen moves from where the last one ended to the place of its first run in the visual
 * order, as the widths and adjustments the PDF draws with (the runs' `shown` advances) give it.
 * A TJ displacement says that exactly in thousandths of the font size (a Td would round to hundredths of a
 * point), so every glyph lands where drawing the runs left to right would put it. A line without right-to-left
 * text is one stretch without a move: drawn as before. One for a document's pages.
 */
export class LineStretches {
  /** One stretch of `count` runs in order, without a move, by `count`: shared, as most lines are one run. */
  private readonly inOrder: Stretch[][] = [];

  of(runs: SetLine['runs'], logicalOrder: readonly number[], shown: readonly { advance: number }[]): readonly Stretch[] {
    // Runs in the order of the text (every line without right-to-left text) are one stretch without a move. Checked
    // in a loop, as below and in hasSpan: a closure per text drawn was garbage.
    let inTextOrder = true;
    for (let index = 0; index < logicalOrder.length && inTextOrder; index++) inTextOrder = logicalOrder[index] === index;
    if (inTextOrder) return this.inTextOrder(runs.length);
    const rank: number[] = [];
    logicalOrder.forEach((index, place) => {
      rank[index] = place;
    });
    const blocks: number[][] = [];
    runs.forEach((run, index) => {
      const block = blocks.at(-1);
      if (block && runs[index - 1]!.face === run.face && 'info' in run.face) block.push(index);
      else blocks.push([index]);
    });
    const first = (block: number[]) => Math.min(...block.map((index) => rank[index]!));
    const starts: number[] = [];
    let end = 0;
    for (const { advance } of shown) {
      starts.push(end);
      end += advance;
    }
    const stretches: { move: number; runs: number[] }[] = [];
    let pen = 0;
    for (const index of blocks.sort((a, b) => first(a) - first(b)).flat()) {
      const move = pen - starts[index]!;
      const last = stretches.at(-1);
      if (last && num(move) === '0') last.runs.push(index);
      else stretches.push({ move, runs: [index] });
      pen = starts[index]! + shown[index]!.advance;
    }
    return stretches;
  }

  private inTextOrder(count: number): readonly Stretch[] {
    this.inOrder[count] ??= [{ move: 0, runs: Array.from({ length: count }, (_, index) => index) }];
    return this.inOrder[count];
  }
}
