import pako from 'pako';
import { type PDFContext, PDFDocument, PDFHexString, PDFName, type PDFRef } from 'pdf-lib';
import type { DrawOp, PageSize, Rgb } from './canvas.ts';
import { UndrawableText } from './errors.ts';
import type { FontFace, FontSet, FontWeight } from './fonts.ts';
import type { ShapedGlyph } from './shaping.ts';
import { closeGlyphSet, subsetTrueType } from './truetype.ts';

interface PdfInput {
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

/**
 * Every string this writer puts into a PDF object is hex-encoded, never a literal `( … )`: in a hex string no
 * character can close the string or start another object, so `)`, `\`, CR or LF in a caller's link or number
 * stay data (PDF 32000 7.3.4.3).
 */
function asciiString(text: string): PDFHexString {
  let hex = '';
  for (let i = 0; i < text.length; i++) hex += HEX_BYTES[text.charCodeAt(i) & 0x7f]!;
  return PDFHexString.of(hex);
}

/**
 * A link target is 7-bit ASCII (PDF 32000 12.6.4.7). The url rules only let ASCII through; anything else
 * would be percent-encoded as UTF-8, as an IRI becomes a URI (RFC 3987 3.1).
 */
function uriString(url: string): PDFHexString {
  const encoder = new TextEncoder();
  return asciiString(url.replace(/[^\p{ASCII}]+/gu, (run) => [...encoder.encode(run)].map((byte) => `%${HEX_BYTES[byte]}`).join('')));
}

/** A text string (document information): UTF-16BE with its byte order mark, hex-encoded (PDF 32000 7.9.2.2). */
function textString(text: string): PDFHexString {
  return PDFHexString.fromText(text);
}

/** The glyphs one font draws in a document, renumbered for its subset. */
class FontUse {
  readonly face: FontFace;
  readonly used = new Map<number, number>();
  glyphs: number[] = [];
  /** The subset's glyph id of each glyph of the font. */
  newIds = new Uint16Array(0);
  /** Each text's glyphs, shaped once for collecting and again used for writing. */
  private readonly shaped = new Map<string, ShapedGlyph[]>();

  constructor(face: FontFace) {
    this.face = face;
  }

  /** Shapes a text once, noting its glyphs, and the characters the font cannot draw (shaped as glyph 0). */
  collect(text: string, missing: Set<number>): void {
    if (this.shaped.has(text)) return;
    const glyphs = this.face.shape(text);
    this.shaped.set(text, glyphs);
    for (const glyph of glyphs) {
      if (glyph.gid === 0) missing.add(glyph.codePoint);
      else if (!this.used.has(glyph.gid)) this.used.set(glyph.gid, glyph.codePoint);
    }
  }

  seal(): void {
    this.glyphs = closeGlyphSet(this.face.file, this.used.keys());
    this.newIds = new Uint16Array(this.face.file.numGlyphs);
    this.glyphs.forEach((gid, index) => {
      this.newIds[gid] = index;
    });
  }

