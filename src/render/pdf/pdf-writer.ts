import { PDFCatalog, PDFContext, PDFName, PDFPageLeaf, PDFPageTree, PDFRef } from 'pdf-lib';
import { UndrawableText } from '../errors.ts';
import type { FontSet } from '../fonts.ts';
import type { DrawOp, PageSize } from '../layout/canvas.ts';
import type { StructureElement } from '../layout/structure.ts';
import { decimalText as num } from './ascii-buffer.ts';
import { PageContent } from './content/page-content.ts';
import { DocumentFonts } from './fonts/document-fonts.ts';
import { serializePdf } from './pdf-file.ts';
import { TextStrings, uriString } from './pdf-strings.ts';
import { languageString, StructureTree } from './structure-tree.ts';

interface PdfInput {
  size: PageSize;
  pages: readonly (readonly DrawOp[])[];
  title: string;
  /** The document's language (the template's locale), a BCP 47 tag. */
  language: string;
  /** The structure tree's root, whose elements the pages' text and links are marked with. */
  structure: StructureElement;
  fonts: FontSet;
}

/** Fill opacity of the preview watermark: legible across the page without hiding what is under it. */
const WATERMARK_OPACITY = 0.16;

/**
 * A new document: its catalog, page tree and information dictionary with the title, and pages added to the tree,
 * the same objects in the same order as pdf-lib's `PDFDocument.create`, `setTitle(title, { showInWindowTitleBar:
 * true })` and `addPage([width, height])` make them, without a PDFDocument. Its constructor assigns closures that
 * capture it to its own properties, which V8 allocates in old space (taking them for methods): dead with the
 * render, they kept the document, its context and every object of the PDF alive through the next two scavenges,
 * which copied and then promoted them all (see Flow.continuation in flow.ts).
 */
function newDocument(
  title: string,
  strings: TextStrings,
): {
  context: PDFContext;
  catalog: PDFCatalog;
  addPage: (size: PageSize) => { node: PDFPageLeaf; ref: PDFRef };
} {
  const context = PDFContext.create();
  const pagesRef = context.register(PDFPageTree.withContext(context));
  const catalog = PDFCatalog.withContextAndPages(context, pagesRef);
  context.trailerInfo.Root = context.register(catalog);
  const info = context.obj({});
  context.trailerInfo.Info = context.register(info);
  // A hex text string (UTF-16BE), as TextStrings writes.
  info.set(PDFName.of('Title'), strings.of(title));
  catalog.getOrCreateViewerPreferences().setDisplayDocTitle(true);
  let pageCount = 0;
  const addPage = (size: PageSize) => {
    const node = PDFPageLeaf.withContextAndParent(context, PDFRef.of(-1));
    const ref = context.register(node);
    node.set(PDFName.MediaBox, context.obj([0, 0, size.width, size.height]));
    node.setParent(catalog.insertLeafNode(ref, pageCount++));
    return { node, ref };
  };
  return { context, catalog, addPage };
}

/**
 * Writes the pages as a PDF with pdf-lib: fonts subset to the glyphs used, text as Identity-H glyph ids with
 * a ToUnicode map (so it can be searched and copied), links as URI annotations. No dates, ids or counters:
 * the same input gives the same bytes. The PDF is tagged (PDF 32000 14.8): its language, a structure tree in
 * reading order with every link's annotation in its Link element, and page furniture as artifacts. Objects
 * other than streams go into one compressed object stream (pdf-file.ts), which keeps the many small structure
 * elements (one per table cell) from growing the file by more than a few percent.
 */
export function writePdf(input: PdfInput): Uint8Array<ArrayBuffer> {
  const fonts = new DocumentFonts(input.fonts);
  const missing = new Set<number>();
  for (const ops of input.pages) {
    for (let at = 0; at < ops.length; at++) {
      const op = ops[at]!;
      if (op.kind === 'text' || op.kind === 'watermark') {
        const { runs } = op.line;
        for (let index = 0; index < runs.length; index++) fonts.useOf(runs[index]!.face).collect(runs[index]!.glyphs, missing);
      }
    }
  }
  if (missing.size) throw new UndrawableText([{ characters: [...missing].sort((a, b) => a - b).map((cp) => String.fromCodePoint(cp)) }]);
  const uses = fonts.seal();

  const strings = new TextStrings();
  const { context, catalog, addPage } = newDocument(input.title, strings);
  const tree = new StructureTree(input.structure, input.pages.length);
  const fontRefs = Object.fromEntries(uses.map((use) => [use.resource, input.fonts.embedding.embed(context, use)]));
  const resources = context.register(context.obj({ Font: fontRefs, ExtGState: { GS1: { Type: 'ExtGState', ca: WATERMARK_OPACITY } } }));

  const content = new PageContent(fonts, tree, input.size, strings);
  const pageRefs: PDFRef[] = [];
  for (let index = 0; index < input.pages.length; index++) {
    const ops = input.pages[index]!;
    const page = addPage(input.size);
    pageRefs.push(page.ref);
    page.node.set(PDFName.of('StructParents'), context.obj(index));
    page.node.set(PDFName.of('Tabs'), PDFName.of('S'));
    const compressed = input.fonts.zlib.compress(content.of(ops, index));
    page.node.set(PDFName.of('Contents'), context.register(context.stream(compressed, { Filter: 'FlateDecode' })));
    page.node.set(PDFName.of('Resources'), resources);
    const links = ops.flatMap((op) => {
      if (op.kind !== 'link') return [];
      const ref = context.nextRef();
      context.assign(
        ref,
        context.obj({
          Type: 'Annot',
          Subtype: 'Link',
          Rect: [op.x, input.size.height - op.y - op.height, op.x + op.width, input.size.height - op.y].map((v) => Number(num(v))),
          Border: [0, 0, 0],
          A: { Type: 'Action', S: 'URI', URI: uriString(op.url) },
          // What a screen reader says for the link (PDF/UA-1 7.18.5): where it goes.
          Contents: strings.of(op.url),
          StructParent: tree.annotation(op.element, index, ref),
        }),
      );
      return [ref];
    });
    if (links.length) page.node.set(PDFName.of('Annots'), context.obj(links));
  }
  catalog.set(PDFName.of('Lang'), languageString(input.language));
  catalog.set(PDFName.of('MarkInfo'), context.obj({ Marked: true }));
  const structure = tree.write(context, pageRefs);
  catalog.set(PDFName.of('StructTreeRoot'), structure.root);
  return serializePdf(context, structure.objects, input.fonts.zlib);
}
