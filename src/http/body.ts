import { concatBytes } from '../bytes.ts';
import { ApiError } from '../contract/api-error.ts';
import type { ErrorCode } from '../contract/errors.ts';
import { HEADERS } from '../contract/headers.ts';
import { LIMITS } from '../contract/limits.ts';
import { JsonSyntaxError, type JsonValue, parseJson } from '../json/parse.ts';

function isJsonContentType(header: string | null): boolean {
  if (header === null) return false;
  const [mediaType] = header.split(';');
  return mediaType!.trim().toLowerCase() === 'application/json';
}

function tooLarge(): ApiError {
  return new ApiError('payload_too_large', { message: `The body is over ${LIMITS.requestBodyBytes} bytes.` });
}

/**
 * Reads at most the limit and stops there, whatever Content-Length says or whether it is sent at all; over it,
 * throws what `tooLargeError` makes (the API's 413 unless told otherwise).
 */
export async function readLimited(request: Request, limit: number, tooLargeError: () => Error = tooLarge): Promise<Uint8Array> {
  const declared = request.headers.get(HEADERS.contentLength);
  if (declared !== null && Number(declared) > limit) throw tooLargeError();
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLargeError();
    }
    chunks.push(value);
  }
  return concatBytes(chunks);
}

function malformed(message: string): ApiError {
  return new ApiError('invalid_request', { detail: 'malformed_json', message });
}

/** What reading a JSON body can answer with: not sent as JSON, too large, not JSON. */
export const JSON_BODY_ERRORS: readonly ErrorCode[] = ['unsupported_media_type', 'payload_too_large', 'invalid_request'];

/**
 * A request's JSON body, read once however many times it is asked for (a body can be read only once): the sign-in
 * may read it to send a route's statements with the key's look-up, and the handler reads it again.
 */
export class JsonBody {
  private readonly request: Request;
  private read: Promise<JsonValue> | undefined;

  constructor(request: Request) {
    this.request = request;
  }

  /** readJsonBody's answer, or its refusal, the same every time. */
  value(): Promise<JsonValue> {
    if (!this.read) {
      this.read = readJsonBody(this.request);
      // Awaited by whoever asks, which answers its failure; not an unhandled rejection meanwhile.
      this.read.catch(() => {});
    }
    return this.read;
  }
}

/** The JSON body of a POST: 415 unless sent as JSON, 413 over the limit, 400 malformed_json otherwise. */
export async function readJsonBody(request: Request): Promise<JsonValue> {
  if (!isJsonContentType(request.headers.get(HEADERS.contentType))) {
    throw new ApiError('unsupported_media_type', { message: `Send the body as JSON with ${HEADERS.contentType}: application/json.` });
  }
  const bytes = await readLimited(request, LIMITS.requestBodyBytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw malformed('The body is not valid UTF-8.');
  }
  try {
    return parseJson(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw malformed(`The body is not valid JSON: ${error.message}.`);
    throw error;
  }
}
