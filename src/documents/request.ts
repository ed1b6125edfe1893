import { ApiError, type ErrorDetail } from '../contract/api-error.ts';
import { LOCALES, MODES, type Mode, PAPERS, type Paper } from '../contract/document-options.ts';
import { ERRORS } from '../contract/errors.ts';
import { LIMITS } from '../contract/limits.ts';
import { isJsonObject, JsonNumber, type JsonObject, type JsonValue } from '../json/parse.ts';
import type { RenderInput } from '../render/index.ts';
import { isBlank, type Path, type Problem } from '../templates/field-types.ts';
import { findTemplate } from '../templates/registry.ts';
import { majorVersion, renderInput, type TemplateDefinition } from '../templates/template.ts';
import type { Totals } from '../templates/totals.ts';
import { validateFields } from './fields.ts';
import { findReservedNames } from './reserved.ts';

const TOP_LEVEL_NAMES = ['template', 'mode', 'fields', 'template_version', 'reference', 'paper', 'locale', 'output'];

/** A request that passed every check of POST /api/v1/documents before rendering, normalised. */
export interface DocumentRequest {
  template: TemplateDefinition;
  mode: Mode;
  paper: Paper;
  locale: string;
  reference: string | null;
  values: Record<string, unknown>;
  currency: string;
  digits: number;
  totals: Totals;
}

type Detail = ErrorDetail & { code: string };
const detail = (code: string, field: string, message: string): Detail => ({ code, field, message });

function checkRequired(body: JsonObject, name: string, problems: Detail[]): JsonValue | undefined {
  const value = body[name];
  if (isBlank(value)) problems.push(detail('required', name, `${name} is required.`));
  return isBlank(value) ? undefined : value;
}

function checkChoice(value: JsonValue | undefined, name: string, choices: readonly string[], problems: Detail[]): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    problems.push(detail('wrong_type', name, `${name} must be a string.`));
    return undefined;
  }
  if (!choices.includes(value)) {
    problems.push(detail('unsupported_value', name, `${name} must be one of: ${choices.join(', ')}.`));
    return undefined;
  }
  return value;
}

/** An optional top-level parameter: absent is fine, `null` is a wrong type (spec 2.1 rule 2). */
function optionalParameter(body: JsonObject, name: string, problems: Detail[]): JsonValue | undefined {
  if (!Object.hasOwn(body, name)) return undefined;
  const value = body[name]!;
  if (value === null && name !== 'template_version') {
    problems.push(detail('wrong_type', name, `${name} may be left out but not null.`));
    return undefined;
  }
  return value;
}

function checkReference(value: JsonValue | undefined, problems: Detail[]): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string') {
    problems.push(detail('wrong_type', 'reference', 'reference must be a string.'));
    return null;
  }
  if (value.length < 1 || value.length > LIMITS.referenceChars || !/^[\x20-\x7e]+$/.test(value) || value.trim() !== value) {
    problems.push(
      detail(
        'invalid_reference',
        'reference',
        `reference is 1 to ${LIMITS.referenceChars} printable ASCII characters without leading or trailing space.`,
      ),
    );
    return null;
  }
  return value;
}

function checkTemplateVersion(body: JsonObject, problems: Detail[]): string | undefined {
  if (!Object.hasOwn(body, 'template_version')) return undefined;
  const value = body.template_version;
  const digits = typeof value === 'string' ? value : value instanceof JsonNumber ? value.text : undefined;
  if (digits === undefined || !/^\d{1,9}$/.test(digits)) {
    problems.push(detail('invalid_template_version', 'template_version', 'template_version is a major version as digits, such as "2".'));
    return undefined;
  }
  return String(Number(digits));
}

function checkOutput(value: JsonValue | undefined, problems: Detail[]): void {
  if (value === undefined) return;
  if (!isJsonObject(value)) {
    problems.push(detail('wrong_type', 'output', 'output must be an object.'));
    return;
  }
  if (value.format !== 'pdf') {
    problems.push(detail('unsupported_value', 'output.format', 'output.format must be "pdf".'));
  }
}

