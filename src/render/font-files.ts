import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FontFiles } from './fonts.ts';

const fontPath = (name: string) => fileURLToPath(new URL(`../../fonts/${name}`, import.meta.url));

/**
 * The bundled fonts read from fonts/ (Bun, Node, tests): the Latin faces and the compressor now, the script
 * faces and the shaper when a text first needs them. The Worker imports the Latin faces and the compressor as
 * modules and reads the rest from its static assets (worker-fonts.ts).
 */
export function readFontFiles(): FontFiles {
  return {
    regular: readFileSync(fontPath('NotoSans-Regular.ttf')),
    bold: readFileSync(fontPath('NotoSans-Bold.ttf')),
    zlib: readZlibModule(),
    scripts: {
      harfbuzz: readHarfBuzzModule,
      read: (file) => readFile(fontPath(file)),
      readAtStart: (file) => readFileSync(fontPath(file)),
    },
  };
}

/**
 * HarfBuzz compiled from the harfbuzzjs package (Bun, Node, tests), synchronously (V8 and JavaScriptCore compile a
 * function's code when it first runs); the Worker imports the same .wasm file.
 */
export function readHarfBuzzModule(): WebAssembly.Module {
  return new WebAssembly.Module(readFileSync(fileURLToPath(import.meta.resolve('harfbuzzjs/dist/harfbuzz.wasm'))));
}

/** The PDF streams' compressor (native/zlib.wasm, 55 KB: compiled synchronously); the Worker imports the same file. */
export function readZlibModule(): WebAssembly.Module {
  return new WebAssembly.Module(readFileSync(fileURLToPath(new URL('../../native/zlib.wasm', import.meta.url))));
}
