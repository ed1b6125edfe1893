import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FontFiles } from './fonts.ts';

/** The bundled fonts read from fonts/ (Bun, Node, tests); the Worker imports the same files as data modules. */
export function readFontFiles(): FontFiles {
  const path = (name: string) => fileURLToPath(new URL(`../../fonts/${name}`, import.meta.url));
  return { regular: readFileSync(path('NotoSans-Regular.ttf')), bold: readFileSync(path('NotoSans-Bold.ttf')) };
}

/** HarfBuzz compiled from the harfbuzzjs package (Bun, Node, tests); the Worker imports the same .wasm file. */
export function readHarfBuzzModule(): Promise<WebAssembly.Module> {
  return WebAssembly.compile(readFileSync(fileURLToPath(import.meta.resolve('harfbuzzjs/dist/harfbuzz.wasm'))));
}
