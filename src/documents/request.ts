import * as v from 'valibot';
import { ApiError, type ErrorDetail } from '../contract/api-error.ts';
import type { Mode, Paper } from '../contract/document-options.ts';
import { ERRORS } from '../contract/errors.ts';
import { LIMITS } from '../contract/limits.ts';
import { isJsonObject, type JsonNumber, type JsonObject, type JsonValue } from '../json/parse.ts';
import { isBlank, type Path, type Problem } from '../templates/field-types.ts';
import { findTemplate } from '../templates/registry.ts';
import { majorVersion, type TemplateDefinition } from '../templates/template.ts';
import type { Totals } from '../templates/totals.ts';
import { validateFields } from './fields.ts';
import { REQUEST_PARAMETERS, type RequestParameter } from './parameters.ts';
import { findReservedNames } from './reserved.ts';

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

const TYPE_NAMES = { string: 'a string', object: 'an object' } as const;
const hasType = (value: JsonValue, type: keyof typeof TYPE_NAMES) => (type === 'string' ? typeof value === 'string' : isJsonObject(value));

/** The problem of one top-level parameter, if it has one: missing, of another JSON type, or a value it does not take. */
function parameterProblem(body: JsonObject, name: string, parameter: RequestParameter): Detail | undefined {
  const value = body[name];
  if (parameter.required && isBlank(value)) return detail('required', name, `${name} is required.`);
  if (value === undefined) return undefined;
  if (parameter.type && !hasType(value, parameter.type)) {
    const message = value === null ? `${name} may be left out but not null.` : `${name} must be ${TYPE_NAMES[parameter.type]}.`;
    return detail('wrong_type', name, message);
  }
  if ('schema' in parameter && !v.is(parameter.schema, value)) {
    const field = parameter.refused.field ?? name;
    return detail(parameter.refused.code, field, `${field} ${parameter.refused.rule}`);
  }
  return undefined;
}

/** The major a valid `template_version` pins, without leading zeros: "02" and 2 both pin "2". */
const pinnedMajor = (value: string | JsonNumber) => String(Number(typeof value === 'string' ? value : value.text));

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
    .filter((name) => !Object.hasOwn(REQUEST_PARAMETERS, name))
    .map((name) => detail('unknown_parameter', name, `Unknown parameter ${name}.`));
  for (const [name, parameter] of Object.entries(REQUEST_PARAMETERS)) {
    const problem = parameterProblem(body, name, parameter);
    if (problem) problems.push(problem);
  }
  if (problems.length) {
    throw new ApiError('invalid_request', {
      message: problems.length === 1 ? problems[0]!.message : countedMessage(problems.length, 'problem', 'was found'),
      details: problems,
    });
  }

  // Every parameter sent now has the type and value its definition takes.
  const slug = body.template as string;
  const template = findTemplate(slug);
  if (!template) {
    throw new ApiError('template_not_found', { message: `No template "${slug}"; use GET /api/v1/templates.` });
  }
  const pinned = body.template_version === undefined ? undefined : pinnedMajor(body.template_version as string | JsonNumber);
  if (pinned !== undefined && pinned !== majorVersion(template)) {
    throw new ApiError('template_version_unavailable', {
      detail: 'major_mismatch',
      field: 'template_version',
      message: `The ${template.slug} template is at version ${template.version}; major ${pinned} is not available.`,
    });
  }

  const read = validateFields(template, body.fields as JsonObject);
  if (!read.ok) throw validationFailed(read.problems);
  return {
    template,
    mode: body.mode as Mode,
    paper: (body.paper ?? REQUEST_PARAMETERS.paper.default) as Paper,
    locale: (body.locale ?? REQUEST_PARAMETERS.locale.default) as string,
    reference: (body.reference as string | undefined) ?? null,
    values: read.values,
    currency: read.currency,
    digits: read.digits,
    totals: read.totals,
  };
}
