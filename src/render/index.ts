import type { Paper } from '../contract/document-options.ts';
import { BusinessDocument, PAPER_SIZES } from './document.ts';
import type { FontSet } from './fonts.ts';
import { writePdf } from './pdf-writer.ts';

const PREVIEW_TITLE = 'Preview – not a valid document';

/** What the renderer draws: a laid-out document on a paper size, marked when it is a preview. */
export interface RenderInput {
  readonly paper: Paper;
  readonly preview: boolean;
  /** The PDF's Title (a preview's says so instead) and the head of continued pages. */
  readonly title: string;
  /** The line at the foot of every page, beside the page number. */
  readonly footer: string;
  /** Lays the content out; the renderer adds page numbers and the preview marking afterwards. */
  readonly layout: (document: BusinessDocument) => void;
}

/** Renders a document as PDF bytes: the same input gives the same bytes. */
export async function renderPdf(input: RenderInput, fonts: FontSet): Promise<Uint8Array<ArrayBuffer>> {
  const document = new BusinessDocument(fonts, input.paper, `${input.title} (continued)`);
  input.layout(document);
  const pages = document.finish(input.footer, input.preview);
  return writePdf({
    size: PAPER_SIZES[input.paper],
    pages: pages.map((page) => page.ops),
    title: input.preview ? PREVIEW_TITLE : input.title,
    fonts,
  });
}
