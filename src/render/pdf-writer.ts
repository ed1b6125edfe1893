import pako from 'pako';
import { PDFDocument, PDFName, PDFString, type PDFContext, type PDFRef } from 'pdf-lib';
import type { DrawOp, PageSize, Rgb } from './canvas.ts';
import type { FontFace, FontSet, FontWeight } from './fonts.ts';
import { closeGlyphSet, subsetTrueType } from './truetype.ts';

/** A character no bundled font can draw: the document is refused rather than printed with empty boxes. */
export class UndrawableText extends Error {
  readonly codePoints: number[];
  constructor(codePoints: number[]) {
    super(`cannot draw ${codePoints.map((cp) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`).join(', ')}`);
    this.codePoints = codePoints;
  }
}

export interface PdfInput {
  size: PageSize;
  pages: readonly (readonly DrawOp[])[];
  title: string;
  fonts: FontSet;
}

const FONT_RESOURCE: Record<FontWeight, string> = { regular: 'F1', bold: 'F2' };
/**
 * Content streams are rebuilt for every document, so they get pako's fast level; font subsets are cached and
 * get the default level, where the size matters more.
 */
const CONTENT_COMPRESSION_LEVEL = 3;
/** Fill opacity of the preview watermark: legible across the page without hiding what is under it. */
const WATERMARK_OPACITY = 0.16;

/** Numbers in content streams: rounded to 2 decimals, shortest form; the same text in every runtime. */
function num(value: number): string {
  const rounded = Math.round(value * 100) / 100;
  return rounded === 0 ? '0' : String(rounded);
}

const rgb = (color: Rgb, operator: 'rg' | 'RG') => `${num(color[0])} ${num(color[1])} ${num(color[2])} ${operator}`;
const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).toUpperCase().padStart(2, '0'));
const hex4 = (value: number) => HEX_BYTES[value >> 8]! + HEX_BYTES[value & 0xff]!;

/** The glyphs one font draws in a document, renumbered for its subset. */
class FontUse {
  readonly face: FontFace;
  readonly used = new Map<number, number>();
  glyphs: number[] = [];
  newIds = new Map<number, number>();

  constructor(face: FontFace) {
    this.face = face;
  }

  collect(text: string, missing: Set<number>): void {
    for (const char of text) {
      const codePoint = char.codePointAt(0)!;
      const gid = this.face.glyphOf(codePoint);
      if (gid === undefined) missing.add(codePoint);
      else if (!this.used.has(gid)) this.used.set(gid, codePoint);
    }
  }

  seal(): void {
    this.glyphs = closeGlyphSet(this.face.file, this.used.keys());
    this.newIds = new Map(this.glyphs.map((gid, index) => [gid, index]));
  }

  encode(text: string): string {
    let out = '';
    for (const char of text) out += hex4(this.newIds.get(this.face.glyphOf(char.codePointAt(0)!)!)!);
    return out;
  }

  /** A deterministic subset tag: six capitals from a hash of the glyph set (PDF 32000 9.6.4). */
  tag(): string {
    let hash = 2166136261;
    for (const gid of this.glyphs) hash = Math.imul(hash ^ gid, 16777619) >>> 0;
    let tag = '';
    for (let i = 0; i < 6; i++) {
      tag += String.fromCharCode(65 + (hash % 26));
      hash = Math.floor(hash / 26) + i * 7;
    }
    return tag;
  }
}

function toUnicodeCMap(use: FontUse): string {
  const entries = [...use.used].map(([gid, codePoint]) => `<${hex4(use.newIds.get(gid)!)}> <${hex4(codePoint)}>`).sort();
  const blocks: string[] = [];
  for (let i = 0; i < entries.length; i += 100) {
    const block = entries.slice(i, i + 100);
    blocks.push(`${block.length} beginbfchar\n${block.join('\n')}\nendbfchar`);
  }
  return `/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n${blocks.join('\n')}\nendcmap\nCMapName currentdict /CMap defineresource pop\nend\nend`;
}

/** What embedding a font subset costs to compute: the same for the same glyphs, so kept for reuse. */
interface EmbeddedSubset {
  name: string;
  fontFile: Uint8Array;
  fontFileLength: number;
  toUnicode: Uint8Array;
  widths: number[];
}

const SUBSET_CACHE_SIZE = 64;
const subsetCache = new Map<string, EmbeddedSubset>();

/** Subsetting and compressing a font is a pure function of its glyphs, so recent results are reused (LRU). */
function subsetFor(use: FontUse): EmbeddedSubset {
  const key = `${use.face.postscriptName}:${[...use.used].map(([gid, cp]) => `${gid}.${cp}`).join(',')}`;
  const cached = subsetCache.get(key);
  if (cached) {
    subsetCache.delete(key);
    subsetCache.set(key, cached);
    return cached;
  }
  const { file } = use.face;
  const scale = 1000 / file.unitsPerEm;
  const fontFile = subsetTrueType(file, use.glyphs);
  const subset = {
    name: `${use.tag()}+${use.face.postscriptName}`,
    fontFile: pako.deflate(fontFile),
    fontFileLength: fontFile.length,
    toUnicode: pako.deflate(new TextEncoder().encode(toUnicodeCMap(use))),
    widths: use.glyphs.map((gid) => Math.round(file.advances[gid]! * scale)),
  };
  subsetCache.set(key, subset);
  if (subsetCache.size > SUBSET_CACHE_SIZE) subsetCache.delete(subsetCache.keys().next().value!);
  return subset;
}

function embedFont(context: PDFContext, use: FontUse): PDFRef {
  const { file } = use.face;
  const scale = 1000 / file.unitsPerEm;
  const { name, fontFile, fontFileLength, toUnicode, widths } = subsetFor(use);
  const descriptor = context.obj({
    Type: 'FontDescriptor',
    FontName: name,
    Flags: 32,
    FontBBox: file.bbox.map((v) => Math.round(v * scale)),
    ItalicAngle: 0,
    Ascent: Math.round(file.ascent * scale),
    Descent: Math.round(file.descent * scale),
    CapHeight: Math.round(file.capHeight * scale),
    StemV: 80,
    FontFile2: context.register(context.stream(fontFile, { Filter: 'FlateDecode', Length1: fontFileLength })),
  });
  const cidFont = context.obj({
    Type: 'Font',
    Subtype: 'CIDFontType2',
    BaseFont: name,
    CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
    FontDescriptor: context.register(descriptor),
    W: [0, widths],
    CIDToGIDMap: 'Identity',
  });
  return context.register(
    context.obj({
      Type: 'Font',
      Subtype: 'Type0',
      BaseFont: name,
      Encoding: 'Identity-H',
      DescendantFonts: [context.register(cidFont)],
      ToUnicode: context.register(context.stream(toUnicode, { Filter: 'FlateDecode' })),
    }),
  );
}

/**
 * One page's content stream. Text runs share one BT … ET and state operators are written only when the font,
 * size or colour changes, which keeps the stream (and its compression) small.
 */
function contentOf(ops: readonly DrawOp[], size: PageSize, uses: Record<FontWeight, FontUse>): string {
  const out: string[] = [];
  const flip = (y: number) => size.height - y;
  let inText = false;
  let font = '';
  let fill = '';
  let lineX = 0;
  let lineY = 0;
  const setFill = (color: Rgb) => {
    const operator = rgb(color, 'rg');
    if (operator !== fill) out.push((fill = operator));
  };
  const endText = () => {
    if (inText) out.push('ET');
    inText = false;
  };
  for (const op of ops) {
    if (op.kind === 'text') {
      if (!inText) {
        out.push('BT');
        lineX = lineY = 0;
      }
      inText = true;
      setFill(op.color);
      const selected = `/${FONT_RESOURCE[op.weight]} ${num(op.size)} Tf`;
      if (selected !== font) out.push((font = selected));
      const [x, y] = [Math.round(op.x * 100) / 100, Math.round(flip(op.y) * 100) / 100];
      out.push(`${num(x - lineX)} ${num(y - lineY)} Td <${uses[op.weight].encode(op.text)}> Tj`);
      [lineX, lineY] = [x, y];
      continue;
    }
    endText();
    switch (op.kind) {
      case 'rect':
        setFill(op.color);
        out.push(`${num(op.x)} ${num(flip(op.y + op.height))} ${num(op.width)} ${num(op.height)} re f`);
        break;
      case 'frame':
        out.push(`${rgb(op.color, 'RG')} ${num(op.lineWidth)} w ${num(op.x)} ${num(flip(op.y + op.height))} ${num(op.width)} ${num(op.height)} re S`);
        break;
      case 'line':
        out.push(`${rgb(op.color, 'RG')} ${num(op.width)} w ${num(op.x1)} ${num(flip(op.y1))} m ${num(op.x2)} ${num(flip(op.y2))} l S`);
        break;
      case 'watermark': {
        const face = uses.bold.face;
        const width = face.widthOf(op.text, op.size);
        const angle = Math.atan2(size.height, size.width);
        const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
        const lift = (face.file.capHeight / face.file.unitsPerEm) * op.size * 0.5;
        const x = size.width / 2 - (width / 2) * cos + lift * sin;
        const y = size.height / 2 - (width / 2) * sin - lift * cos;
        out.push(`q /GS1 gs BT ${rgb(op.color, 'rg')} /F2 ${num(op.size)} Tf ${num(cos)} ${num(sin)} ${num(-sin)} ${num(cos)} ${num(x)} ${num(y)} Tm <${uses.bold.encode(op.text)}> Tj ET Q`);
        break;
      }
      case 'link':
        break;
    }
  }
  endText();
  return out.join('\n');
}

/**
 * Writes the pages as a PDF with pdf-lib: fonts subset to the glyphs used, text as Identity-H glyph ids with
 * a ToUnicode map (so it can be searched and copied), links as URI annotations. No dates, ids or counters:
 * the same input gives the same bytes.
 */
export async function writePdf(input: PdfInput): Promise<Uint8Array<ArrayBuffer>> {
  const uses = { regular: new FontUse(input.fonts.regular), bold: new FontUse(input.fonts.bold) };
  const missing = new Set<number>();
  for (const ops of input.pages) {
    for (const op of ops) {
      if (op.kind === 'text') uses[op.weight].collect(op.text, missing);
      if (op.kind === 'watermark') uses.bold.collect(op.text, missing);
    }
  }
  if (missing.size) throw new UndrawableText([...missing].sort((a, b) => a - b));
  uses.regular.seal();
  uses.bold.seal();

  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(input.title, { showInWindowTitleBar: true });
  const { context } = doc;
  const fontRefs = { F1: embedFont(context, uses.regular), F2: embedFont(context, uses.bold) };
  const resources = context.register(
    context.obj({ Font: fontRefs, ExtGState: { GS1: { Type: 'ExtGState', ca: WATERMARK_OPACITY } } }),
  );

  for (const ops of input.pages) {
    const page = doc.addPage([input.size.width, input.size.height]);
    const content = new TextEncoder().encode(contentOf(ops, input.size, uses));
    const compressed = pako.deflate(content, { level: CONTENT_COMPRESSION_LEVEL });
    page.node.set(PDFName.of('Contents'), context.register(context.stream(compressed, { Filter: 'FlateDecode' })));
    page.node.set(PDFName.of('Resources'), resources);
    const links = ops.flatMap((op) =>
      op.kind === 'link'
        ? [
            context.register(
              context.obj({
                Type: 'Annot',
                Subtype: 'Link',
                Rect: [op.x, input.size.height - op.y - op.height, op.x + op.width, input.size.height - op.y].map((v) => Number(num(v))),
                Border: [0, 0, 0],
                A: { Type: 'Action', S: 'URI', URI: PDFString.of(op.url) },
              }),
            ),
          ]
        : [],
    );
    if (links.length) page.node.set(PDFName.of('Annots'), context.obj(links));
  }
  return (await doc.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false })) as Uint8Array<ArrayBuffer>;
}

