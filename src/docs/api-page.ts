import { ERRORS_PAGE_PATH } from '../http/respond.ts';
import { escapeHtml, inlineCode, page } from './html.ts';

type OpenApi = {
  info: { title: string; description: string };
  paths: Record<string, Record<string, Operation>>;
  components: { parameters: Record<string, Parameter> };
};
type Parameter = { name: string; in: string; required?: boolean; description?: string };
type Operation = {
  summary: string;
  description: string;
  security: unknown[];
  'x-required-scope'?: string;
  parameters?: (Parameter | { $ref: string })[];
  responses: Record<string, { description: string }>;
};

/** A parameter of the operation, or the shared one it refers to (`#/components/parameters/<name>`). */
function resolve(entry: Parameter | { $ref: string }, openApi: OpenApi): Parameter {
  return '$ref' in entry ? openApi.components.parameters[entry.$ref.split('/').pop()!]! : entry;
}

function parameterRows(operation: Operation, openApi: OpenApi): string {
  const rows = (operation.parameters ?? []).map((entry) => {
    const parameter = resolve(entry, openApi);
    return `<tr><td><code>${escapeHtml(parameter.name)}</code></td><td>${parameter.in}</td><td>${parameter.required ? 'yes' : 'no'}</td><td>${inlineCode(parameter.description ?? '')}</td></tr>`;
  });
  return rows.length ? `<table><tr><th>Parameter</th><th>In</th><th>Required</th><th>Meaning</th></tr>${rows.join('')}</table>` : '';
}

function responseRows(operation: Operation): string {
  return `<table><tr><th>Status</th><th>Meaning</th></tr>${Object.entries(operation.responses)
    .map(([status, response]) => `<tr><td>${status}</td><td>${inlineCode(response.description).replace(/\n\n/g, '<br>')}</td></tr>`)
    .join('')}</table>`;
}

/** GET /docs/api: a readable reference of the routes, generated from the OpenAPI document. */
export function apiPage(openApi: OpenApi): Response {
  const sections = Object.entries(openApi.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => {
      const access = operation.security.length
        ? `Needs a key${operation['x-required-scope'] ? ` with scope <code>${operation['x-required-scope']}</code>` : ''}.`
        : 'Public: no key.';
      return `<section><h2><span class="method">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h2>
<p><strong>${escapeHtml(operation.summary)}.</strong> ${inlineCode(operation.description)} ${access}</p>
${parameterRows(operation, openApi)}${responseRows(operation)}</section>`;
    }),
  );
  return page(
    'API reference',
    `<h1>${escapeHtml(openApi.info.title)}</h1><p>${inlineCode(openApi.info.description)}</p>
<p>Machine-readable: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>. Errors: <a href="${ERRORS_PAGE_PATH}">${ERRORS_PAGE_PATH}</a>.</p>
${sections.join('\n')}`,
  );
}
