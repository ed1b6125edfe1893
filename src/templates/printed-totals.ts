import type { BusinessDocument, TotalsRow } from '../render/layout/document.ts';
import { layoutValues } from '../render/text/text.ts';
import type { TemplateDefinition } from './template.ts';
import type { Totals } from './totals.ts';

/** A checked document as the template lays it out. */
interface CheckedDocument {
  readonly template: TemplateDefinition;
  readonly values: Readonly<Record<string, unknown>>;
  readonly totals: Totals;
  readonly currency: string;
  readonly digits: number;
}

/**
 * The money rows exactly as the template prints them (labels and figures: `Discount (10%)`, `EUR 1,234.00`),
 * read by running the template's own layout against a document that only writes down its totals, so that a page
 * showing them can never disagree with the PDF, and a new template needs nothing here.
 */
export function printedTotals(document: CheckedDocument): TotalsRow[] {
  const rows: TotalsRow[] = [];
  const recorder: Partial<Record<keyof BusinessDocument, (...args: never[]) => void>> = {
    itemsWithTotals: (_columns: unknown, _rows: unknown, totals: TotalsRow[]) => rows.push(...totals),
    totals: (totals: TotalsRow[]) => rows.push(...totals),
    amountReceived: (label: string, value: string) => rows.push({ label, value, weight: 'emphasis' }),
  };
  // Every other call of the layout (text, sections, the signature block) draws nothing here.
  const document_ = new Proxy(recorder, { get: (target, name) => target[name as keyof BusinessDocument] ?? (() => {}) });
  document.template.layout({
    document: document_ as unknown as BusinessDocument,
    values: layoutValues(document.values),
    totals: document.totals,
    currency: document.currency,
    digits: document.digits,
  });
  return rows;
}
