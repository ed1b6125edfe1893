/** The money figures of the Totals object (spec 2.7), in the order they are printed and sent. */
export const TOTALS_MEMBERS = ['subtotal', 'discount', 'tax', 'total', 'amount_paid', 'balance_due'] as const;
export type TotalsMember = (typeof TOTALS_MEMBERS)[number];
