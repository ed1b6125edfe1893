import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseDocumentRequest } from '../../src/documents/request.ts';
import { parseJson } from '../../src/json/parse.ts';
import { readFontFiles } from '../../src/render/font-files.ts';
import { loadFonts } from '../../src/render/fonts.ts';
import { renderPdf } from '../../src/render/index.ts';
import { renderInput } from '../../src/templates/template.ts';

/** Prints the SHA-256 of the PDF for the request body in the file given, from a fresh process (Node or Bun). */
const request = parseDocumentRequest(parseJson(readFileSync(process.argv[2]!, 'utf8')));
const bytes = await renderPdf(renderInput(request), loadFonts(readFontFiles()));
console.log(createHash('sha256').update(bytes).digest('hex'));
