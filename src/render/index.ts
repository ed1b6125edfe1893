import type { Paper } from '../contract/document-options.ts';
import { UndrawableText } from './errors.ts';
import type { FontSet } from './fonts.ts';
import { BusinessDocument, PAPER_SIZES } from './layout/document.ts';
import { writePdf } from './pdf/pdf-writer.ts';
import { FontsNotLoaded } from './text/fallback.ts';

const PREVIEW_TITLE = 'Preview – not a valid document';

/** What the renderer draws: a laid-out document on a paper size, marked when it is a preview. */
export interface RenderInput {
  readonly paper: Paper;
  readonly preview: boolean;
  /** The language of the printed labels (the request's locale): the PDF's /Lang. */
  readonly language: string;
  /** The PDF's Title (a preview's says so instead) and the head of continued pages. */
  readonly title: string;
  /** The line at the foot of every page, beside the page number. */
  readonly footer: string;
  /** The request's text values with where each is (`fields.items[0].description`), checked before the layout. */
  readonly values: readonly { readonly field: string; readonly text: string }[];
  /** Lays the content out; the renderer adds page numbers and the preview marking afterwards. */
  readonly layout: (document: BusinessDocument) => void;
}

/**
 * Renders a document as PDF bytes: the same input gives the same bytes. A value with a character no bundled
 * font draws is refused first, naming the field. A text that needs a script face not
 * loaded yet stops the layout; the face is loaded and the document laid out again from the start.
 */
export async function renderPdf(input: RenderInput, fonts: FontSet): Promise<Uint8Array<ArrayBuffer>> {
  const undrawable = input.values.flatMap(({ field, text }) => {
    const characters = fonts.undrawable(text);
    return characters.length ? [{ field, characters }] : [];
  });
  if (undrawable.length) throw new UndrawableText(undrawable);
  for (;;) {
    try {
      return layOutAndWrite(input, fonts);
    } catch (error) {
      if (!(error instanceof FontsNotLoaded)) throw error;
      await fonts.load(error.faces);
    }
  }
}

function layOutAndWrite(input: RenderInput, fonts: FontSet): Uint8Array<ArrayBuffer> {
  fonts.startDocument(input.values.map((value) => value.text));
  const document = new BusinessDocument(fonts, input.paper, `${input.title} (continued)`);
  input.layout(document);
  const pages = document.finish(input.footer, input.preview);
  return writePdf({
    size: PAPER_SIZES[input.paper],
    pages: pages.map((page) => page.ops),
    title: input.preview ? PREVIEW_TITLE : input.title,
    language: input.language,
    structure: document.structure,
    fonts,
  });
}
