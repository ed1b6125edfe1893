import DecimalLight from 'decimal.js-light';

/**
 * The one Decimal every money figure goes through. 60 significant digits hold a product of two numbers of
 * 10 + 4 digits exactly; ROUND_HALF_UP rounds ties away from zero, the rule of spec 2.3 for line amounts.
 */
export const Decimal = DecimalLight.clone({
  precision: 60,
  rounding: DecimalLight.ROUND_HALF_UP,
  toExpNeg: -60,
  toExpPos: 60,
});
export type Decimal = InstanceType<typeof Decimal>;

/** Rounds half away from zero to the currency's minor unit. */
export function roundMinor(value: Decimal, digits: number): Decimal {
  return value.toDecimalPlaces(digits, Decimal.ROUND_HALF_UP);
}

/** A figure as the Totals object states it: exactly the minor digits, `.` as point, no separators, never `-0`. */
export function formatPlain(value: Decimal, digits: number): string {
  const rounded = roundMinor(value, digits);
  return (rounded.isZero() ? new Decimal(0) : rounded).toFixed(digits);
}

/** A figure as a document prints it: thousands separators and exactly the minor digits. */
export function formatGrouped(value: Decimal, digits: number): string {
  const plain = formatPlain(value, digits);
  const negative = plain.startsWith('-');
  const [integer = '', fraction] = (negative ? plain.slice(1) : plain).split('.');
  return `${negative ? '-' : ''}${group(integer)}${fraction === undefined ? '' : `.${fraction}`}`;
}

function group(integer: string): string {
  return integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A quantity as printed: thousands separators, its own decimals without trailing zeros (`1,250.5`). */
export function formatQuantity(value: Decimal): string {
  const [integer = '', fraction] = value.abs().toFixed().split('.');
  return `${value.isNegative() ? '-' : ''}${group(integer)}${fraction ? `.${fraction}` : ''}`;
}

/** A unit price as printed: at least the currency's minor digits, more when it was sent with more. */
export function formatUnitPrice(value: Decimal, digits: number): string {
  return formatGrouped(value, Math.max(digits, value.decimalPlaces()));
}
