import { ERROR_CODES, ERRORS, type ErrorCode } from '../contract/errors.ts';
import { HEADERS } from '../contract/headers.ts';
import { ERRORS_PAGE_PATH } from '../http/respond.ts';
import { escapeHtml, inlineCode, pageHtml } from './html.ts';
import { curlSample, SAMPLE_BASE_URL, type SampleCall, typeScriptSample } from './samples.ts';
import { fieldEntry, fieldList, Refs, type Schema, sampleOf, schemaAnchor, typeLabel } from './schema-view.ts';

/**
 * GET /docs/api: the reference of every operation, generated here from the OpenAPI document (no renderer
 * bundle: Scalar or Redoc are megabytes of script, show nothing without it, and cannot link each error code
 * to its entry on /docs/api/errors). The page is HTML and one inline style sheet; it runs no script.
 */

type OpenApi = Schema & {
  info: { title: string; description?: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  tags?: { name: string; description?: string }[];
  components?: { schemas?: Record<string, Schema> };
};
type Operation = {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  'x-required-scope'?: string;
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
};
type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: Schema; example?: unknown };
type Media = { schema?: unknown; example?: unknown; examples?: Record<string, unknown> };
type Response = { description?: string; headers?: Record<string, unknown>; content?: Record<string, Media> };

interface Entry {
  method: string;
  path: string;
  operation: Operation;
}

/** What the page has shown in full already, so that it links there instead of showing it again. */
interface Shown {
  /** A request body (its schema as JSON) → the operation that shows it. */
  bodies: Map<string, string>;
  /** A component schema → the anchor of the form of a body that lists its fields. */
  forms: Map<string, string>;
}

/**
 * Values for the samples where the document gives a parameter no example of its own: a document id of the
 * service's shape, and an idempotency key as a caller would make one.
 */
const SAMPLE_PARAMETER_VALUES: Record<string, string> = {
  id: 'doc_01m3vcqrws7k0q8r3t6v',
  [HEADERS.idempotencyKey]: 'order-1001-invoice',
};
/** Headers the samples leave out: the client and curl send the default for them. */
const HEADERS_LEFT_TO_DEFAULT = new Set([HEADERS.version, HEADERS.accept].map((name) => name.toLowerCase()));
const BINARY_MEDIA = /^(application\/pdf|application\/octet-stream)$/;

const code = (text: string) => `<code>${escapeHtml(text)}</code>`;
const errorLink = (errorCode: string) => `<a href="${ERRORS_PAGE_PATH}#${errorCode}">${code(errorCode)}</a>`;
/** A chain link, drawn inline (the page loads nothing but itself). */
const LINK_ICON =
  '<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"><path d="M6.5 9.5l3-3M7 4.5l1.2-1.2a2.5 2.5 0 013.5 3.5L10.5 8M9 11.5l-1.2 1.2a2.5 2.5 0 01-3.5-3.5L5.5 8" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/></svg>';
const anchorLink = (id: string, label: string) =>
  `<a class="anchor" href="#${id}" aria-label="Link to ${escapeHtml(label)}">${LINK_ICON}</a>`;

/**
 * Samples in tabs made of radio buttons and labels: the reader picks one with a click or the arrow keys, and
 * no script is needed for it. Each operation's buttons are a group of their own (`name`).
 */
function sampleTabs(id: string, samples: [label: string, text: string][]): string {
  const buttons = samples
    .map(
      ([label], index) =>
        `<input type="radio" name="samples-${id}" id="${id}-sample-${index + 1}"${index === 0 ? ' checked' : ''}><label for="${id}-sample-${index + 1}">${escapeHtml(label)}</label>`,
    )
    .join('');
  const panels = samples.map(([label, text], index) => `<div class="tab tab-${index + 1}">${pre(text, `${label} ${id}`)}</div>`).join('');
  return `<div class="tabs" role="group" aria-label="Request samples">${buttons}${panels}</div>`;
}
const pre = (text: string, label: string) => `<pre aria-label="${escapeHtml(label)}"><code>${escapeHtml(text)}</code></pre>`;