  /**
   * The operators that show a text at the current point: glyph ids in TJ arrays, with the kerning and mark
   * offsets the shaper gave as adjustments between glyphs, and a mark raised or lowered by text rise.
   */
  show(text: string, size: number): string {
    const { advances, unitsPerEm } = this.face.file;
    const scale = 1000 / unitsPerEm;
    const out: string[] = [];
    let array = '';
    let run = '';
    let shift = 0;
    let rise = 0;
    const flushRun = () => {
      if (run) array += `<${run}>`;
      run = '';
    };
    const flushArray = () => {
      flushRun();
      if (array) out.push(`[${array}] TJ`);
      array = '';
    };
    for (const glyph of this.shaped.get(text)!) {
      shift += glyph.dx;
      if (Math.abs(shift) >= 0.005) {
        flushRun();
        array += num(-shift);
      }
      if (glyph.dy !== rise) {
        flushArray();
        rise = glyph.dy;
        out.push(`${num((rise * size) / 1000)} Ts`);
      }
      run += hex4(this.newIds[glyph.gid]!);
      shift = glyph.advance - advances[glyph.gid]! * scale - glyph.dx;
    }
    flushArray();
    if (rise !== 0) out.push('0 Ts');
    return out.join(' ');
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
  const entries = [...use.used].map(([gid, codePoint]) => `<${hex4(use.newIds[gid]!)}> <${hex4(codePoint)}>`).sort();
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
    CIDSystemInfo: { Registry: asciiString('Adobe'), Ordering: asciiString('Identity'), Supplement: 0 },
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
  const watermarks: Extract<DrawOp, { kind: 'watermark' }>[] = [];
  const flip = (y: number) => size.height - y;
  let inText = false;
  let font = '';
  let fill = '';
  let lineX = 0;
  let lineY = 0;
  const setFill = (color: Rgb) => {
    const operator = rgb(color, 'rg');
    if (operator === fill) return;
    fill = operator;
    out.push(operator);
  };
  const endText = () => {
    if (inText) out.push('ET');
    inText = false;
  };
  for (const op of ops) {
    if (op.kind === 'text') {
      if (!inText) {
        out.push('BT');
        lineX = 0;
        lineY = 0;
      }
      inText = true;
      setFill(op.color);
      const selected = `/${FONT_RESOURCE[op.weight]} ${num(op.size)} Tf`;
      if (selected !== font) {
        font = selected;
        out.push(selected);
      }
      const [x, y] = [Math.round(op.x * 100) / 100, Math.round(flip(op.y) * 100) / 100];
      out.push(`${num(x - lineX)} ${num(y - lineY)} Td ${uses[op.weight].show(op.text, op.size)}`);
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
        out.push(
          `${rgb(op.color, 'RG')} ${num(op.lineWidth)} w ${num(op.x)} ${num(flip(op.y + op.height))} ${num(op.width)} ${num(op.height)} re S`,
        );
        break;
      case 'line':
        out.push(`${rgb(op.color, 'RG')} ${num(op.width)} w ${num(op.x1)} ${num(flip(op.y1))} m ${num(op.x2)} ${num(flip(op.y2))} l S`);
        break;
      case 'watermark':
        watermarks.push(op);
        break;
      case 'link':
        break;
    }
  }
  endText();
  for (const mark of watermarks) out.push(watermarkOf(mark, size, uses.bold));
  return out.join('\n');
}

/**
 * The preview marking across the page, drawn after everything else as one text object. It is real text, but
 * marked as an artifact (not content) and given its own text as ActualText, so that text extraction keeps it
 * whole and after the content instead of sorting its diagonal letters into the lines it crosses.
 */
function watermarkOf(op: Extract<DrawOp, { kind: 'watermark' }>, size: PageSize, use: FontUse): string {
  const { face } = use;
  const width = face.widthOf(op.text, op.size);
  // The page's diagonal as a direction, from + × ÷ and sqrt only: those are exactly rounded in every engine,
  // where atan2, cos, sin and hypot may differ in the last bit between Node, Bun and workerd.
  const diagonal = Math.sqrt(size.width * size.width + size.height * size.height);
  const [cos, sin] = [size.width / diagonal, size.height / diagonal];
  const lift = (face.file.capHeight / face.file.unitsPerEm) * op.size * 0.5;
  const x = size.width / 2 - (width / 2) * cos + lift * sin;
  const y = size.height / 2 - (width / 2) * sin - lift * cos;
  const matrix = [cos, sin, -sin, cos, x, y].map(num).join(' ');
  const actualText = textString(op.text).toString();
  return `/Artifact BMC /Span << /ActualText ${actualText} >> BDC q /GS1 gs BT ${rgb(op.color, 'rg')} /F2 ${num(op.size)} Tf ${matrix} Tm ${use.show(op.text, op.size)} ET Q EMC EMC`;
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
  // pdf-lib writes the title as a hex text string (PDFHexString.fromText), as textString does.
  doc.setTitle(input.title, { showInWindowTitleBar: true });
  const { context } = doc;
  const fontRefs = { F1: embedFont(context, uses.regular), F2: embedFont(context, uses.bold) };
  const resources = context.register(context.obj({ Font: fontRefs, ExtGState: { GS1: { Type: 'ExtGState', ca: WATERMARK_OPACITY } } }));

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
                A: { Type: 'Action', S: 'URI', URI: uriString(op.url) },
              }),
            ),
          ]
        : [],
    );
    if (links.length) page.node.set(PDFName.of('Annots'), context.obj(links));
  }
  return (await doc.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false })) as Uint8Array<ArrayBuffer>;
}
