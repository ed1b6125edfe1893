import type { AppConfig } from '../config.ts';
import { ApiError } from '../contract/api-error.ts';
import { HEADERS } from '../contract/headers.ts';
import { ENGINE_BUSY_RETRY_AFTER_SECONDS, type RenderEngine } from '../render/engine.ts';
import { characterNames, EngineBusy, EngineUnavailable, RenderTimedOut, UndrawableText } from '../render/errors.ts';
import { renderInput } from '../templates/template.ts';
import type { DocumentRequest } from './request.ts';

/** What rendering a checked request needs, whoever asks: the API's create route or the web app. */
export interface RenderDeps {
  readonly config: Pick<AppConfig, 'pdfJsonLimit' | 'pdfFileLimit'>;
  readonly engine: RenderEngine;
}

/** How the PDF will be sent, and who is told how long the render took. */
export interface RenderRequest {
  /** The JSON form was asked for: its size limit applies instead of the file's. */
  readonly asJson: boolean;
  readonly onRendered: (renderMs: number) => void;
}

/** Renders, refusing what the fonts cannot draw (422) and what is too large to send in the asked form (413). */
export async function renderDocument(
  document: DocumentRequest,
  request: RenderRequest,
  deps: RenderDeps,
): Promise<Uint8Array<ArrayBuffer>> {
  const { asJson } = request;
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    const started = performance.now();
    bytes = await deps.engine.render(renderInput(document));
    request.onRendered(performance.now() - started);
  } catch (error) {
    throw renderRefusal(error);
  }
  const limit = asJson ? deps.config.pdfJsonLimit : deps.config.pdfFileLimit;
  if (bytes.length > limit) {
    throw new ApiError('response_too_large', {
      message: `The PDF is ${bytes.length} bytes, over the ${limit}-byte limit of the ${asJson ? 'JSON' : 'file'} form; nothing was charged.`,
    });
  }
  return bytes;
}

/** The contract's answer to a renderer's refusal; anything else is not a refusal and goes on as it is. */
function renderRefusal(error: unknown): unknown {
  if (error instanceof UndrawableText) {
    const characters = [...new Set(error.values.flatMap((value) => value.characters))];
    return new ApiError('render_rejected', {
      message: `The document contains characters the bundled fonts cannot draw (${characterNames(characters)}); nothing was charged.`,
      details: error.values.map((value) => ({
        code: 'undrawable_characters',
        message: `The bundled fonts cannot draw ${characterNames(value.characters)}.`,
        ...(value.field ? { field: value.field } : {}),
      })),
    });
  }
  if (error instanceof EngineUnavailable) {
    return new ApiError('engine_unavailable', {
      message: 'A font the document needs could not be loaded; nothing was charged. Retry later with the same key.',
    });
  }
  if (error instanceof EngineBusy) {
    return new ApiError('engine_busy', {
      message: 'The PDF engine is at capacity; retry shortly. Nothing was charged.',
      headers: { [HEADERS.retryAfter]: String(ENGINE_BUSY_RETRY_AFTER_SECONDS) },
    });
  }
  if (error instanceof RenderTimedOut) return new ApiError('render_timeout', { message: 'Rendering took too long; nothing was charged.' });
  return error;
}
