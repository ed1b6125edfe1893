import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../support/app.ts';

/**
 * The served OpenAPI document as integrating developers' tools read it: Redocly's linter with its recommended
 * rules (redocly.yaml), and openapi-typescript, whose types a small client program must type-check against.
 */
const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const REDOCLY = join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
/** Redocly CLI sends usage data and looks for updates unless told not to (redocly.yaml says so too). */
const REDOCLY_ENV = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

let folder: string;
/** The document as JSON: typed loosely, since the tests reach into it and change it. */
let openApi: Record<string, any>;
beforeAll(async () => {
  const app = await createTestApp();
  openApi = await (await app.call('/api/v1/openapi.json')).json();
  folder = await mkdtemp(join(tmpdir(), 'svc-openapi-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('redocly lint', () => {
  it('finds no problem, not even a warning, with the recommended rules', async () => {
    const file = join(folder, 'openapi.json');
    await writeFile(file, JSON.stringify(openApi, null, 2));
    const { stdout } = await run(process.execPath, [REDOCLY, 'lint', file, `--config=${join(ROOT, 'redocly.yaml')}`, '--format=json'], {
      env: REDOCLY_ENV,
      cwd: folder,
    });
    const report = JSON.parse(stdout);
    expect(report.problems).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  });
});

/**
 * Uses what generators need from the document: the request variants by name, `valid` as the literal `true`, the
 * JSON form of a created document, the Accept and Idempotency-Key headers of createDocument. The invoice body
 * is the document's own example, so it must fit the generated type too.
 */
function clientProgram(invoiceExample: unknown): string {
  return `import type { components, operations, paths } from './openapi.ts';

type Schemas = components['schemas'];

export const invoice: Schemas['InvoiceRequest'] = ${JSON.stringify(invoiceExample)};
export const request: Schemas['DocumentRequest'] = invoice;
export const example: Schemas['Template']['example'] = invoice;

export function documentNumber(body: Schemas['DocumentRequest']): string {
  switch (body.template) {
    case 'invoice':
      return String(body.fields.invoice_number);
    case 'quote':
      return String(body.fields.quote_number);
    case 'receipt':
      return String(body.fields.receipt_number);
  }
}

export const isValid = (answer: Schemas['ValidateAnswer']): true => answer.valid;
export const charged = (answer: Schemas['ValidateAnswer']): false => answer.credit_used;
// @ts-expect-error \`valid\` is the boolean true, never text
export const validAsText: Schemas['ValidateAnswer']['valid'] = 'true';

type CreateHeaders = NonNullable<operations['createDocument']['parameters']['header']>;
type Created = paths['/api/v1/documents']['post']['responses'][201]['content'];

export async function createAsJson(baseUrl: string, apiKey: string, body: Schemas['DocumentRequest']): Promise<Uint8Array> {
  const headers: CreateHeaders = { Accept: 'application/json', 'Idempotency-Key': 'order-42' };
  const response = await fetch(baseUrl + '/api/v1/documents', {
    method: 'POST',
    headers: { ...headers, Authorization: 'Bearer ' + apiKey, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const created = (await response.json()) as Created['application/json'];
  const id: string = created.document.id;
  const used: boolean = created.credit_used;
  const total: string | undefined = created.totals.total;
  console.log(id, used, total);
  return Uint8Array.from(atob(created.file_base64), (character) => character.charCodeAt(0));
}

export type Pdf = Created['application/pdf'];
export type FailureCode = Schemas['Error']['error']['code'];
`;
}

/** Generates the types of the document into the folder and type-checks the client program against them. */
async function typeCheck(document: Record<string, any>): Promise<{ ok: boolean; output: string }> {
  await writeFile(join(folder, 'openapi.ts'), astToString(await openapiTS(document as OpenAPI3)));
  const invoiceExample = openApi.paths['/api/v1/documents'].post.requestBody.content['application/json'].examples.invoice.value;
  await writeFile(join(folder, 'client.ts'), clientProgram(invoiceExample));
  const options = ['--noEmit', '--strict', '--target', 'ES2023', '--module', 'ESNext', '--moduleResolution', 'Bundler'];
  const flags = [
    ...options,
    '--allowImportingTsExtensions',
    '--lib',
    'ES2023,DOM',
    '--types',
    'node',
    '--typeRoots',
    join(ROOT, 'node_modules/@types'),
  ];
  try {
    await run(process.execPath, [TSC, ...flags, join(folder, 'client.ts')], { cwd: folder });
    return { ok: true, output: '' };
  } catch (error) {
    return { ok: false, output: String((error as { stdout?: string }).stdout) };
  }
}

// Each case runs the TypeScript compiler over generated types: seconds when the machine is idle, far more on a busy
// one (a CI run with other work failed at the default 20 s). The limit is there only to stop a compiler that hangs.
describe('types generated by openapi-typescript', { timeout: 300_000 }, () => {
  it('type-check a small client program', async () => {
    const result = await typeCheck(openApi);
    expect(result.output).toBe('');
    expect(result.ok).toBe(true);
  });

  it('do not when `valid` is published as text or a request variant loses its name', async () => {
    const textValid = structuredClone(openApi);
    textValid.components.schemas.ValidateAnswer.properties.valid = { type: 'string' };
    const withText = await typeCheck(textValid);
    expect(withText.ok).toBe(false);
    // The \`@ts-expect-error\` above a string \`valid\` is then unused.
    expect(withText.output).toContain('TS2578');

    const inlined = JSON.stringify(openApi.components.schemas.InvoiceRequest);
    const anonymous = JSON.parse(
      JSON.stringify(openApi).replaceAll('{"$ref":"#/components/schemas/InvoiceRequest"}', inlined),
      // A discriminator's mapping names the component by its pointer; without the component there is none.
      (key, value) => (key === 'discriminator' ? undefined : value),
    );
    delete anonymous.components.schemas.InvoiceRequest;
    const withoutName = await typeCheck(anonymous);
    expect(withoutName.ok).toBe(false);
    expect(withoutName.output).toContain("'InvoiceRequest'");
  });
});
