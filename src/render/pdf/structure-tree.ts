import { type PDFContext, PDFHexString, PDFRef } from 'pdf-lib';
import { SCRIPTS, scriptPattern } from '../../contract/scripts.ts';
import { type Artifact, isArtifact, isAscii, languageOfText, type Mark, type StructureElement } from '../layout/structure.ts';
import type { LineBreak } from '../text/wrap.ts';
import { AsciiBuffer, SPACE } from './ascii-buffer.ts';
import type { WrittenObjects } from './pdf-file.ts';

/** What a structure element holds besides its child elements: marked content on a page, or an annotation. */
type Content = { page: number; mcid: number } | { page: number; annotation: PDFRef };
const NO_CONTENT: readonly Content[] = [];

/** Each artifact operator made once: a page opens one at most rules and furniture texts. */
const artifactOperators = new Map<string, string>();

/** The operator that opens an artifact's marked-content sequence (PDF 32000 14.8.2.2.2). */
export function artifactOperator(artifact: Artifact, subtype?: 'Watermark'): string {
  const key = subtype ? `${artifact.artifact}/${subtype}` : artifact.artifact;
  let operator = artifactOperators.get(key);
  if (operator === undefined) {
    operator = `/Artifact<</Type/${artifact.artifact}${subtype ? `/Subtype/${subtype}` : ''}>>BDC`;
    artifactOperators.set(key, operator);
  }
  return operator;
}

export const LAYOUT: Artifact = { artifact: 'Layout' };

/**
 * The buffer the tree's syntax is written into (StructureTree.write), read by serializePdf before the next
 * document's: one for every call, as renders write synchronously, instead of one grown by doubling per document.
 */
const treeSyntax = new AsciiBuffer();

/**
 * Scripts whose glyphs are drawn in another order than their text: right to left (Arabic, Hebrew), and the Indic
 * scripts whose vowel signs are drawn before the consonant they follow. An element with such text gets its text,
 * its lines in order, as /ActualText, which a screen reader reads instead of the glyphs.
 */
const REORDERED = scriptPattern(SCRIPTS.filter((script) => script.reordered));

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
  /** The elements whose last line noted ends inside a word that the next goes on with. */
  private readonly inWord = new Set<StructureElement>();
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

  /**
   * Writes the operator that opens a marked-content sequence of `mark` on a page, with a new MCID for an element's,
   * into the page's content: one per text of most documents, so not made as a string first.
   */
  open(mark: Mark, page: number, out: AsciiBuffer): void {
    if (isArtifact(mark)) {
      out.text(artifactOperator(mark));
      return;
    }
    const mcid = this.marked[page]!.push(mark) - 1;
    this.contentOf(mark).push({ page, mcid });
    out.text('/');
    out.text(mark.type);
    out.text('<</MCID ');
    out.integer(mcid);
    out.text('>>BDC');
  }

  /**
   * Notes a line of text drawn as an element's content, and how its text goes on after it when it is a line of
   * wrapped text: the lines decide the element's language and ActualText.
   */
  text(element: StructureElement, text: string, breakAfter: LineBreak | undefined): void {
    const lines = this.texts.get(element);
    // The rest of a word broken across lines goes on its first part, not after a space.
    if (lines && this.inWord.delete(element)) lines[lines.length - 1] += text;
    else if (lines) lines.push(text);
    else this.texts.set(element, [text]);
    if (breakAfter === 'word') this.inWord.add(element);
  }

  /** Adds an annotation to an element (an OBJR); returns the annotation's /StructParent key. */
  annotation(element: StructureElement, page: number, annotation: PDFRef): number {
    this.contentOf(element).push({ page, annotation });
    return this.pageCount + this.annotations.push(element) - 1;
  }

  /**
   * The StructTreeRoot and the structure elements, written as PDF syntax (see pdf-file.ts) one after another in
   * the order of their numbers, and the root's reference for the catalog. `pages` are the page objects in order.
   */
  write(context: PDFContext, pages: readonly PDFRef[]): { root: PDFRef; objects: WrittenObjects } {
    // Object numbers are taken in a block after pdf-lib's, without a PDFRef per element: the StructTreeRoot's,
    // then the elements' in the order of the tree (each before its children), which is the order they are written in.
    const first = context.largestObjectNumber + 1;
    const order: StructureElement[] = [];
    const parents: number[] = [];
    const numbers = new Map<StructureElement, number>();
    const number = (element: StructureElement, parent: number) => {
      const own = first + 1 + order.length;
      numbers.set(element, own);
      order.push(element);
      parents.push(parent);
      for (const child of element.children) number(child, own);
    };
    number(this.root, first);
    context.largestObjectNumber = first + order.length;
    const pageRefs = pages.map((page) => page.toString());
    const out = treeSyntax;
    out.reset();
    const ends: number[] = [];
    /** A reference to an element, written without making its text (one or two per element). */
    const reference = (element: StructureElement) => {
      out.integer(numbers.get(element)!);
      out.text(' 0 R');
    };

    out.text(`<</Type/StructTreeRoot/K ${first + 1} 0 R/ParentTree<</Nums[`);
    this.marked.forEach((elements, page) => {
      out.text(page === 0 ? `${page} [` : ` ${page} [`);
      elements.forEach((element, mcid) => {
        if (mcid > 0) out.char(SPACE);
        reference(element);
      });
      out.text(']');
    });
    this.annotations.forEach((element, index) => {
      out.text(` ${this.pageCount + index} ${numbers.get(element)!} 0 R`);
    });
    out.text(`]>>/ParentTreeNextKey ${this.pageCount + this.annotations.length}>>`);
    ends.push(out.length);

    order.forEach((element, index) => {
      const contents = this.contents.get(element) ?? NO_CONTENT;
      const page = contents[0]?.page;
      out.text('<</S/');
      out.text(element.type);
      out.text('/P ');
      out.integer(parents[index]!);
      out.text(' 0 R');
      if (page !== undefined) {
        out.text('/Pg ');
        out.text(pageRefs[page]!);
      }
      const kids = element.children.length + contents.length;
      out.text(kids === 1 ? '/K ' : '/K [');
      // Loops, not forEach: two closures per element were most of what writing the tree left to the collector.
      for (let place = 0; place < element.children.length; place++) {
        if (place > 0) out.char(SPACE);
        reference(element.children[place]!);
      }
      for (let place = 0; place < contents.length; place++) {
        const content = contents[place]!;
        if (place > 0 || element.children.length > 0) out.text(' ');
        if ('annotation' in content) out.text(`<</Type/OBJR/Obj ${content.annotation.toString()}/Pg ${pageRefs[content.page]!}>>`);
        else if (content.page === page) out.integer(content.mcid);
        else out.text(`<</Type/MCR/Pg ${pageRefs[content.page]!}/MCID ${content.mcid}>>`);
      }
      if (kids !== 1) out.text(']');
      if (element.scope) out.text(`/A<</O/Table/Scope/${element.scope}>>`);
      if (element.alt !== undefined) {
        out.text('/Alt');
        out.textString(element.alt);
      }
      // Only text with letters beyond ASCII can be of another script; the regular expressions cost more.
      const lines = this.texts.get(element);
      if (lines && !lines.every(isAscii)) {
        const text = lines.join(' ');
        const language = languageOfText(text);
        if (language) out.text(`/Lang${languageString(language).toString()}`);
        if (REORDERED.test(text)) {
          out.text('/ActualText');
          out.textString(text);
        }
      }
      out.text('>>');
      ends.push(out.length);
    });
    return { root: PDFRef.of(first), objects: { first, syntax: out, ends } };
  }
}
