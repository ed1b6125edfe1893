import { parseDocumentRequest } from '../../src/documents/request.ts';
import { warmUpRenderer } from '../../src/documents/warm-up.ts';
import { parseJson } from '../../src/json/parse.ts';
import { readFontFiles } from '../../src/render/font-files.ts';
import { loadFonts } from '../../src/render/fonts.ts';
import { renderPdf } from '../../src/render/index.ts';
import { FALLBACK_FACES } from '../../src/render/text/font-coverage.ts';
import { renderInput } from '../../src/templates/template.ts';
import { fixtureText } from '../support/requests.ts';

const fonts = loadFonts(readFontFiles());
warmUpRenderer(fonts);
const input = (file: string) => renderInput(parseDocumentRequest(parseJson(fixtureText(`script-invoices/${file}.json`))));
await renderPdf(input('arabic'), fonts);
await renderPdf(input('hindi'), fonts);
for (const name of process.argv.slice(2)) {
  const doc = input(name);
  const faces = FALLBACK_FACES.filter((face) => face.file.toLowerCase().includes(process.env.FACE ?? name));
  let t = performance.now();
  await fonts.load(faces);
  const load = performance.now() - t;
  t = performance.now();
  await renderPdf(doc, fonts);
  const first = performance.now() - t;
  t = performance.now();
  await renderPdf(doc, fonts);
  const again = performance.now() - t;
  console.log(name, faces.map((f) => f.file).join(','), `load ${load.toFixed(2)} first ${first.toFixed(2)} again ${again.toFixed(2)}`);
}
