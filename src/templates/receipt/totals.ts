import type { Decimal } from '../../money/decimal.ts';
import type { Problem } from '../field-types.ts';
import type { CheckInput, CheckResult } from '../totals.ts';

/** Receipt: amount above 0; related_document and its deprecated alias not both. */
export function checkReceipt({ values, sent, currency }: CheckInput): CheckResult {
  const problems: Problem[] = [];
  if (sent.has('related_document') && sent.has('invoice_reference')) {
    problems.push({
      code: 'conflicting_fields',
      path: ['invoice_reference'],
      message: 'Send related_document only; invoice_reference is its deprecated alias.',
    });
  }
  const amount = values.amount as Decimal | undefined;
  if (amount?.isZero())
    problems.push({ code: 'must_be_positive', path: ['amount'], message: 'The amount received must be greater than 0.' });
  if (problems.length || !amount || currency === undefined) return { problems, totals: undefined };
  return { problems, totals: { currency, amount_paid: amount } };
}
