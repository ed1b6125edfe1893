import { HEADERS, TOTALS_HEADERS } from '../contract/headers.ts';
import { contentDisposition } from '../http/content-disposition.ts';
import { json } from '../http/respond.ts';
import { type Totals, totalsObject } from '../templates/totals.ts';
import { type DocumentRow, documentObject } from './record.ts';

export interface MadeDocument {
  row: DocumentRow;
  bytes: Uint8Array<ArrayBuffer>;
  filename: string;
  totals: Totals;
  digits: number;
  creditUsed: boolean;
  creditsRemaining: number;
  replay: boolean;
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The 201 of section 4.2, binary by default or the JSON form, with every header of its table. */
export function documentCreated(made: MadeDocument, asJson: boolean): Response {
  const totals = totalsObject(made.totals, made.digits);
  const headers: Record<string, string> = {
    [HEADERS.location]: `/api/v1/documents/${made.row.id}`,
    [HEADERS.documentId]: made.row.id,
    [HEADERS.documentSha256]: made.row.sha256,
    [HEADERS.template]: made.row.template,
    [HEADERS.templateVersion]: made.row.templateVersion,
    [HEADERS.mode]: made.row.mode,
    [HEADERS.creditUsed]: String(made.creditUsed),
    [HEADERS.creditsRemaining]: String(made.creditsRemaining),
    [HEADERS.idempotentReplay]: String(made.replay),
    ...(made.row.reference === null ? {} : { [HEADERS.reference]: made.row.reference }),
  };
  for (const [member, value] of Object.entries(totals)) headers[TOTALS_HEADERS[member as keyof typeof TOTALS_HEADERS]] = value;

  if (asJson) {
    return json(
      {
        document: documentObject(made.row),
        filename: made.filename,
        file_base64: base64(made.bytes),
        credit_used: made.creditUsed,
        credits_remaining: made.creditsRemaining,
        idempotent_replay: made.replay,
        totals,
      },
      201,
      headers,
    );
  }
  return new Response(made.bytes, {
    status: 201,
    headers: { ...headers, 'Content-Type': 'application/pdf', [HEADERS.contentDisposition]: contentDisposition(made.filename) },
  });
}
