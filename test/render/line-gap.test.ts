import { beforeAll, describe, expect, it } from 'vitest';
import { parseDocumentRequest } from '../../src/documents/request.ts';
import { parseJson } from '../../src/json/parse.ts';
import { BusinessDocument } from '../../src/render/layout/document.ts';
import { FALLBACK_FACES } from '../../src/render/text/font-coverage.ts';
import { renderInput } from '../../src/templates/template.ts';
import { testFonts } from '../support/app.ts';
import { finalBody, INVOICE_FIELDS } from '../support/requests.ts';

const fonts = testFonts();
beforeAll(() => fonts.load(FALLBACK_FACES));

/** The baselines of the client's name and of its first detail line, as the layout draws them. */
function clientLines(name: string, details: string): number {
  const input = renderInput(
    parseDocumentRequest(
      parseJson(JSON.stringify(finalBody('invoice', { ...INVOICE_FIELDS, client_name: name, client_details: details }))),
    ),
  );
  const document = new BusinessDocument(fonts, input.paper, 'x');
  input.layout(document);
  const texts = document.finish(input.footer, input.preview)[0]!.ops.flatMap((op) => (op.kind === 'text' ? [op] : []));
  const nameAt = texts.find((op) => op.text === name)!.y;
  return texts.find((op) => op.text === details)!.y - nameAt;
}

describe('lines of scripts whose stacks stand taller than Latin letters get space above them (scripts.json lineGap)', () => {
  it('Tibetan and Myanmar address lines stand further from the name above; Latin and Thai ones do not move', () => {
    const latin = clientLines('Client Inc', 'Main Street 1');
    expect(clientLines('ประเทศไทย จำกัด', 'ถนนสุขุมวิท')).toBe(latin);
    const tibetan = clientLines('བཀྲ་ཤིས་དོན་གྲུབ།', 'ལྷ་ས་གྲོང་ཁྱེར་ནང་སྐོར་ལམ།');
    const myanmar = clientLines('ဦးအောင်ကျော်', 'အမှတ် ၁၂၊ ဗိုလ်ချုပ်လမ်း');
    expect(tibetan).toBeGreaterThan(latin + 2);
    expect(myanmar).toBeGreaterThan(latin + 2);
  });
});
