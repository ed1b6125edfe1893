import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/contract/api-error.ts';
import { parseDocumentRequest } from '../../src/documents/request.ts';
import { parseJson } from '../../src/json/parse.ts';
import { INVOICE_FIELDS } from '../support/requests.ts';

/** The error parseDocumentRequest throws for a JSON text, as the answer states it. */
function refusal(text: string) {
  try {
    parseDocumentRequest(parseJson(text));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, code: error.code, message: error.message, details: error.details };
  }
  throw new Error(`accepted: ${text}`);
}

const detail = (code: string, field: string, message: string) => ({ code, field, message });

describe('the top level of a document request (spec 2.1)', () => {
  it('lists unknown names first, then each parameter in order, with its detail code and message', () => {
    expect(refusal('{"mode":"x","paper":null,"locale":5,"output":[],"reference":"","template_version":"x","zz":1,"yy":2}')).toEqual({
      status: 400,
      code: 'invalid_request',
      message: '10 problems were found. Each is listed in details.',
      details: [
        detail('unknown_parameter', 'zz', 'Unknown parameter zz.'),
        detail('unknown_parameter', 'yy', 'Unknown parameter yy.'),
        detail('required', 'template', 'template is required.'),
        detail('unsupported_value', 'mode', 'mode must be one of: final, preview.'),
        detail('required', 'fields', 'fields is required.'),
        detail('invalid_template_version', 'template_version', 'template_version is a major version as digits, such as "2".'),
        detail('invalid_reference', 'reference', 'reference is 1 to 128 printable ASCII characters without leading or trailing space.'),
        detail('wrong_type', 'paper', 'paper may be left out but not null.'),
        detail('wrong_type', 'locale', 'locale must be a string.'),
        detail('wrong_type', 'output', 'output must be an object.'),
      ],
    });
  });

  it('names the JSON type a required parameter takes', () => {
    expect(refusal('{"template":5,"mode":5,"fields":5}').details).toEqual([
      detail('wrong_type', 'template', 'template must be a string.'),
      detail('wrong_type', 'mode', 'mode must be a string.'),
      detail('wrong_type', 'fields', 'fields must be an object.'),
    ]);
  });

  it('answers one problem with its own message, at the member it concerns', () => {
    const body = { template: 'invoice', mode: 'final', fields: INVOICE_FIELDS, output: { format: 'PDF' } };
    expect(refusal(JSON.stringify(body))).toEqual({
      status: 400,
      code: 'invalid_request',
      message: 'output.format must be "pdf".',
      details: [detail('unsupported_value', 'output.format', 'output.format must be "pdf".')],
    });
  });

  it('reads a valid request with the defaults of what was left out, and a pinned major without leading zeros', () => {
    const read = parseDocumentRequest(parseJson(JSON.stringify({ template: 'invoice', mode: 'final', fields: INVOICE_FIELDS })));
    expect(read).toMatchObject({ mode: 'final', paper: 'a4', locale: 'en', reference: null });
    const pinned = { template: 'invoice', mode: 'preview', fields: INVOICE_FIELDS, template_version: '000000002', paper: 'letter' };
    expect(parseDocumentRequest(parseJson(JSON.stringify(pinned)))).toMatchObject({ mode: 'preview', paper: 'letter' });
    expect(refusal(JSON.stringify({ ...pinned, template_version: '01' }))).toMatchObject({
      status: 409,
      message: expect.stringMatching(/^The invoice template is at version 2\.\d+\.\d+; major 1 is not available\.$/),
    });
  });
});
