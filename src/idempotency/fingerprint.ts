import { sha256Hex } from '../hash.ts';
import { Decimal } from '../money/decimal.ts';

/** Values in a stable text form: keys sorted, numbers by value (`1,250.00` and `1250` read the same). */
function canonical(value: unknown): unknown {
  if (value instanceof Decimal) return value.toString();
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if (object.value instanceof Decimal && 'fractionDigits' in object) return object.value.toString();
    return Object.fromEntries(
      Object.keys(object)
        .sort()
        .map((key) => [key, canonical(object[key])]),
    );
  }
  return value;
}

/**
 * SHA-256 of a request in its normal form (section 3): a plain value, in a stable text form, so that two requests
 * that mean the same give the same fingerprint. What goes into it is the caller's (src/documents/fingerprint.ts).
 */
export function fingerprintOf(normalised: unknown): string {
  return sha256Hex(JSON.stringify(canonical(normalised)));
}
