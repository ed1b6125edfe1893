import { Decimal } from '../../money/decimal.ts';
import type { Discount, LineItem, Problem } from '../field-types.ts';
import { type CheckInput, type CheckResult, percentOf, sumOfLines } from '../totals.ts';

const SUBTOTAL_CEILING = new Decimal('1e15');

/** Invoice cross-field rules 3–7 of spec 2.5 and its totals. */
export function checkInvoice({ values, sent, currency, digits }: CheckInput): CheckResult {
  const problems: Problem[] = [];
  if (sent.has('tax_label') && !sent.has('tax_rate')) {
    problems.push({ code: 'requires_field', path: ['tax_label'], message: 'tax_label needs tax_rate.' });
  }
  const items = values.items as LineItem[] | undefined;
  const refused = (name: string) => sent.has(name) && values[name] === undefined;
  if (!items || currency === undefined || digits === undefined) return { problems, totals: undefined };

  const subtotal = sumOfLines(items, digits);
  if (subtotal.isNegative()) {
    problems.push({
      code: 'negative_total',
      path: ['items'],
      message: `The subtotal is ${subtotal.toFixed(digits)}; it must be at least 0.`,
    });
    return { problems, totals: undefined };
  }
  if (subtotal.gte(SUBTOTAL_CEILING)) {
    problems.push({ code: 'total_too_large', path: ['items'], message: 'The subtotal must be below 10^15.' });
    return { problems, totals: undefined };
  }

  const discountInput = values.discount as Discount | undefined;
  const discount = discountInput
    ? discountInput.kind === 'amount'
      ? discountInput.amount
      : percentOf(subtotal, discountInput.rate, digits)
    : undefined;
  if (discount?.gt(subtotal)) {
    problems.push({ code: 'discount_too_large', path: ['discount'], message: 'The discount is larger than the subtotal.' });
  }
  const taxRate = values.tax_rate as Decimal | undefined;
  const afterDiscount = subtotal.minus(discount ?? 0);
  const tax = taxRate ? percentOf(afterDiscount, taxRate, digits) : undefined;
  const total = afterDiscount.plus(tax ?? 0);
  const amountPaid = values.amount_paid as Decimal | undefined;
  if (amountPaid?.gt(total)) {
    problems.push({ code: 'amount_paid_too_large', path: ['amount_paid'], message: 'The amount paid is larger than the total.' });
  }
  if (problems.length || refused('discount') || refused('tax_rate') || refused('amount_paid')) return { problems, totals: undefined };

  return {
    problems,
    totals: {
      currency,
      subtotal,
      ...(discount ? { discount } : {}),
      ...(tax ? { tax } : {}),
      total,
      ...(amountPaid ? { amount_paid: amountPaid } : {}),
      balance_due: total.minus(amountPaid ?? 0),
    },
  };
}
