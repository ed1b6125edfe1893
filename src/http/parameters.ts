import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { ApiError } from '../contract/api-error.ts';
import type { ErrorCode } from '../contract/errors.ts';

/**
 * A parameter of a route outside its body (a path segment, a query parameter, a header), declared once: its name,
 * where it is, what it means, and a valibot schema from its text as sent to the value the route reads. Reading it
 * (readParameters) and its OpenAPI parameter object (openApiParameter) both come from that declaration, and so do
 * the errors a route that takes it can answer with (`errors`).
 */
export interface ParameterDeclaration<Value = unknown, Name extends string = string> {
  readonly name: Name;
  readonly in: 'path' | 'query' | 'header';
  readonly description: string;
  /** From the text as sent (undefined when absent) to the value; optional parameters wrap theirs in v.optional. */
  readonly schema: v.GenericSchema<unknown, Value>;
  /** The answer to a value the schema refuses, given the text sent. */
  refusal(sent: string | undefined): ApiError;
  /** What a route that takes this parameter can answer besides its refusal: a path's not-found, a header's outcomes. */
  readonly errors?: readonly ErrorCode[];
}

/** The values of a route's parameters, by name. */
export type ParameterValues<Declarations extends readonly ParameterDeclaration[]> = {
  readonly [Declaration in Declarations[number] as Declaration['name']]: Declaration extends ParameterDeclaration<infer Value, string>
    ? Value
    : never;
};

export function defineParameter<Value, const Name extends string>(
  declaration: ParameterDeclaration<Value, Name>,
): ParameterDeclaration<Value, Name> {
  return declaration;
}

/** The refusal of section 7 for a query parameter: 400 invalid_request, detail invalid_query, naming it. */
export function invalidQuery(message: string, field: string): ApiError {
  return new ApiError('invalid_request', { detail: 'invalid_query', message, field });
}

/** What a request shows of its parameters: its path parameters, its query and its headers (a RequestContext). */
interface RequestParameters {
  readonly params: Readonly<Record<string, string>>;
  readonly url: URL;
  readonly request: { readonly headers: Headers };
}

/**
 * The values of the declared parameters, each read by its schema; the first refused throws its refusal. A query
 * that holds a name no declaration has, or a name more than once, is refused as invalid_query (section 7).
 */
export function readParameters<const Declarations extends readonly ParameterDeclaration[]>(
  declarations: Declarations,
  request: RequestParameters,
): ParameterValues<Declarations> {
  const query = request.url.searchParams;
  const queryNames = new Set(declarations.filter((declaration) => declaration.in === 'query').map((declaration) => declaration.name));
  for (const name of new Set(query.keys())) {
    if (!queryNames.has(name)) throw invalidQuery(`Unknown query parameter ${name}.`, name);
    if (query.getAll(name).length > 1) throw invalidQuery(`${name} is given more than once.`, name);
  }
  const values: Record<string, unknown> = {};
  for (const declaration of declarations) {
    const sent =
      declaration.in === 'path'
        ? request.params[declaration.name]
        : declaration.in === 'query'
          ? (query.get(declaration.name) ?? undefined)
          : (request.request.headers.get(declaration.name) ?? undefined);
    const read = v.safeParse(declaration.schema, sent);
    if (!read.success) throw declaration.refusal(sent);
    values[declaration.name] = read.output;
  }
  return values as ParameterValues<Declarations>;
}

/** A published schema without the converter's `$schema` (the OpenAPI document states its dialect once). */
function published(schema: v.GenericSchema): Record<string, unknown> {
  const { $schema: _, ...rest } = toJsonSchema(schema, { errorMode: 'ignore', typeMode: 'output' }) as Record<string, unknown>;
  // A default is the value an absent parameter reads as: the schema's output, not the text it starts from.
  if ('default' in rest) rest.default = v.parse(schema, undefined);
  return rest;
}

/** The OpenAPI parameter object of a declaration: the schema of the value it reads as. */
export function openApiParameter(declaration: ParameterDeclaration): Record<string, unknown> {
  return {
    name: declaration.name,
    in: declaration.in,
    required: !v.safeParse(declaration.schema, undefined).success,
    description: declaration.description,
    schema: published(declaration.schema),
  };
}
