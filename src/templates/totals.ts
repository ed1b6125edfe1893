import { TOTALS_MEMBERS, type TotalsMember } from '../contract/totals.ts';
import { Decimal, formatPlain, roundMinor } from '../money/decimal.ts';
import type { LineItem } from './field-types.ts';

/** The money figures a document prints (spec 2.7); a member the template does not state is absent. */
export type Totals = { currency: string } & { [Member in TotalsMember]?: Decimal };

/** Line amount: quantity × unit price, rounded half away from zero to the minor unit (spec 2.3). */
export function lineAmount(item: LineItem, digits: number): Decimal {
  return roundMinor(item.quantity.value.times(item.unitPrice.value), digits);
}

export function sumOfLines(items: readonly LineItem[], digits: number): Decimal {
  return items.reduce((sum, item) => sum.plus(lineAmount(item, digits)), new Decimal(0));
}

/** Rate percent of an amount, rounded half away from zero to the minor unit (the rounding this service chose). */
export function percentOf(amount: Decimal, rate: Decimal, digits: number): Decimal {
  return roundMinor(amount.times(rate).dividedBy(100), digits);
}

/** The Totals object as answered: strings with exactly the minor digits, members in the order of 2.7. */
export function totalsObject(totals: Totals, digits: number): Record<string, string> {
  const object: Record<string, string> = { currency: totals.currency };
  for (const member of TOTALS_MEMBERS) {
    const value = totals[member];
    if (value !== undefined) object[member] = formatPlain(value, digits);
  }
  return object;
}
