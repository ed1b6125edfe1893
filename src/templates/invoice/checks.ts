import { LIMITS } from '../../contract/limits.ts';
import { Decimal } from '../../money/decimal.ts';
import type { Problem } from '../field-types.ts';
import type { CheckInput, CheckResult } from '../template.ts';
import { percentOf, sumOfLines } from '../totals.ts';
import type { INVOICE_FIELDS } from './fields.ts';
import {
  EPC_MAX_AMOUNT,
  EPC_REMITTANCE_MAX_CHARS,
  isQrIban,
  PAYMENT_CODES,
  paymentCodeInputOf,
  QR_BILL_COUNTRIES,
  QR_BILL_MESSAGE_MAX_CHARS,
  QR_BILL_PAYLOAD_MAX_BYTES,
  QR_BILL_TEXT,
  qrBillPayload,
} from './payment-codes.ts';

type InvoiceValues = CheckInput<typeof INVOICE_FIELDS>['values'];

/** The values a Swiss QR-bill carries as text, which must be in its character set. */
const QR_BILL_TEXT_FIELDS = [
  'seller_name',
  'payee_street',
  'payee_building_number',
  'payee_postal_code',
  'payee_town',
  'invoice_number',
] as const satisfies readonly (keyof typeof INVOICE_FIELDS)[];

/** The Swiss QR-bill's own rules: a CH or LI IBAN, the reference its IBAN takes, its characters, its message's length. */
function qrBillProblems(
  values: InvoiceValues,
  sent: ReadonlySet<string>,
  balanceDue: Decimal | undefined,
  currency: string | undefined,
): Problem[] {
  const problems: Problem[] = [];
  const iban = values.payee_iban;
  if (iban !== undefined) {
    const account = (message: string) => problems.push({ code: 'payment_code_account', path: ['payee_iban'], message });
    if (!QR_BILL_COUNTRIES.some((country) => iban.startsWith(country))) account('A Swiss QR-bill takes a CH or LI IBAN only.');
    else if (isQrIban(iban)) {
      // A reference sent but refused is its own problem, not a missing one.
      if (!sent.has('qr_reference')) account('A QR-IBAN takes a qr_reference: send one.');
      if (sent.has('creditor_reference')) account('A QR-IBAN takes a qr_reference, not a creditor_reference.');
    } else if (sent.has('qr_reference')) account('A qr_reference needs a QR-IBAN (institution id 30000 to 31999).');
  }
  for (const field of QR_BILL_TEXT_FIELDS) {
    const value = values[field];
    if (value !== undefined && !QR_BILL_TEXT.test(value)) {
      problems.push({
        code: 'payment_code_characters',
        path: [field],
        message: 'A Swiss QR-bill carries Latin letters, digits and punctuation only.',
      });
    }
  }
  const number = values.invoice_number;
  if (number !== undefined && [...`Invoice ${number}`].length > QR_BILL_MESSAGE_MAX_CHARS) {
    problems.push({
      code: 'too_long_for_payment_code',
      path: ['invoice_number'],
      message: `A Swiss QR-bill's message (Invoice and the number) carries at most ${QR_BILL_MESSAGE_MAX_CHARS} characters.`,
    });
  }
  // The whole payload, once every part of it is known: letters beyond Latin-1 take two bytes each.
  if (
    !problems.length &&
    balanceDue !== undefined &&
    iban !== undefined &&
    values.payee_postal_code &&
    values.payee_town &&
    values.payee_country
  ) {
    const bytes = new TextEncoder().encode(qrBillPayload(paymentCodeInputOf(values, balanceDue, currency ?? ''))).length;
    if (bytes > QR_BILL_PAYLOAD_MAX_BYTES) {
      problems.push({
        code: 'too_long_for_payment_code',
        path: ['payment_code'],
        message: `A Swiss QR code carries at most ${QR_BILL_PAYLOAD_MAX_BYTES} bytes; these values take ${bytes}: shorten the name or the address.`,
      });
    }
  }
  return problems;
}

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
  const currencies: readonly string[] | undefined = scheme.currencies;
  if (currencies !== undefined && currency !== undefined && !currencies.includes(currency)) {
    problems.push({
      code: 'payment_code_currency',
      path: ['payment_code'],
      message: `payment_code ${code} takes ${currencies.join(' or ')} only.`,
    });
  }
  if ((code === 'sepa' || code === 'swiss_qr_bill') && balanceDue?.gt(EPC_MAX_AMOUNT)) {
    problems.push({
      code: 'payment_code_amount',
      path: ['payment_code'],
      message: `A ${scheme.label} code carries at most ${EPC_MAX_AMOUNT}.`,
    });
  }
  if (code === 'swiss_qr_bill') problems.push(...qrBillProblems(values, sent, balanceDue, currency));
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
