import { HEADERS } from '../contract/headers.ts';

/**
 * The curl and TypeScript samples of an operation. The page names no host (any cache may keep it for anyone),
 * so the samples call a placeholder address; the reader puts their deployment's address in its place.
 */
export const SAMPLE_BASE_URL = 'https://svc.example.com';

export interface SampleCall {
  method: string;
  /** The path with its parameters filled in. */
  path: string;
  operationId: string;
  /** Values of path parameters, in the order of the path. */
  pathValues: string[];
  query: Record<string, string | number>;
  /** Request headers besides the key and the content type, by their HTTP name. */
  headers: Record<string, string>;
  body?: unknown;
  needsKey: boolean;
  /** The answer is a file: curl writes it to this name. */
  file?: string;
  /** Where the service is: the page of a deployment (the web app's "Copy as API request") knows; by default SAMPLE_BASE_URL. */
  baseUrl?: string;
}

/** A shell word in single quotes, which the shell reads without any expansion. */
const shellQuoted = (text: string) => `'${text.replaceAll("'", `'"'"'`)}'`;

export function curlSample(call: SampleCall): string {
  const query = new URLSearchParams(Object.entries(call.query).map(([name, value]) => [name, String(value)])).toString();
  // --fail-with-body: an error answer exits non-zero (22) and prints its JSON; with -o, --remove-on-error deletes the
  // file it was written to, so a wrong key never leaves a JSON error saved under the PDF's name.
  const lines = [
    `curl --fail-with-body ${call.method === 'GET' ? '' : `-X ${call.method} `}${shellQuoted(`${call.baseUrl ?? SAMPLE_BASE_URL}${call.path}${query ? `?${query}` : ''}`)}`,
  ];
  if (call.needsKey) lines.push(`-H "${HEADERS.authorization}: Bearer $SVC_API_KEY"`);
  for (const [name, value] of Object.entries(call.headers)) lines.push(`-H ${shellQuoted(`${name}: ${value}`)}`);
  if (call.file) lines.push(`-o ${call.file} --remove-on-error`);
  if (call.body !== undefined) {
    lines.push(`-H "${HEADERS.contentType}: application/json"`);
    // A quoted here-document: the JSON goes to curl exactly as written, whatever quotes or dollars it holds.
    lines.push(`--data-binary @- <<'JSON'\n${JSON.stringify(call.body, null, 2)}\nJSON`);
  }
  return lines.join(' \\\n  ');
}

/** `Idempotency-Key` → `idempotencyKey`: how the client names a header option. */
const optionName = (header: string) =>
  header.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase()).replace(/^\w/, (c) => c.toLowerCase());

/**
 * The project's client (src/client): one method per operationId; path parameters first, then the body, then an
 * options object with the query parameters and the header options.
 */
export function typeScriptSample(call: SampleCall): string {
  const options = {
    ...call.query,
    ...Object.fromEntries(Object.entries(call.headers).map(([name, value]) => [optionName(name), value])),
  };
  const args = [
    ...call.pathValues.map((value) => JSON.stringify(value)),
    ...(call.body === undefined ? [] : [JSON.stringify(call.body, null, 2)]),
    ...(Object.keys(options).length ? [objectLiteral(options)] : []),
  ];
  return `import { createClient } from './src/client/index.ts';

const svc = createClient({ baseUrl: '${call.baseUrl ?? SAMPLE_BASE_URL}', apiKey: process.env.SVC_API_KEY });
const answer = await svc.${call.operationId}(${args.join(', ')});`;
}

function objectLiteral(values: Record<string, unknown>): string {
  return `{ ${Object.entries(values)
    .map(([name, value]) => `${/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name)}: ${JSON.stringify(value)}`)
    .join(', ')} }`;
}
