export interface HarfBuzz {
  face(bytes: Uint8Array): HarfBuzzFace;
}
export interface HarfBuzzFace {
  readonly unitsPerEm: number;
  shape(text: string, start: number, length: number, options: ShapeOptions): HarfBuzzGlyph[];
}
export interface ShapeOptions {
  direction: 'ltr' | 'rtl';
  script?: string;
  language?: string;
}
export interface HarfBuzzGlyph {
  gid: number;
  cluster: number;
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
}
export async function instantiateHarfBuzz(_module: WebAssembly.Module): Promise<HarfBuzz> {
  throw new Error('replaced by the harfbuzz helper');
}
