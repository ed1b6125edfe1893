/**
 * HarfBuzz (the harfbuzzjs package's harfbuzz.wasm, HarfBuzz 15.0.0) driven directly through its exports. The
 * package's own JS glue is not used: it loads the wasm itself (createRequire, fetch, a compile at run time),
 * which workerd refuses; here the caller hands over the compiled module (Node/Bun: font-files.ts
 * readHarfBuzzModule; the Worker imports the .wasm file, which Wrangler compiles at deploy time).
 *
 * Every number HarfBuzz gives back is an integer in font units (a font's scale is its units per em unless set
 * otherwise), so the glyph runs are the same on every runtime.
 */

/** HarfBuzz's C functions the wrapper calls; pointers and handles are offsets into `memory`. */
interface HarfBuzzExports {
  readonly memory: WebAssembly.Memory;
  __wasm_call_ctors(): void;
  malloc(size: number): number;
  free(pointer: number): void;
  hb_blob_create(data: number, length: number, mode: number, userData: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_face_create(blob: number, index: number): number;
  hb_face_get_upem(face: number): number;
  hb_font_create(face: number): number;
  hb_buffer_create(): number;
  hb_buffer_destroy(buffer: number): void;
  hb_buffer_add_utf16(buffer: number, text: number, textLength: number, itemOffset: number, itemLength: number): void;
  hb_buffer_set_direction(buffer: number, direction: number): void;
  hb_buffer_set_script(buffer: number, script: number): void;
  hb_buffer_set_language(buffer: number, language: number): void;
  hb_buffer_set_flags(buffer: number, flags: number): void;
  hb_buffer_guess_segment_properties(buffer: number): void;
  hb_buffer_set_cluster_level(buffer: number, level: number): void;
  hb_buffer_get_length(buffer: number): number;
  hb_buffer_get_glyph_infos(buffer: number, length: number): number;
  hb_buffer_get_glyph_positions(buffer: number, length: number): number;
  hb_script_from_string(text: number, length: number): number;
  hb_language_from_string(text: number, length: number): number;
  hb_shape(font: number, buffer: number, features: number, featureCount: number): void;
}

export interface HarfBuzz {
  /**
   * A font from its file (a collection's face `index`, 0 for a single font). The bytes are copied into
   * HarfBuzz's memory and kept with the face for the life of the process: fonts are loaded once.
   */
  face(bytes: Uint8Array, index?: number): HarfBuzzFace;
}

export interface HarfBuzzFace {
  readonly unitsPerEm: number;
  /** Shapes text.slice(start, start + length) with the rest of `text` as context (hb_buffer_add_utf16). */
  shape(text: string, start: number, length: number, options: ShapeOptions): HarfBuzzGlyph[];
}

export interface ShapeOptions {
  direction: 'ltr' | 'rtl';
  /** ISO 15924, e.g. 'Arab'; HarfBuzz guesses from the text when absent. */
  script?: string;
  /** BCP 47, e.g. 'ja'; chooses the font's language-specific forms (locl). */
  language?: string;
}

/** In font units; glyphs in visual order as HarfBuzz outputs them; cluster = UTF-16 index into `text`. */
export interface HarfBuzzGlyph {
  gid: number;
  cluster: number;
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
}

const HB_MEMORY_MODE_READONLY = 1;
const HB_DIRECTION = { ltr: 4, rtl: 5 } as const;
const HB_BUFFER_FLAG_BOT = 1;
const HB_BUFFER_FLAG_EOT = 2;
const HB_BUFFER_CLUSTER_LEVEL_MONOTONE_GRAPHEMES = 0;
/** hb_glyph_info_t and hb_glyph_position_t are both five 32-bit words. */
const GLYPH_RECORD_WORDS = 5;
const WASM_PAGE = 65536;

/**
 * Instantiates HarfBuzz from its compiled module, synchronously (so that a process or isolate can warm it up while it
 * starts, with no task left behind); one instance serves every font of the process.
 */
export function instantiateHarfBuzz(module: WebAssembly.Module): HarfBuzz {
  let memory: WebAssembly.Memory | undefined;
  const fail = (what: string) => () => {
    throw new WebAssembly.RuntimeError(`HarfBuzz: ${what}`);
  };
  // The few functions the Emscripten build imports: heap growth is real (a large font, a long text); aborts
  // and exits only happen on a HarfBuzz bug and become errors; timers are never used by shaping.
  const env = {
    emscripten_resize_heap(requested: number): number {
      const current = memory!.buffer.byteLength;
      const wanted = Math.max(requested >>> 0, current + Math.floor(current / 5));
      try {
        memory!.grow(Math.ceil((wanted - current) / WASM_PAGE));
        return 1;
      } catch {
        return 0;
      }
    },
    _abort_js: fail('abort'),
    _setitimer_js: fail('setitimer'),
    _emscripten_runtime_keepalive_clear: () => {},
  };
  const instance = new WebAssembly.Instance(module, { env, wasi_snapshot_preview1: { proc_exit: fail('exit') } });
  const hb = instance.exports as unknown as HarfBuzzExports;
  memory = hb.memory;
  hb.__wasm_call_ctors();
  const tags: Tags = {
    script: tagLookup(hb, hb.hb_script_from_string),
    language: tagLookup(hb, hb.hb_language_from_string),
  };
  return { face: (bytes, index = 0) => openFace(hb, tags, bytes, index) };
}

interface Tags {
  script(tag: string): number;
  language(tag: string): number;
}

/** malloc, which answers 0 when the heap cannot grow (wasm memory is at most 2 GB here). */
function allocate(hb: HarfBuzzExports, size: number): number {
  const pointer = hb.malloc(size);
  if (pointer === 0) throw new RangeError(`HarfBuzz: out of memory for ${size} bytes`);
  return pointer;
}

function openFace(hb: HarfBuzzExports, tags: Tags, bytes: Uint8Array, index: number): HarfBuzzFace {
  // The copy is never freed (no destroy function): the face, which holds the blob, lives as long as the process.
  const data = allocate(hb, bytes.length);
  new Uint8Array(hb.memory.buffer, data, bytes.length).set(bytes);
  const blob = hb.hb_blob_create(data, bytes.length, HB_MEMORY_MODE_READONLY, 0, 0);
  const face = hb.hb_face_create(blob, index);
  hb.hb_blob_destroy(blob);
  const font = hb.hb_font_create(face);
  return {
    unitsPerEm: hb.hb_face_get_upem(face),
    shape: (text, start, length, options) => shapeText(hb, tags, font, text, start, length, options),
  };
}

function shapeText(
  hb: HarfBuzzExports,
  tags: Tags,
  font: number,
  text: string,
  start: number,
  length: number,
  options: ShapeOptions,
): HarfBuzzGlyph[] {
  if (start < 0 || length < 0 || start + length > text.length) {
    throw new RangeError(`HarfBuzz: item ${start}+${length} outside a text of ${text.length}`);
  }
  const units = allocate(hb, text.length * 2 || 2);
  const buffer = hb.hb_buffer_create();
  try {
    const view = new Uint16Array(hb.memory.buffer, units, text.length);
    for (let i = 0; i < text.length; i++) view[i] = text.charCodeAt(i);
    hb.hb_buffer_add_utf16(buffer, units, text.length, start, length);
    hb.hb_buffer_set_direction(buffer, HB_DIRECTION[options.direction]);
    if (options.script !== undefined) hb.hb_buffer_set_script(buffer, tags.script(options.script));
    if (options.language !== undefined) hb.hb_buffer_set_language(buffer, tags.language(options.language));
    // What is still unset (the script of a CJK or symbols run) is taken from the text, as hb-shape does.
    hb.hb_buffer_guess_segment_properties(buffer);
    // Beginning/end of text only where the item touches the ends of `text` (HarfBuzz: "should usually be set,
    // unless you are passing only part of the text"), e.g. a dotted circle under a mark that starts a value.
    const flags = (start === 0 ? HB_BUFFER_FLAG_BOT : 0) | (start + length === text.length ? HB_BUFFER_FLAG_EOT : 0);
    hb.hb_buffer_set_flags(buffer, flags);
    hb.hb_buffer_set_cluster_level(buffer, HB_BUFFER_CLUSTER_LEVEL_MONOTONE_GRAPHEMES);
    hb.hb_shape(font, buffer, 0, 0);
    return readGlyphs(hb, buffer);
  } finally {
    hb.hb_buffer_destroy(buffer);
    hb.free(units);
  }
}

function readGlyphs(hb: HarfBuzzExports, buffer: number): HarfBuzzGlyph[] {
  const count = hb.hb_buffer_get_length(buffer);
  const infos = new Uint32Array(hb.memory.buffer, hb.hb_buffer_get_glyph_infos(buffer, 0), count * GLYPH_RECORD_WORDS);
  const positions = new Int32Array(hb.memory.buffer, hb.hb_buffer_get_glyph_positions(buffer, 0), count * GLYPH_RECORD_WORDS);
  const glyphs: HarfBuzzGlyph[] = [];
  for (let i = 0; i < count; i++) {
    const at = i * GLYPH_RECORD_WORDS;
    glyphs.push({
      gid: infos[at]!,
      cluster: infos[at + 2]!,
      xAdvance: positions[at]!,
      yAdvance: positions[at + 1]!,
      xOffset: positions[at + 2]!,
      yOffset: positions[at + 3]!,
    });
  }
  return glyphs;
}

/** hb_script_t and hb_language_t values are interned by HarfBuzz: each tag is looked up once per instance. */
function tagLookup(hb: HarfBuzzExports, fromString: (text: number, length: number) => number): (tag: string) => number {
  const known = new Map<string, number>();
  return (tag) => {
    const cached = known.get(tag);
    if (cached !== undefined) return cached;
    if (!/^[\x21-\x7e]+$/.test(tag)) throw new RangeError(`HarfBuzz: not an ASCII tag: ${JSON.stringify(tag)}`);
    const text = allocate(hb, tag.length);
    new Uint8Array(hb.memory.buffer, text, tag.length).set(Array.from(tag, (char) => char.charCodeAt(0)));
    const value = fromString(text, tag.length);
    hb.free(text);
    known.set(tag, value);
    return value;
  };
}
