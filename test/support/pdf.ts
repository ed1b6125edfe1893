import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface PdfPage {
  width: number;
  height: number;
  /** Text items in reading order of the content stream, with their position (PDF units, origin bottom-left). */
  items: { text: string; x: number; y: number; width: number }[];
  text: string;
  /** The text as a viewer copies it: the items in order, a line break where pdf.js marks the end of a line. */
  copied: string;
  /** Link annotations: `url` as pdf.js accepts it for opening, `target` exactly as written in the file. */
  links: { url: string; target: string | undefined; rect: number[] }[];
}

export interface PdfSummary {
  title: string | undefined;
  pages: PdfPage[];
  text: string;
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Reads a PDF with pdf.js, an implementation independent of the one that wrote it. `raw` keeps the characters
 * exactly as the file maps its glyphs (pdf.js otherwise normalises some, such as decomposed accents).
 */
export async function readPdf(bytes: Uint8Array, options: { raw?: boolean } = {}): Promise<PdfSummary> {
  const task = getDocument({ data: Uint8Array.from(bytes), useSystemFonts: false, verbosity: 0 });
  const document = await task.promise;
  const metadata = await document.getMetadata();
  const pages: PdfPage[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const page = await document.getPage(number);
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent({ disableNormalization: options.raw ?? false });
    let copied = '';
    for (const item of content.items) if ('str' in item) copied += item.str + (item.hasEOL ? '\n' : '');
    const items = content.items.flatMap((item) =>
      'str' in item ? [{ text: item.str, x: item.transform[4] as number, y: item.transform[5] as number, width: item.width }] : [],
    );
    const annotations = await page.getAnnotations();
    pages.push({
      width: viewport.width,
      height: viewport.height,
      items,
      text: items.map((item) => item.text).join('\n'),
      copied,
      links: annotations
        .filter((a) => a.subtype === 'Link')
        .map((a) => ({ url: a.url as string, target: a.unsafeUrl as string | undefined, rect: a.rect as number[] })),
    });
  }
  await task.destroy();
  return { title: (metadata.info as { Title?: string }).Title, pages, text: pages.map((p) => p.text).join('\n') };
}

function withFile<T>(bytes: Uint8Array, use: (file: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-'));
  try {
    const file = join(dir, 'document.pdf');
    writeFileSync(file, bytes);
    return use(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `qpdf --check` (poppler-utils and qpdf are test dependencies): its exit status and what it printed. */
export function qpdfCheck(bytes: Uint8Array): { status: number | null; output: string } {
  return withFile(bytes, (file) => {
    const result = spawnSync('qpdf', ['--check', file], { encoding: 'utf8' });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  });
}

/** Every object of the file as qpdf parses it (JSON v2: names as `/Name`, strings decoded as `u:text`). */
export function pdfObjects(bytes: Uint8Array): Record<string, unknown> {
  return withFile(bytes, (file) => {
    const json = JSON.parse(execFileSync('qpdf', ['--json=2', '--json-key=qpdf', file], { encoding: 'utf8', maxBuffer: 64 << 20 }));
    return json.qpdf[1] as Record<string, unknown>;
  });
}

/** The text pdftotext (poppler) extracts, in its reading order; `layout` keeps the physical layout (-layout). */
export function pdftotext(bytes: Uint8Array, options: { layout?: boolean } = {}): string {
  const args = [...(options.layout ? ['-layout'] : []), '-enc', 'UTF-8'];
  return withFile(bytes, (file) => execFileSync('pdftotext', [...args, file, '-'], { encoding: 'utf8' }));
}

/** The text MuPDF's mutool (mupdf-tools) extracts from every page, one line per line it finds. */
export function mutoolText(bytes: Uint8Array): string {
  return withFile(bytes, (file) => execFileSync('mutool', ['draw', '-q', '-F', 'txt', '-o', '-', file], { encoding: 'utf8' }));
}

/** The file rewritten by qpdf in QDF form: every stream uncompressed, so content operators can be read. */
export function qdf(bytes: Uint8Array): string {
  return withFile(bytes, (file) =>
    execFileSync('qpdf', ['--qdf', '--object-streams=disable', file, '-'], { encoding: 'latin1', maxBuffer: 64 << 20 }),
  );
}

/** A structure element as poppler reads the structure tree: its type, attributes, text and children in order. */
export interface StructureNode {
  role: string;
  attributes: string[];
  /** The text of its own marked content, and `Object n g` for an annotation (OBJR) it holds. */
  content: string[];
  children: StructureNode[];
}

/** The structure tree (`pdfinfo -struct-text`, poppler), parsed from its indented listing. */
export function structureTree(bytes: Uint8Array): StructureNode {
  const listing = withFile(bytes, (file) => execFileSync('pdfinfo', ['-struct-text', file], { encoding: 'utf8' }));
  const root: StructureNode = { role: 'Root', attributes: [], content: [], children: [] };
  const open: StructureNode[] = [root];
  for (const line of listing.split('\n')) {
    const item = line.trim();
    if (!item) continue;
    const depth = (line.length - line.trimStart().length) / 2;
    if (item.startsWith('"')) open[depth]!.content.push(item.slice(1, -1));
    else if (item.startsWith('Object ')) open[depth]!.content.push(item);
    else if (item.startsWith('/')) open[open.length - 1]!.attributes.push(item);
    else {
      const node: StructureNode = { role: item.replace(/[:\s].*$/, ''), attributes: [], content: [], children: [] };
      open.length = depth + 1;
      open[depth]!.children.push(node);
      open.push(node);
    }
  }
  return root.children[0]!;
}

/** All the text of an element and its descendants, in reading order. */
export function structureText(node: StructureNode): string {
  return [...node.content.filter((text) => !text.startsWith('Object ')), ...node.children.map(structureText)].join(' ');
}

/** A node of pdf.js's structure tree of one page (`page.getStructTree()`): an element, or content it holds. */
export interface PdfJsStructureNode {
  role?: string;
  lang?: string;
  type?: string;
  children?: PdfJsStructureNode[];
}

/** The structure tree of a page as pdf.js reads it: what Firefox hands to a screen reader. */
export async function pdfJsStructureTree(bytes: Uint8Array, pageNumber: number): Promise<PdfJsStructureNode> {
  const task = getDocument({ data: Uint8Array.from(bytes), useSystemFonts: false, verbosity: 0 });
  try {
    const page = await (await task.promise).getPage(pageNumber);
    return (await page.getStructTree()) as PdfJsStructureNode;
  } finally {
    await task.destroy();
  }
}
