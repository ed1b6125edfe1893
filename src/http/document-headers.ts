import { HEADERS, TOTALS_HEADERS } from '../contract/headers.ts';
import type { CreatedDocument } from '../documents/made.ts';

/**
 * The headers of section 4.2's table that state a document made (all but Location and Content-Disposition): its id
 * and hash, template and version, mode, the credit, the replay, the reference and each Totals member (`totals`, the
 * Totals object as answered). The API's 201 and the web app's PDF answer both carry them.
 */
export function documentHeaders(created: CreatedDocument, totals: Readonly<Record<string, string>>): Record<string, string> {
  const headers: Record<string, string> = {
    [HEADERS.documentId]: created.row.id,
    [HEADERS.documentSha256]: created.row.sha256,
    [HEADERS.template]: created.row.template,
    [HEADERS.templateVersion]: created.row.templateVersion,
    [HEADERS.mode]: created.row.mode,
    [HEADERS.creditUsed]: String(created.creditUsed),
    [HEADERS.creditsRemaining]: String(created.creditsRemaining),
    [HEADERS.idempotentReplay]: String(created.replay),
    ...(created.row.reference === null ? {} : { [HEADERS.reference]: created.row.reference }),
  };
  for (const [member, value] of Object.entries(totals)) headers[TOTALS_HEADERS[member as keyof typeof TOTALS_HEADERS]] = value;
  return headers;
}
