import harfbuzz from 'harfbuzzjs/dist/harfbuzz.wasm';
import bold from '../../fonts/NotoSans-Bold.ttf';
import regular from '../../fonts/NotoSans-Regular.ttf';
import arabicBold from '../../fonts/NotoSansArabic-Bold.ttf';
import arabicRegular from '../../fonts/NotoSansArabic-Regular.ttf';
import armenianBold from '../../fonts/NotoSansArmenian-Bold.ttf';
import armenianRegular from '../../fonts/NotoSansArmenian-Regular.ttf';
import hebrewBold from '../../fonts/NotoSansHebrew-Bold.ttf';
import hebrewRegular from '../../fonts/NotoSansHebrew-Regular.ttf';
import zlib from '../../native/zlib.wasm';
import type { FontFiles } from '../render/fonts.ts';

/** The faces of FAMILIES_AT_START (src/render/fonts.ts), bundled: the isolate loads them while it starts, with no I/O. */
const AT_START: Readonly<Record<string, ArrayBuffer>> = {
  'NotoSansArmenian-Regular.ttf': armenianRegular,
  'NotoSansArmenian-Bold.ttf': armenianBold,
  'NotoSansHebrew-Regular.ttf': hebrewRegular,
  'NotoSansHebrew-Bold.ttf': hebrewBold,
  'NotoSansArabic-Regular.ttf': arabicRegular,
  'NotoSansArabic-Bold.ttf': arabicBold,
};

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
      harfbuzz: () => harfbuzz,
      read: async (file) => {
        const response = await assets().fetch(new URL(file, 'https://fonts.invalid/'));
        if (!response.ok) throw new Error(`font ${file}: static assets answered ${response.status}`);
        return new Uint8Array(await response.arrayBuffer());
      },
      readAtStart: (file) => {
        const bundled = AT_START[file];
        if (!bundled) throw new Error(`font ${file}: not bundled for the isolate's start`);
        return new Uint8Array(bundled);
      },
    },
  };
}
