import type { Problem } from '../field-types.ts';
import type { CheckInput, CheckResult } from '../template.ts';
import type { RECEIPT_FIELDS } from './fields.ts';

/** Receipt: amount above 0; related_document and its deprecated alias not both. */
export function checkReceipt({ values, sent, currency }: CheckInput<typeof RECEIPT_FIELDS>): CheckResult {
  const problems: Problem[] = [];
  if (sent.has('related_document') && sent.has('invoice_reference')) {
    problems.push({
      code: 'conflicting_fields',
      path: ['invoice_reference'],
      message: 'Send related_document only; invoice_reference is its deprecated alias.',
    });
  }
  const { amount } = values;
  if (amount?.isZero())
    problems.push({ code: 'must_be_positive', path: ['amount'], message: 'The amount received must be greater than 0.' });
  if (problems.length || !amount || currency === undefined) return { problems, totals: undefined };
  return { problems, totals: { currency, amount_paid: amount } };
}
