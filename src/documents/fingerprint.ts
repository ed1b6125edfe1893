import { fingerprintOf } from '../idempotency/fingerprint.ts';
import type { DocumentRequest } from './request.ts';

/**
 * The fingerprint of a document request (section 3): template, mode, paper, locale, reference and the read field
 * values. Not the template version (a changed version is its own answer) and nothing from headers such as Accept.
 */
export function requestFingerprint(request: DocumentRequest): string {
  return fingerprintOf({
    template: request.template.slug,
    mode: request.mode,
    paper: request.paper,
    locale: request.locale,
    reference: request.reference,
    fields: request.values,
  });
}
