import { HEADERS } from '../contract/headers.ts';
import { readLimited } from '../http/body.ts';
import { PageError } from './errors.ts';

/** Settings forms are a few short fields; anything larger is no form of these pages. */
export const FORM_MAX_BYTES = 4_096;

function badForm(message: string): PageError {
  return new PageError(400, 'This form could not be read', message);
}

/** The fields of a POSTed form: application/x-www-form-urlencoded, UTF-8, at most `maxBytes` (FORM_MAX_BYTES). */
export async function readForm(request: Request, maxBytes: number = FORM_MAX_BYTES): Promise<URLSearchParams> {
  const [mediaType] = (request.headers.get(HEADERS.contentType) ?? '').split(';');
  if (mediaType!.trim().toLowerCase() !== 'application/x-www-form-urlencoded') {
    throw badForm('Send the form from the Settings page (application/x-www-form-urlencoded).');
  }
  const bytes = await readLimited(request, maxBytes, () => badForm(`The form is over ${maxBytes} bytes.`));
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw badForm('The form is not valid UTF-8.');
  }
  return new URLSearchParams(text);
}

/** One field given at most once; absent is the empty text. */
export function field(form: URLSearchParams, name: string): string {
  const values = form.getAll(name);
  if (values.length > 1) throw badForm(`The field ${name} is given more than once.`);
  return values[0] ?? '';
}
