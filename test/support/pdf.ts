import { createHash } from 'node:crypto';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface PdfPage {
  width: number;
  height: number;
  /** Text items in reading order of the content stream, with their position (PDF units, origin bottom-left). */
  items: { text: string; x: number; y: number; width: number }[];
  text: string;
  links: { url: string; rect: number[] }[];
}

export interface PdfSummary {
  title: string | undefined;
  pages: PdfPage[];
  text: string;
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Reads a PDF with pdf.js, an implementation independent of the one that wrote it. */
export async function readPdf(bytes: Uint8Array): Promise<PdfSummary> {
  const task = getDocument({ data: Uint8Array.from(bytes), useSystemFonts: false, verbosity: 0 });
  const document = await task.promise;
  const metadata = await document.getMetadata();
  const pages: PdfPage[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const page = await document.getPage(number);
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const items = content.items.flatMap((item) =>
      'str' in item ? [{ text: item.str, x: item.transform[4] as number, y: item.transform[5] as number, width: item.width }] : [],
    );
    const annotations = await page.getAnnotations();
    pages.push({
      width: viewport.width,
      height: viewport.height,
      items,
      text: items.map((item) => item.text).join('\n'),
      links: annotations.filter((a) => a.subtype === 'Link').map((a) => ({ url: a.url as string, rect: a.rect as number[] })),
    });
  }
  await task.destroy();
  return { title: (metadata.info as { Title?: string }).Title, pages, text: pages.map((p) => p.text).join('\n') };
}
