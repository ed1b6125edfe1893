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
/** Fill opacity of the preview watermark: legible across the page without hiding what is under it. */
const WATERMARK_OPACITY = 0.16;

/** Numbers in content streams: at most 2 decimals, no trailing zeros; the same text in every runtime. */
function num(value: number): string {
  const fixed = value.toFixed(2);
  const trimmed = fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
  return trimmed === '-0' ? '0' : trimmed;
}

const rgb = (color: Rgb, operator: 'rg' | 'RG') => `${num(color[0])} ${num(color[1])} ${num(color[2])} ${operator}`;
const hex4 = (value: number) => value.toString(16).toUpperCase().padStart(4, '0');

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

function embedFont(context: PDFContext, use: FontUse): PDFRef {
  const { file } = use.face;
  const scale = 1000 / file.unitsPerEm;
  const name = `${use.tag()}+${use.face.postscriptName}`;
  const fontFile = subsetTrueType(file, use.glyphs);
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
    FontFile2: context.register(context.flateStream(fontFile, { Length1: fontFile.length })),
  });
  const widths = use.glyphs.map((gid) => Math.round(file.advances[gid]! * scale));
  const cidFont = context.obj({
    Type: 'Font',
    Subtype: 'CIDFontType2',
    BaseFont: name,
    CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
    FontDescriptor: context.register(descriptor),
    W: [0, widths],
    CIDToGIDMap: 'Identity',
  });
  const toUnicode = context.register(context.flateStream(new TextEncoder().encode(toUnicodeCMap(use))));
  return context.register(
    context.obj({
      Type: 'Font',
      Subtype: 'Type0',
      BaseFont: name,
      Encoding: 'Identity-H',
      DescendantFonts: [context.register(cidFont)],
      ToUnicode: toUnicode,
    }),
  );
}

function contentOf(ops: readonly DrawOp[], size: PageSize, uses: Record<FontWeight, FontUse>): string {
  const out: string[] = [];
  const flip = (y: number) => size.height - y;
  for (const op of ops) {
    switch (op.kind) {
      case 'text':
        out.push(`BT ${rgb(op.color, 'rg')} /${FONT_RESOURCE[op.weight]} ${num(op.size)} Tf 1 0 0 1 ${num(op.x)} ${num(flip(op.y))} Tm <${uses[op.weight].encode(op.text)}> Tj ET`);
        break;
      case 'rect':
        out.push(`${rgb(op.color, 'rg')} ${num(op.x)} ${num(flip(op.y + op.height))} ${num(op.width)} ${num(op.height)} re f`);
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
  return out.join('\n');
}

/**
 * Writes the pages as a PDF with pdf-lib: fonts subset to the glyphs used, text as Identity-H glyph ids with
 * a ToUnicode map (so it can be searched and copied), links as URI annotations. No dates, ids or counters:
 * the same input gives the same bytes.
 */
export async function writePdf(input: PdfInput): Promise<Uint8Array> {
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
    page.node.set(PDFName.of('Contents'), context.register(context.flateStream(content)));
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
  return doc.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false });
}