function countMessage(count: number, noun: string, verb: string): string {
  return count === 1 ? `1 ${noun} ${verb}.` : `${count} ${noun}s ${verb.replace(/^was /, 'were ')}.`;
}

/**
 * The message of an error with several details counts them and names none: a body of many thousand unknown
 * names would otherwise get a message many times its own size. `details` holds at most LIMITS.errorDetails.
 */
function countedMessage(count: number, noun: string, verb: string): string {
  const listed = count > LIMITS.errorDetails ? ` (the first ${LIMITS.errorDetails})` : '';
  return `${countMessage(count, noun, verb)} Each is listed in details${listed}.`;
}

function formatPath(path: Path): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : `${out}.${key}`), 'fields');
}

function validationFailed(problems: Problem[]): ApiError {
  const meanings = ERRORS.validation_failed.details as Record<string, string>;
  return new ApiError('validation_failed', {
    message: countedMessage(problems.length, 'problem', 'was found'),
    details: problems.map((problem) => ({
      code: problem.code,
      message: problem.message ?? meanings[problem.code]!,
      field: formatPath(problem.path),
    })),
  });
}

/**
 * Every check of POST /api/v1/documents before rendering, in the contract's order: reserved names (alone),
 * the top level (400), the template (404), the pinned version (409), the fields (422).
 */
export function parseDocumentRequest(body: JsonValue): DocumentRequest {
  if (!isJsonObject(body)) {
    throw new ApiError('invalid_request', { detail: 'wrong_type', message: 'The body must be a JSON object.' });
  }
  const reserved = findReservedNames(body);
  if (reserved.length) {
    const message = reserved.length === 1 ? reserved[0]!.message : countedMessage(reserved.length, 'reserved name', 'was used');
    throw new ApiError('reserved_field', { message, details: reserved });
  }

  const problems: Detail[] = Object.keys(body)
    .filter((name) => !TOP_LEVEL_NAMES.includes(name))
    .map((name) => detail('unknown_parameter', name, `Unknown parameter ${name}.`));
  const slugValue = checkRequired(body, 'template', problems);
  if (slugValue !== undefined && typeof slugValue !== 'string')
    problems.push(detail('wrong_type', 'template', 'template must be a string.'));
  const mode = checkChoice(checkRequired(body, 'mode', problems), 'mode', MODES, problems) as Mode | undefined;
  const fields = checkRequired(body, 'fields', problems);
  if (fields !== undefined && !isJsonObject(fields)) problems.push(detail('wrong_type', 'fields', 'fields must be an object.'));
  const pinned = checkTemplateVersion(body, problems);
  const reference = checkReference(optionalParameter(body, 'reference', problems), problems);
  const paper = checkChoice(optionalParameter(body, 'paper', problems), 'paper', PAPERS, problems) as Paper | undefined;
  const locale = checkChoice(optionalParameter(body, 'locale', problems), 'locale', LOCALES, problems);
  checkOutput(optionalParameter(body, 'output', problems), problems);
  if (problems.length) {
    throw new ApiError('invalid_request', {
      message: problems.length === 1 ? problems[0]!.message : countedMessage(problems.length, 'problem', 'was found'),
      details: problems,
    });
  }

  const template = findTemplate(slugValue as string);
  if (!template) {
    throw new ApiError('template_not_found', { message: `No template "${slugValue}"; use GET /api/v1/templates.` });
  }
  if (pinned !== undefined && pinned !== majorVersion(template)) {
    throw new ApiError('template_version_unavailable', {
      detail: 'major_mismatch',
      field: 'template_version',
      message: `The ${template.slug} template is at version ${template.version}; major ${pinned} is not available.`,
    });
  }

  const read = validateFields(template, fields as JsonObject);
  if (!read.ok) throw validationFailed(read.problems);
  return {
    template,
    mode: mode!,
    paper: paper ?? 'a4',
    locale: locale ?? 'en',
    reference,
    values: read.values,
    currency: read.currency,
    digits: read.digits,
    totals: read.totals,
  };
}

/** What the renderer is given for a request: a preview is marked as one. */
export function renderInputOf(request: DocumentRequest): RenderInput {
  return renderInput(request, request.paper, request.mode === 'preview');
}
