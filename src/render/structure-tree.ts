import { type PDFContext, PDFHexString, PDFRef } from 'pdf-lib';
import type { WrittenObject } from './pdf-file.ts';
import { type Artifact, isArtifact, isAscii, languageOfText, type Mark, type StructureElement } from './structure.ts';

/** What a structure element holds besides its child elements: marked content on a page, or an annotation. */
type Content = { page: number; mcid: number } | { page: number; annotation: PDFRef };

/** The operator that opens an artifact's marked-content sequence (PDF 32000 14.8.2.2.2). */
export function artifactOperator(artifact: Artifact, subtype?: 'Watermark'): string {
  return `/Artifact<</Type/${artifact.artifact}${subtype ? `/Subtype/${subtype}` : ''}>>BDC`;
}

export const LAYOUT: Artifact = { artifact: 'Layout' };

/**
 * Scripts whose glyphs are drawn in another order than their text: right to left (Arabic, Hebrew), and the Indic
 * scripts whose vowel signs are drawn before the consonant they follow. An element with such text gets its text,
 * its lines in order, as /ActualText, which a screen reader reads instead of the glyphs.
 */
const REORDERED = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Tamil}]/u;

/** A language tag as a /Lang text string: ASCII, hex-encoded like every string the writer puts in a PDF. */
export function languageString(tag: string): PDFHexString {
  return PDFHexString.of(
    [...tag]
      .map((char) => char.charCodeAt(0).toString(16).padStart(2, '0'))
      .join('')
      .toUpperCase(),
  );
}

/**
 * The tagged-PDF side of writing a document: marked-content identifiers for the content of each page, the
 * structure elements they belong to, and, at the end, the structure tree with its parent tree (PDF 32000 14.7.4).
 * Each page's MCIDs count from 0; the parent tree's key of a page is its index, and annotations take the keys
 * after the last page's.
 */
export class StructureTree {
  private readonly root: StructureElement;
  private readonly pageCount: number;
  private readonly contents = new Map<StructureElement, Content[]>();
  private readonly texts = new Map<StructureElement, string[]>();
  /** Per page, the element of each MCID. */
  private readonly marked: StructureElement[][];
  private readonly annotations: StructureElement[] = [];

  constructor(root: StructureElement, pageCount: number) {
    this.root = root;
    this.pageCount = pageCount;
    this.marked = Array.from({ length: pageCount }, () => []);
  }

  private contentOf(element: StructureElement): Content[] {
    let list = this.contents.get(element);
    if (!list) {
      list = [];
      this.contents.set(element, list);
    }
    return list;
  }

  /** The operator that opens a marked-content sequence of `mark` on a page, with a new MCID for an element's. */
  open(mark: Mark, page: number): string {
    if (isArtifact(mark)) return artifactOperator(mark);
    const mcid = this.marked[page]!.push(mark) - 1;
    this.contentOf(mark).push({ page, mcid });
    return `/${mark.type}<</MCID ${mcid}>>BDC`;
  }

  /** Notes a line of text drawn as an element's content: the lines decide the element's language and ActualText. */
  text(element: StructureElement, text: string): void {
    const lines = this.texts.get(element);
    if (lines) lines.push(text);
    else this.texts.set(element, [text]);
  }

  /** Adds an annotation to an element (an OBJR); returns the annotation's /StructParent key. */
  annotation(element: StructureElement, page: number, annotation: PDFRef): number {
    this.contentOf(element).push({ page, annotation });
    return this.pageCount + this.annotations.push(element) - 1;
  }

  /**
   * The structure elements and the StructTreeRoot, written as PDF syntax (see pdf-file.ts), and the root's
   * reference for the catalog. `pages` are the page objects in order.
   */
  write(context: PDFContext, pages: readonly PDFRef[]): { root: PDFRef; objects: WrittenObject[] } {
    // Object numbers are taken in a block after pdf-lib's, without a PDFRef per element.
    let next = context.largestObjectNumber + 1;
    const rootNumber = next++;
    const objects: WrittenObject[] = [];
    const numbers = new Map<StructureElement, number>();
    const pageRefs = pages.map((page) => page.toString());
    const add = (element: StructureElement, parent: number): number => {
      const number = next++;
      numbers.set(element, number);
      const contents = this.contents.get(element) ?? [];
      const page = contents[0]?.page;
      const kids = element.children.map((child) => `${add(child, number)} 0 R`);
      for (const content of contents) {
        const onPage = `/Pg ${pageRefs[content.page]!}`;
        if ('annotation' in content) kids.push(`<</Type/OBJR/Obj ${content.annotation.toString()}${onPage}>>`);
        else if (content.page === page) kids.push(String(content.mcid));
        else kids.push(`<</Type/MCR${onPage}/MCID ${content.mcid}>>`);
      }
      let syntax = `<</S/${element.type}/P ${parent} 0 R${page === undefined ? '' : `/Pg ${pageRefs[page]!}`}`;
      syntax += `/K ${kids.length === 1 ? kids[0]! : `[${kids.join(' ')}]`}`;
      if (element.scope) syntax += `/A<</O/Table/Scope/${element.scope}>>`;
      // Only text with letters beyond ASCII can be of another script; the regular expressions cost more.
      const lines = this.texts.get(element);
      if (lines && !lines.every(isAscii)) {
        const text = lines.join(' ');
        const language = languageOfText(text);
        if (language) syntax += `/Lang${languageString(language).toString()}`;
        if (REORDERED.test(text)) syntax += `/ActualText${PDFHexString.fromText(text).toString()}`;
      }
      objects.push([number, `${syntax}>>`]);
      return number;
    };
    const document = add(this.root, rootNumber);
    context.largestObjectNumber = next - 1;
    const nums: string[] = [];
    this.marked.forEach((elements, page) => {
      nums.push(`${page} [${elements.map((element) => `${numbers.get(element)!} 0 R`).join(' ')}]`);
    });
    this.annotations.forEach((element, index) => {
      nums.push(`${this.pageCount + index} ${numbers.get(element)!} 0 R`);
    });
    const nextKey = this.pageCount + this.annotations.length;
    objects.push([
      rootNumber,
      `<</Type/StructTreeRoot/K ${document} 0 R/ParentTree<</Nums[${nums.join(' ')}]>>/ParentTreeNextKey ${nextKey}>>`,
    ]);
    return { root: PDFRef.of(rootNumber), objects };
  }
}
