import type { DocumentRequest } from '../documents/request.ts';
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
 * SHA-256 of the normalised request (section 3): template, mode, paper, locale, reference and the read field
 * values. Not the template version (a changed version is its own answer) and nothing from headers such as Accept.
 */
export function requestFingerprint(request: DocumentRequest): string {
  const normalised = canonical({
    template: request.template.slug,
    mode: request.mode,
    paper: request.paper,
    locale: request.locale,
    reference: request.reference,
    fields: request.values,
  });
  return sha256Hex(JSON.stringify(normalised));
}
