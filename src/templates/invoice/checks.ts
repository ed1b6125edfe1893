import { LIMITS } from '../../contract/limits.ts';
import { Decimal } from '../../money/decimal.ts';
import type { Problem } from '../field-types.ts';
import type { CheckInput, CheckResult } from '../template.ts';
import { percentOf, sumOfLines } from '../totals.ts';
import type { INVOICE_FIELDS } from './fields.ts';
import { EPC_MAX_AMOUNT, EPC_REMITTANCE_MAX_CHARS, PAYMENT_CODES } from './payment-codes.ts';

/** The payment code's own rules (issue 39): its account fields sent, its currency, its amount, its lengths. */
function paymentCodeProblems(
  { values, sent, currency }: Pick<CheckInput<typeof INVOICE_FIELDS>, 'values' | 'sent' | 'currency'>,
  balanceDue: Decimal | undefined,
): Problem[] {
  const code = values.payment_code;
  if (code === undefined) return [];
  const scheme = PAYMENT_CODES[code];
  const problems: Problem[] = [];
  for (const needed of scheme.needs) {
    if (!sent.has(needed))
      problems.push({ code: 'requires_field', path: ['payment_code'], message: `payment_code ${code} needs ${needed}.` });
  }
  if (scheme.currency !== undefined && currency !== undefined && currency !== scheme.currency) {
    problems.push({
      code: 'payment_code_currency',
      path: ['payment_code'],
      message: `payment_code ${code} takes ${scheme.currency} only.`,
    });
  }
  if (code === 'sepa' && balanceDue?.gt(EPC_MAX_AMOUNT)) {
    problems.push({ code: 'payment_code_amount', path: ['payment_code'], message: `An EPC code carries at most ${EPC_MAX_AMOUNT} EUR.` });
  }
  const name = values.seller_name;
  if (scheme.nameMaxChars !== undefined && name !== undefined && [...name].length > scheme.nameMaxChars) {
    problems.push({
      code: 'too_long_for_payment_code',
      path: ['seller_name'],
      message: `payment_code ${code} carries a name of at most ${scheme.nameMaxChars} characters.`,
    });
  }
  const number = values.invoice_number;
  if (code === 'sepa' && !values.creditor_reference && number !== undefined && [...number].length > EPC_REMITTANCE_MAX_CHARS) {
    problems.push({
      code: 'too_long_for_payment_code',
      path: ['invoice_number'],
      message: `An EPC code's remittance carries at most ${EPC_REMITTANCE_MAX_CHARS} characters: send a creditor_reference.`,
    });
  }
  return problems;
}

const SUBTOTAL_CEILING = new Decimal(`1e${LIMITS.subtotalDigits}`);

/** Invoice cross-field rules 3–7 of spec 2.5 and its totals. */
export function checkInvoice({ values, sent, currency, digits }: CheckInput<typeof INVOICE_FIELDS>): CheckResult {
  const problems: Problem[] = [];
  if (sent.has('tax_label') && !sent.has('tax_rate')) {
    problems.push({ code: 'requires_field', path: ['tax_label'], message: 'tax_label needs tax_rate.' });
  }
  const { items } = values;
  const refused = (name: keyof typeof INVOICE_FIELDS) => sent.has(name) && values[name] === undefined;
  if (!items || currency === undefined || digits === undefined) {
    problems.push(...paymentCodeProblems({ values, sent, currency }, undefined));
    return { problems, totals: undefined };
  }

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
    problems.push({ code: 'total_too_large', path: ['items'], message: `The subtotal must be below 10^${LIMITS.subtotalDigits}.` });
    return { problems, totals: undefined };
  }

  const discount = values.discount
    ? values.discount.kind === 'amount'
      ? values.discount.amount
      : percentOf(subtotal, values.discount.rate, digits)
    : undefined;
  if (discount?.gt(subtotal)) {
    problems.push({ code: 'discount_too_large', path: ['discount'], message: 'The discount is larger than the subtotal.' });
  }
  const afterDiscount = subtotal.minus(discount ?? 0);
  const tax = values.tax_rate ? percentOf(afterDiscount, values.tax_rate, digits) : undefined;
  const total = afterDiscount.plus(tax ?? 0);
  const amountPaid = values.amount_paid;
  if (amountPaid?.gt(total)) {
    problems.push({ code: 'amount_paid_too_large', path: ['amount_paid'], message: 'The amount paid is larger than the total.' });
  }
  problems.push(...paymentCodeProblems({ values, sent, currency }, total.minus(amountPaid ?? 0)));
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
