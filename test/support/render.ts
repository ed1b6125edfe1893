import { parseDocumentRequest } from '../../src/documents/request.ts';
import { parseJson } from '../../src/json/parse.ts';
import { renderPdf } from '../../src/render/index.ts';
import { renderInput } from '../../src/templates/template.ts';
import { testFonts } from './app.ts';

/** Validates a request body exactly as the API does and renders it. */
export function renderBody(body: unknown): Promise<Uint8Array> {
  return renderPdf(renderInput(parseDocumentRequest(parseJson(JSON.stringify(body)))), testFonts());
}
