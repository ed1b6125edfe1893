import harfbuzz from 'harfbuzzjs/dist/harfbuzz.wasm';
import bold from '../../fonts/NotoSans-Bold.ttf';
import regular from '../../fonts/NotoSans-Regular.ttf';
import zlib from '../../native/zlib.wasm';
import type { FontFiles } from '../render/fonts.ts';

/**
 * The Worker's fonts: the Latin faces bundled as data modules (wrangler.toml [[rules]]), HarfBuzz and the PDF
 * streams' compressor as compiled WebAssembly modules, and the script faces, too large for the script bundle,
 * read from the Worker's static assets (wrangler.toml [assets], fonts/) the first time a text needs them, then
 * kept by the isolate.
 * `assets` is the binding, known once the first request brings the environment.
 */
export function workerFontFiles(assets: () => Fetcher): FontFiles {
  return {
    regular: new Uint8Array(regular),
    bold: new Uint8Array(bold),
    zlib,
    scripts: {
      harfbuzz: async () => harfbuzz,
      read: async (file) => {
        const response = await assets().fetch(new URL(file, 'https://fonts.invalid/'));
        if (!response.ok) throw new Error(`font ${file}: static assets answered ${response.status}`);
        return new Uint8Array(await response.arrayBuffer());
      },
    },
  };
}
