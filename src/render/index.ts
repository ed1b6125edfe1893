import type { DocumentRequest } from '../documents/request.ts';
import { BusinessDocument, PAPER_SIZES } from './document.ts';
import type { FontSet } from './fonts.ts';
import { writePdf } from './pdf-writer.ts';
import { layoutValues } from './text.ts';

export const PREVIEW_TITLE = 'Preview – not a valid document';

/** Renders a validated request as PDF bytes: the same request and template version give the same bytes. */
export async function renderPdf(request: DocumentRequest, fonts: FontSet): Promise<Uint8Array<ArrayBuffer>> {
  const preview = request.mode === 'preview';
  const values = layoutValues(request.values);
  const title = request.template.titleOf(values);
  const document = new BusinessDocument(fonts, request.paper, `${title} (continued)`);
  request.template.layout({
    document,
    values,
    totals: request.totals,
    currency: request.currency,
    digits: request.digits,
  });
  const pages = document.finish(`${title} · ${values.seller_name}`, preview);
  return writePdf({
    size: PAPER_SIZES[request.paper],
    pages: pages.map((page) => page.ops),
    title: preview ? PREVIEW_TITLE : title,
    fonts,
  });
}
