import { createClient, type InvoiceRequest, newIdempotencyKey, SvcApiError } from '../../src/client/index.ts';

/**
 * One run of the client against a server, as an integrator's program would make it, summed up as JSON: the same
 * program runs in Node (the test's process), in Bun (`bun test/support/client-program.ts <baseUrl> <apiKey>`) and
 * in workerd (test/support/client-worker.ts), and each runtime must give the same summary.
 */
export async function exerciseClient(baseUrl: string, apiKey: string) {
  const svc = createClient({ baseUrl, apiKey });
  const body: InvoiceRequest = {
    template: 'invoice',
    mode: 'final',
    reference: 'runtime-check',
    fields: {
      seller_name: 'Seller Ltd',
      client_name: 'Client Inc',
      invoice_number: 'INV-Ü',
      date: '2026-10-01',
      currency: 'EUR',
      items: [{ description: 'Work', quantity: '2', unit_price: '50.00' }],
    },
  };
  const key = newIdempotencyKey();
  const made = await svc.createDocument(body, { idempotencyKey: key });
  const replay = await svc.createDocument(body, { idempotencyKey: key });
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', made.pdf));
  const refused = await svc.validateDocument({ ...body, fields: { ...body.fields, date: '2026-02-30' } }).catch((error: unknown) => error);
  return {
    templates: (await svc.listTemplates()).map((template) => template.slug),
    made: {
      mode: made.mode,
      creditUsed: made.creditUsed,
      replay: made.replay,
      reference: made.reference,
      totals: made.totals,
      filename: made.filename,
      pdfStart: new TextDecoder().decode(made.pdf.subarray(0, 5)),
      bytesMatchSha256: [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('') === made.sha256,
      sha256: made.sha256,
    },
    replay: {
      replay: replay.replay,
      creditUsed: replay.creditUsed,
      sameDocument: replay.documentId === made.documentId,
      sha256: replay.sha256,
    },
    refused:
      refused instanceof SvcApiError
        ? {
            status: refused.status,
            code: refused.code,
            fields: refused.details.map((detail) => detail.field),
            hasRequestId: refused.requestId !== null,
          }
        : String(refused),
  };
}

// Run by Bun as a program; no top-level await, so that workerd can load the module too.
if (import.meta.main) {
  const [baseUrl, apiKey] = process.argv.slice(2);
  exerciseClient(baseUrl!, apiKey!).then((summary) => console.log(JSON.stringify(summary)));
}