function entriesOf(openApi: OpenApi): Entry[] {
  return Object.entries(openApi.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
}

/** Operations by tag, in the order of the document's tag list, then any tag it does not list. */
function byTag(openApi: OpenApi, entries: Entry[]): [string, Entry[]][] {
  const names = [...(openApi.tags ?? []).map((tag) => tag.name), ...entries.flatMap((entry) => entry.operation.tags ?? ['Other'])];
  return [...new Set(names)]
    .map((tag): [string, Entry[]] => [tag, entries.filter((entry) => (entry.operation.tags ?? ['Other']).includes(tag))])
    .filter(([, members]) => members.length);
}

/**
 * The error codes an error answer can carry: the OpenAPI document gives one example per code (src/openapi/examples.ts),
 * kept when the contract gives that code this status.
 */
function errorCodesOfResponse(status: number, response: Response, refs: Refs): ErrorCode[] {
  const named = new Set<string>();
  for (const media of Object.values(response.content ?? {})) {
    const examples = [...(media.example === undefined ? [] : [media.example]), ...Object.values(media.examples ?? {})];
    for (const example of examples.map((entry) => refs.resolve<unknown>(entry))) {
      const value = (example as { value?: unknown }).value ?? example;
      const errorCode = (value as { error?: { code?: unknown } }).error?.code;
      if (typeof errorCode === 'string') named.add(errorCode);
    }
  }
  return ERROR_CODES.filter((errorCode) => named.has(errorCode) && ERRORS[errorCode].status === status);
}

function statusesOf(operation: Operation, refs: Refs): [number, Response][] {
  return Object.entries(operation.responses)
    .map(([status, response]): [number, Response] => [Number(status), refs.resolve<Response>(response)])
    .sort(([a], [b]) => a - b);
}

function accessOf(operation: Operation): string {
  if (!operation.security?.length) return 'Public: no key needed.';
  const scope = operation['x-required-scope'];
  return `Needs an <a href="#authentication">API key</a>${scope ? ` with scope ${code(scope)}` : ''}.`;
}

function parametersOf(operation: Operation, refs: Refs): Parameter[] {
  return (operation.parameters ?? []).map((parameter) => refs.resolve<Parameter>(parameter));
}

function parameterSection(operation: Operation, refs: Refs): string {
  const parameters = parametersOf(operation, refs);
  if (!parameters.length) return '';
  const groups = ['path', 'query', 'header', 'cookie']
    .map((place) => [place, parameters.filter((parameter) => parameter.in === place)] as const)
    .filter(([, members]) => members.length);
  return groups
    .map(
      ([place, members]) =>
        `<h4>${place[0]!.toUpperCase()}${place.slice(1)} parameters</h4><ul class="fields">${members
          .map((parameter) =>
            fieldEntry(parameter.name, parameter.schema ?? {}, parameter.required ?? false, refs, 0, parameter.description),
          )
          .join('')}</ul>`,
    )
    .join('');
}

/** The JSON content of a request body or answer, or the first content it has. */
function mainMedia(content: Record<string, Media> | undefined): [string, Media] | undefined {
  const entries = Object.entries(content ?? {});
  return entries.find(([type]) => type === 'application/json') ?? entries[0];
}

/** The property every variant fixes to a value of its own (`template`), the discriminator if the schema names one. */
function discriminatorOf(schema: Schema, variants: Schema[]): string | undefined {
  const named = (schema.discriminator as { propertyName?: string } | undefined)?.propertyName;
  if (named) return named;
  const first = variants[0]?.properties as Record<string, Schema> | undefined;
  return Object.keys(first ?? {}).find((name) =>
    variants.every((variant) => 'const' in ((variant.properties as Record<string, Schema> | undefined)?.[name] ?? {})),
  );
}

/**
 * A body that is one of several objects (one per template) is shown as the properties all variants share,
 * once, then one sub-section per variant with the rest, each with its own anchor.
 */
function bodyFields(schema: unknown, refs: Refs, id: string, shown?: Shown): string {
  const top = refs.resolve(schema);
  const choices = (top.oneOf ?? top.anyOf) as unknown[] | undefined;
  const variants = (choices ?? []).map((choice) => refs.resolve(choice));
  if (!choices || !variants.every((variant) => variant.properties)) return fieldList(top, refs);

  const properties = (variant: Schema) => variant.properties as Record<string, unknown>;
  const requiredIn = (variant: Schema) => new Set((variant.required ?? []) as string[]);
  const shared = Object.keys(properties(variants[0]!)).filter((name) =>
    variants.every(
      (variant) =>
        JSON.stringify(properties(variant)[name]) === JSON.stringify(properties(variants[0]!)[name]) &&
        requiredIn(variant).has(name) === requiredIn(variants[0]!).has(name),
    ),
  );
  const discriminator = discriminatorOf(top, variants);
  const sections = variants.map((variant, index) => {
    const value = discriminator ? (properties(variant)[discriminator] as Schema | undefined)?.const : undefined;
    const slug = typeof value === 'string' ? value : String(index + 1);
    const chosenBy = discriminator && value !== undefined ? code(`${discriminator}: ${JSON.stringify(value)}`) : '';
    const title =
      [typeof variant.title === 'string' ? escapeHtml(variant.title) : '', chosenBy].filter(Boolean).join(' ') || `Form ${index + 1}`;
    const own = Object.keys(properties(variant)).filter((name) => !shared.includes(name));
    const name = refs.schemaName(choices[index]);
    if (name && shown && !shown.forms.has(name)) shown.forms.set(name, `${id}.${slug}`);
    return `<details class="variant" id="${id}.${escapeHtml(slug)}"${index === 0 ? ' open' : ''}><summary>${title}</summary>${fieldList(
      variant,
      refs,
      0,
      own,
    )}</details>`;
  });
  const common = shared.length
    ? `In every form:</p>${fieldList(variants[0]!, refs, 0, shared)}<p>And by ${discriminator ? code(discriminator) : 'form'}:`
    : '';
  return `<p>One of ${variants.length} forms${discriminator ? `, chosen by ${code(discriminator)}` : ''}. ${common}</p>${sections.join('')}`;
}

function bodySection(entry: Entry, refs: Refs, shown: Shown): string {
  if (!entry.operation.requestBody) return '';
  const body = refs.resolve<{ description?: string; required?: boolean; content?: Record<string, Media> }>(entry.operation.requestBody);
  const media = mainMedia(body.content);
  if (!media) return '';
  const [type, { schema }] = media;
  const heading = `<h4>Body <span class="type">${code(type)}</span>${body.required ? ' <span class="required">required</span>' : ''}</h4>${
    body.description ? `<p>${inlineCode(body.description)}</p>` : ''
  }`;
  const key = JSON.stringify(schema);
  const earlier = shown.bodies.get(key);
  if (earlier) return `${heading}<p>The same body as <a href="#${earlier}">${code(earlier)}</a>.</p>`;
  shown.bodies.set(key, entry.operation.operationId);
  return heading + bodyFields(schema, refs, `${entry.operation.operationId}.body`, shown);
}

function responseHeaders(response: Response, refs: Refs): string {
  const headers = Object.entries(response.headers ?? {});
  if (!headers.length) return '';
  const entries = headers.map(([name, header]) => {
    const resolved = refs.resolve<{ description?: string; schema?: Schema; required?: boolean }>(header);
    return fieldEntry(name, resolved.schema ?? {}, false, refs, 0, resolved.description);
  });
  return `<details class="headers"><summary>Headers (${headers.length})</summary><ul class="fields">${entries.join('')}</ul></details>`;
}

function answersSection(operation: Operation, refs: Refs): string {
  const answers = statusesOf(operation, refs)
    .filter(([status]) => status < 400)
    .map(([status, response]) => {
      const contents = Object.entries(response.content ?? {}).map(
        ([type, media]) => `<li>${code(type)}: ${media.schema ? typeLabel(media.schema, refs) : 'no schema'}</li>`,
      );
      return `<div class="answer"><p><span class="status">${status}</span> ${inlineCode(response.description ?? '')}</p>${
        contents.length ? `<ul class="contents">${contents.join('')}</ul>` : ''
      }${responseHeaders(response, refs)}</div>`;
    });
  return answers.length ? `<h4>Answers</h4>${answers.join('')}` : '';
}

function errorsSection(operation: Operation, refs: Refs): string {
  const items = statusesOf(operation, refs)
    .filter(([status]) => status >= 400)
    .flatMap(([status, response]) =>
      errorCodesOfResponse(status, response, refs).map(
        (errorCode) =>
          `<li><div class="field-head"><span class="status">${status}</span> ${errorLink(errorCode)}</div><p>${inlineCode(ERRORS[errorCode].meaning)}</p></li>`,
      ),
    );
  return items.length ? `<h4>Errors</h4><ul class="fields errors">${items.join('')}</ul>` : '';
}

/** The named examples of a content, first the one written as `example`. */
function examplesOf(media: Media | undefined): [string, unknown][] {
  if (!media) return [];
  const named = Object.entries(media.examples ?? {}).map(([name, example]): [string, unknown] => [
    (example as { summary?: string }).summary ?? name,
    (example as { value?: unknown }).value,
  ]);
  return media.example === undefined ? named : [['example', media.example], ...named];
}

function sampleCall(entry: Entry, refs: Refs, body: unknown): SampleCall {
  const parameters = parametersOf(entry.operation, refs);
  const sampleValue = (parameter: Parameter) =>
    parameter.example ?? SAMPLE_PARAMETER_VALUES[parameter.name] ?? sampleOf(parameter.schema ?? {}, refs) ?? parameter.name;
  const pathValues = parameters.filter((parameter) => parameter.in === 'path').map((parameter) => String(sampleValue(parameter)));
  const path = parameters
    .filter((parameter) => parameter.in === 'path')
    .reduce((filled, parameter) => filled.replace(`{${parameter.name}}`, encodeURIComponent(String(sampleValue(parameter)))), entry.path);
  const query = Object.fromEntries(
    parameters
      .filter((parameter) => parameter.in === 'query' && (parameter.example !== undefined || parameter.schema?.default !== undefined))
      .map((parameter) => [parameter.name, sampleValue(parameter) as string | number]),
  );
  const headers = Object.fromEntries(
    parameters
      .filter((parameter) => parameter.in === 'header' && !HEADERS_LEFT_TO_DEFAULT.has(parameter.name.toLowerCase()))
      .map((parameter) => [parameter.name, String(sampleValue(parameter))]),
  );
  const success = statusesOf(entry.operation, refs).find(([status]) => status < 300)?.[1];
  const binary = Object.keys(success?.content ?? {}).find((type) => BINARY_MEDIA.test(type));
  return {
    method: entry.method,
    path,
    operationId: entry.operation.operationId,
    pathValues,
    query,
    headers,
    ...(body === undefined ? {} : { body }),
    needsKey: Boolean(entry.operation.security?.length),
    ...(binary ? { file: 'document.pdf' } : {}),
  };
}

/** Example request (each named body example) and example answer (the document's example, else one made from the schema). */
function examplesSection(entry: Entry, refs: Refs): string {
  const body = entry.operation.requestBody
    ? mainMedia(refs.resolve<{ content?: Record<string, Media> }>(entry.operation.requestBody).content)?.[1]
    : undefined;
  const bodies = examplesOf(body);
  const firstBody = bodies[0]?.[1] ?? (body?.schema ? sampleOf(body.schema, refs) : undefined);
  const call = sampleCall(entry, refs, firstBody);
  const id = entry.operation.operationId;
  const parts = [
    `<h4>Request</h4>${sampleTabs(id, [
      ['curl', curlSample(call)],
      ['TypeScript', typeScriptSample(call)],
    ])}`,
  ];
  if (bodies.length > 1) {
    parts.push(
      `<h4>Example bodies</h4>${bodies
        .map(
          ([name, value]) =>
            `<details class="sample"><summary>${escapeHtml(name)}</summary>${pre(JSON.stringify(value, null, 2), `${name} body`)}</details>`,
        )
        .join('')}`,
    );
  }
  const success = statusesOf(entry.operation, refs).find(([status]) => status < 400);
  if (success) {
    const [status, response] = success;
    const shown = Object.entries(response.content ?? {}).map(([type, media]) => {
      if (BINARY_MEDIA.test(type) || media.schema === undefined) return `<p>${code(type)}: the file's bytes.</p>`;
      const examples = examplesOf(media);
      const value = examples[0]?.[1] ?? sampleOf(media.schema, refs);
      return `<p>${code(type)}${examples.length ? '' : ' (shape; values made up)'}:</p>${pre(JSON.stringify(value, null, 2), `${id} ${status} ${type}`)}`;
    });
    parts.push(`<h4>Answer <span class="status">${status}</span></h4>${shown.join('') || '<p>No body.</p>'}`);
  }
  return `<div class="examples">${parts.join('')}</div>`;
}

function operationSection(entry: Entry, refs: Refs, shown: Shown): string {
  const { operation } = entry;
  const id = operation.operationId;
  const title = operation.summary ?? id;
  return `<section class="operation" id="${escapeHtml(id)}" aria-labelledby="${escapeHtml(id)}-title">
<h3 id="${escapeHtml(id)}-title">${escapeHtml(title)} ${anchorLink(id, title)}</h3>
<p class="endpoint"><span class="method ${entry.method.toLowerCase()}">${entry.method}</span> <code>${escapeHtml(entry.path)}</code></p>
<p>${inlineCode(operation.description ?? '')}</p><p class="access">${accessOf(operation)}</p>
<div class="columns"><div class="spec">${parameterSection(operation, refs)}${bodySection(entry, refs, shown)}${answersSection(
    operation,
    refs,
  )}${errorsSection(operation, refs)}</div>${examplesSection(entry, refs)}</div></section>`;
}

/** Every error code with its detail codes, each leading to its entry on the errors page. */
function errorCodeList(): string {
  const items = ERROR_CODES.map((errorCode) => {
    const details = Object.keys(ERRORS[errorCode].details).map(
      (detail) => `<a href="${ERRORS_PAGE_PATH}#${errorCode}.${detail}">${code(detail)}</a>`,
    );
    return `<li><div class="field-head"><span class="status">${ERRORS[errorCode].status}</span> ${errorLink(errorCode)}</div><p>${inlineCode(
      ERRORS[errorCode].meaning,
    )}</p>${details.length ? `<p class="detail-codes"><span class="type">details[].code:</span> ${details.join(' ')}</p>` : ''}</li>`;
  });
  return `<ul class="fields errors">${items.join('')}</ul>`;
}

function introSections(openApi: OpenApi, errorSchema: string | undefined): string {
  return `<section id="authentication" aria-labelledby="authentication-title"><h2 id="authentication-title">Authentication ${anchorLink('authentication', 'Authentication')}</h2>
<p>Send a key as ${code(`${HEADERS.authorization}: Bearer <API_KEY>`)}. Keys are made in Settings (<a href="/settings">/settings</a>) or with the operator CLI; a preview key makes only previews.
The samples below call ${code(SAMPLE_BASE_URL)}: put your deployment's address in its place, and your key in ${code('SVC_API_KEY')}.</p></section>
<section id="versioning" aria-labelledby="versioning-title"><h2 id="versioning-title">Versioning ${anchorLink('versioning', 'Versioning')}</h2>
<p>This is API version ${code(openApi.info.version)}. Send ${code(`${HEADERS.version}: ${openApi.info.version}`)} to pin it; without the header the newest version answers. Every answer names the version that served it in ${code(HEADERS.version)}.</p></section>
<section id="errors" aria-labelledby="errors-title"><h2 id="errors-title">Errors ${anchorLink('errors', 'Errors')}</h2>
<p>Every error is JSON${errorSchema ? ` (<a href="#${schemaAnchor(errorSchema)}">${escapeHtml(errorSchema)}</a>)` : ''}: ${code('{"error": {"code", "message", "details"?, "request_id", "docs_url"}, "credit_used"}')}. Key on ${code('code')}; treat an unknown code by its HTTP status. Each code and each detail code below leads to what it means and what to do on <a href="${ERRORS_PAGE_PATH}">${ERRORS_PAGE_PATH}</a>.
The client throws them as ${code('SvcApiError')} with ${code('code')}, ${code('status')}, ${code('details')} and ${code('requestId')}.</p>
${errorCodeList()}</section>`;
}

/** The component schema the error answers carry (`Error`), if they name one. */
function errorSchemaName(entries: Entry[], refs: Refs): string | undefined {
  for (const entry of entries) {
    for (const [status, response] of statusesOf(entry.operation, refs)) {
      const name = status >= 400 ? refs.schemaName(mainMedia(response.content)?.[1].schema) : undefined;
      if (name) return name;
    }
  }
  return undefined;
}

/** A choice between named objects (`DocumentRequest`): each has its own section, so the choice links to them. */
function choicesAreNamed(schema: Schema, refs: Refs): boolean {
  const choices = (schema.oneOf ?? schema.anyOf) as unknown[];
  return choices.every((choice) => refs.schemaName(choice) !== undefined);
}

function objectsSection(openApi: OpenApi, refs: Refs, errorSchema: string | undefined, shown: Shown): string {
  const schemas = Object.entries(openApi.components?.schemas ?? {});
  if (!schemas.length) return '';
  const sections = schemas.map(([name, schema]) => {
    const id = schemaAnchor(name);
    const form = shown.forms.get(name);
    const body = form
      ? `<p>Its fields are listed with the request that sends it: <a href="#${escapeHtml(form)}"><code>#${escapeHtml(form)}</code></a>.</p>`
      : schema.properties
        ? fieldList(schema, refs)
        : (schema.oneOf ?? schema.anyOf) && !choicesAreNamed(schema, refs)
          ? bodyFields(schema, refs, id)
          : `<p>${typeLabel(schema, refs)}</p>`;
    const codes =
      name === errorSchema
        ? '<p>Every <code>code</code> and <code>details[].code</code>, each linked to what it means: <a href="#errors">Errors</a>.</p>'
        : '';
    return `<section class="object" id="${escapeHtml(id)}" aria-labelledby="${escapeHtml(id)}-title"><h3 id="${escapeHtml(id)}-title">${escapeHtml(
      typeof schema.title === 'string' ? schema.title : name,
    )} ${anchorLink(id, name)}</h3>${typeof schema.description === 'string' ? `<p>${inlineCode(schema.description)}</p>` : ''}${codes}${body}</section>`;
  });
  return `<h2 id="objects">Objects ${anchorLink('objects', 'Objects')}</h2>${sections.join('\n')}`;
}

/** The list of sections: a sticky column on a wide screen, a box the reader opens at the top on a phone. */
function navigation(openApi: OpenApi, groups: [string, Entry[]][]): string {
  const item = (href: string, label: string, method?: string) =>
    `<li><a href="#${escapeHtml(href)}">${method ? `<span class="method ${method.toLowerCase()}">${method}</span> ` : ''}${escapeHtml(label)}</a></li>`;
  const objects = Object.keys(openApi.components?.schemas ?? {});
  return `<p class="nav-title"><a href="#top">${escapeHtml(openApi.info.title)}</a></p><ul>${item('authentication', 'Authentication')}${item('versioning', 'Versioning')}${item('errors', 'Errors')}</ul>${groups
    .map(
      ([tag, members]) =>
        `<p class="nav-tag">${escapeHtml(tag)}</p><ul>${members.map((entry) => item(entry.operation.operationId, entry.operation.summary ?? entry.operation.operationId, entry.method)).join('')}</ul>`,
    )
    .join(
      '',
    )}${objects.length ? `<p class="nav-tag"><a href="#objects">Objects</a></p><ul>${objects.map((name) => item(schemaAnchor(name), name)).join('')}</ul>` : ''}`;
}

/** The layout of the reference: a navigation column beside the text on a wide screen, above it on a phone. */
const REFERENCE_STYLE = `
body.reference{max-width:none;margin:0;padding:0}
.layout{display:grid;grid-template-columns:16rem minmax(0,1fr);min-height:100vh}
.sidebar{position:sticky;top:0;align-self:start;height:100vh;overflow-y:auto;padding:1rem;border-right:1px solid #ddd;background:#fafafa;font-size:.92rem;box-sizing:border-box}
.sidebar ul,.phone-nav ul{list-style:none;margin:0 0 .6rem;padding:0}
.sidebar li a,.phone-nav li a{display:block;padding:.15rem .3rem;border-radius:4px;text-decoration:none;color:#1a1a1a}
.sidebar li a:hover,.phone-nav li a:hover{background:#eceff3}
.nav-tag{margin:.8rem 0 .2rem;font-weight:700;font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;color:#555}
.phone-nav{display:none}
main{padding:1rem 2rem 4rem;max-width:78rem;min-width:0}
h2{scroll-margin-top:1rem}section[id],details[id]{scroll-margin-top:1rem}
.operation,.object{border-top:1px solid #ddd;margin-top:2.5rem;padding-top:.5rem}
.operation h3,.object h3{font-size:1.35rem;margin-bottom:.3rem}
.anchor{display:inline-block;color:#8a8f98;text-decoration:none;margin-left:.3rem;vertical-align:middle}.anchor:hover,.anchor:focus{color:#1a56db}.anchor svg{display:block}
.tabs{position:relative}.tabs>input{position:absolute;opacity:0;width:1px;height:1px}
.tabs>label{display:inline-block;padding:.2rem .7rem;margin-right:.2rem;border-bottom:2px solid transparent;cursor:pointer;color:#444}
.tabs>input:checked+label{border-bottom-color:#1a56db;color:#1a1a1a;font-weight:700}
.tabs>input:focus-visible+label{outline:2px solid #1a56db;outline-offset:2px}
.tab{display:none}.tabs>input:nth-of-type(1):checked~.tab-1,.tabs>input:nth-of-type(2):checked~.tab-2{display:block}
.endpoint{font-size:1.05rem;margin:.2rem 0 .6rem;overflow-wrap:anywhere}
.method{display:inline-block;min-width:2.6em;padding:0 .35em;border-radius:4px;font:700 .78rem/1.6 ui-monospace,monospace;text-align:center;color:#fff;background:#4b5563}
.method.get{background:#1d6f42}.method.post{background:#1a56db}.method.delete{background:#b42318}
.access{color:#444}
.columns{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:2rem;align-items:start}
.examples{position:sticky;top:1rem;max-height:calc(100vh - 2rem);overflow-y:auto}
h4{font-size:1rem;margin:1.4rem 0 .4rem}
ul.fields{list-style:none;margin:0;padding:0;border-top:1px solid #e5e5e5}
ul.fields>li{border-bottom:1px solid #e5e5e5;padding:.45rem 0}
ul.fields p{margin:.2rem 0}
.field-head{overflow-wrap:anywhere}
.field-name{font-weight:700;background:none;padding:0}
.type{color:#555;font-size:.9rem}.type code{font-size:.85rem}
.deprecated{color:#8a5a00;font-size:.78rem;font-weight:700;text-transform:uppercase}
.required{color:#b42318;font-size:.78rem;font-weight:700;text-transform:uppercase;letter-spacing:.03em}
.rules{color:#555;font-size:.9rem;overflow-wrap:anywhere}
.children{margin:.4rem 0 0 .2rem;padding-left:.8rem;border-left:2px solid #e5e5e5}
details.enum{display:inline}details.enum[open]{display:block}
details.enum summary{display:inline;cursor:pointer;color:#1a56db}
details.variant{border:1px solid #ddd;border-radius:6px;margin:.6rem 0;padding:.2rem .8rem}
details.variant>summary{cursor:pointer;font-weight:700;padding:.3rem 0}
details.headers summary,details.sample summary{cursor:pointer;color:#1a56db;margin:.3rem 0}
.answer{margin:.4rem 0}.status{font:700 .9rem ui-monospace,monospace}
pre{background:#111827;color:#e5e7eb;padding:.7rem .8rem;border-radius:6px;white-space:pre-wrap;overflow-wrap:anywhere;font-size:.82rem;line-height:1.45;margin:.3rem 0 .8rem;max-width:100%;box-sizing:border-box}
pre code{background:none;padding:0;color:inherit}
.detail-codes{overflow-wrap:anywhere}.detail-codes a{margin-right:.15rem}
.nav-title{margin:0 0 .8rem;font-weight:700}.nav-title a,.nav-tag a{color:inherit;text-decoration:none}
@media (max-width:1100px){.columns{grid-template-columns:minmax(0,1fr)}.examples{position:static;max-height:none;overflow:visible}}
@media (max-width:800px){
.layout{display:block}.sidebar{display:none}
.phone-nav{display:block;border-bottom:1px solid #ddd;background:#fafafa;padding:.3rem 1rem}
.phone-nav>summary{cursor:pointer;font-weight:700;padding:.4rem 0}
main{padding:.5rem 1rem 3rem}
h1{font-size:1.5rem}
}`;

/** GET /docs/api: the reference generated from the OpenAPI document, as HTML. */
export function apiPageHtml(openApi: OpenApi): string {
  const refs = new Refs(openApi);
  const entries = entriesOf(openApi);
  const groups = byTag(openApi, entries);
  const shown: Shown = { bodies: new Map(), forms: new Map() };
  const tagDescription = new Map((openApi.tags ?? []).map((tag) => [tag.name, tag.description]));
  const operations = groups
    .map(([tag, members]) => {
      const description = tagDescription.get(tag);
      return `<h2 id="tag-${escapeHtml(tag)}">${escapeHtml(tag)}</h2>${description ? `<p>${inlineCode(description)}</p>` : ''}${members
        .map((entry) => operationSection(entry, refs, shown))
        .join('\n')}`;
    })
    .join('\n');
  const nav = navigation(openApi, groups);
  const errorSchema = errorSchemaName(entries, refs);
  return pageHtml(
    'API reference',
    `<div class="layout"><nav class="sidebar" aria-label="Sections">${nav}</nav>
<main><details class="phone-nav"><summary>Contents</summary><nav aria-label="Sections (phone)">${nav}</nav></details>
<h1 id="top">${escapeHtml(openApi.info.title)}</h1><p>${inlineCode(openApi.info.description ?? '')}</p>
<p>Machine-readable: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>. Every error code: <a href="${ERRORS_PAGE_PATH}">${ERRORS_PAGE_PATH}</a>.</p>
${introSections(openApi, errorSchema)}
${operations}
${objectsSection(openApi, refs, errorSchema, shown)}</main></div>`,
    { style: REFERENCE_STYLE, bodyClass: 'reference' },
  );
}
