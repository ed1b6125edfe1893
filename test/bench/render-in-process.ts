import { parseDocumentRequest } from '../../src/documents/request.ts';
import { parseJson } from '../../src/json/parse.ts';
import { readFontFiles } from '../../src/render/font-files.ts';
import { loadFonts } from '../../src/render/fonts.ts';
import { renderPdf } from '../../src/render/index.ts';
import { renderInput } from '../../src/templates/template.ts';
import { fixtureText } from '../support/requests.ts';
import { REFERENCES, timeRuns } from './measure.ts';

/**
 * Renders the reference requests in this process (Node or Bun, whichever runs this file) and prints one JSON
 * line per document. Fonts are parsed once, as in the server; each render is the whole renderPdf call.
 */
const fonts = loadFonts(readFontFiles());
for (const reference of REFERENCES) {
  const request = parseDocumentRequest(parseJson(fixtureText(reference.file)));
  const summary = await timeRuns(async () => (await renderPdf(renderInput(request), fonts)).length);
  console.log(JSON.stringify({ document: reference.name, ...summary }));
}
