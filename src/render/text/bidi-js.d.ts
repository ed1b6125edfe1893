/** Typings of bidi-js 1.1.0 (it ships none): the parts src/render/text/bidi.ts uses. */
declare module 'bidi-js' {
  interface EmbeddingLevels {
    levels: Uint8Array;
    paragraphs: { start: number; end: number; level: number }[];
  }
  interface Bidi {
    getEmbeddingLevels(text: string, direction?: 'ltr' | 'rtl'): EmbeddingLevels;
    getMirroredCharacter(char: string): string | null;
    /** The bidi type of a UTF-16 unit, by its Unicode name (`L`, `R`, `AL`, `B`, `LRI`, `PDI`…). */
    getBidiCharTypeName(char: string): string;
  }
  export default function bidiFactory(): Bidi;
}
