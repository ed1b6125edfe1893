import type { DocumentRequest } from './request.ts';

/** Section 4.2: template slug, a hyphen, the document number, `.pdf`; a preview ends `-preview.pdf`. */
export function documentFilename(request: DocumentRequest): string {
  const number = String(request.values[request.template.numberField]);
  return `${request.template.slug}-${number}${request.mode === 'preview' ? '-preview' : ''}.pdf`;
}
