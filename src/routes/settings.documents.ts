import { planOf } from '../accounts/plans.ts';
import { renewPeriodIfEnded } from '../accounts/store.ts';
import { isoSeconds } from '../clock.ts';
import { ApiError } from '../contract/api-error.ts';
import { HEADERS } from '../contract/headers.ts';
import { LIMITS } from '../contract/limits.ts';
import { curlSample, type SampleCall, typeScriptSample } from '../docs/samples.ts';
import { documentFilename } from '../documents/filename.ts';
import type { CreatedDocument } from '../documents/made.ts';
import { parseDocumentRequest } from '../documents/request.ts';
import { FormAlreadyUsed, FormExpired, isFormId, makeWebDocument, newFormId } from '../documents/web.ts';
import { contentDisposition } from '../http/content-disposition.ts';
import { documentHeaders } from '../http/document-headers.ts';
import { isJsonObject, type JsonObject, JsonSyntaxError, parseJson } from '../json/parse.ts';
import {
  bodyOf,
  type FormBody,
  type FormValues,
  formFieldsOf,
  formValuesFromBody,
  formValuesOf,
  ITEM_MEMBERS,
  ITEM_ROWS,
} from '../pages/document-form.ts';
import {
  chooseTemplateView,
  documentFormView,
  type FieldProblem,
  OPTION_LABELS,
  outOfCreditsView,
  previewProblemsView,
} from '../pages/document-views.ts';
import { PageError } from '../pages/errors.ts';
import { field } from '../pages/form.ts';
import { html } from '../pages/html.ts';
import { PAGE_PATHS, pageResponse } from '../pages/layout.ts';
import { type SignedInPageRequest, settingsPage } from '../pages/page-route.ts';
import { printedTotals } from '../templates/printed-totals.ts';
import { findTemplate, TEMPLATES } from '../templates/registry.ts';
import type { TemplateDefinition } from '../templates/template.ts';
import { totalsObject } from '../templates/totals.ts';
import { createDocumentRoute } from './documents.create.ts';

/**
 * The web app's document form may be as large as the API's body (128 KiB of JSON): url-encoded, a character of a
 * non-Latin script takes up to three times its UTF-8 bytes. The body it makes is held to the API's own limit.
 */
const DOCUMENT_FORM_MAX_BYTES = 3 * LIMITS.requestBodyBytes;

const ACTIONS = ['check', 'preview', 'final', 'copy', 'more_rows', 'paste'] as const;
type Action = (typeof ACTIONS)[number];

function actionOf(form: URLSearchParams): Action {
  const action = field(form, 'action');
  return (ACTIONS as readonly string[]).includes(action) ? (action as Action) : 'check';
}

function templateOf(slug: string | undefined): TemplateDefinition {
  const template = slug === undefined ? undefined : findTemplate(slug);
  if (!template) throw new PageError(404, 'No such template', 'Choose a template from New document.');
  return template;
}

/** The account's credits as the form states them before the click, its period renewed first if it has ended. */
async function creditsOf(page: SignedInPageRequest) {
  const account = await renewPeriodIfEnded(page.context.deps.db, page.session.account, page.context.deps.clock.now());
  return { remaining: account.creditsRemaining, periodEnd: isoSeconds(account.periodEnd) };
}

interface FormPageInput {
  readonly template: TemplateDefinition;
  readonly form: FormValues;
  readonly formId?: string;
  readonly status?: number;
  readonly problems?: readonly FieldProblem[];
  readonly totals?: ReturnType<typeof printedTotals>;
  readonly notice?: ReturnType<typeof html>;
  readonly copy?: { json: string; curl: string; typescript: string };
}

async function formPage(page: SignedInPageRequest, input: FormPageInput): Promise<Response> {
  const { template } = input;
  const body = documentFormView({
    template,
    fields: formFieldsOf(template),
    form: input.form,
    session: page.session,
    formId: input.formId ?? newFormId(page.context.deps.clock.now()),
    credits: await creditsOf(page),
    ...(input.problems ? { problems: input.problems } : {}),
    ...(input.totals ? { totals: input.totals } : {}),
    ...(input.notice ? { notice: input.notice } : {}),
    ...(input.copy ? { copy: input.copy } : {}),
  });
  return pageResponse({ title: 'New document', status: input.status ?? 200, session: page.session, body });
}

/** Where the form shows a detail of the contract's: the input named by its `field`, form rows counted as shown. */
function problemsOf(error: ApiError, template: TemplateDefinition, made: FormBody): FieldProblem[] {
  const fields = formFieldsOf(template);
  const details = error.details?.length ? error.details : [{ code: error.code, message: error.message }];
  return details.map((detail) => {
    const path = detail.field === undefined ? undefined : inputPathOf(detail.field, made);
    return { path, label: path === undefined ? '' : labelOfPath(path, fields), message: detail.message };
  });
}

const ITEM_PATH = /^fields\.items\[(\d+)\](?:\.(\w+))?/;

/** The form's input for a detail's `field`: `fields.items[1]` is the second item sent, which may be a later row. */
function inputPathOf(detailField: string, made: FormBody): string {
  const item = ITEM_PATH.exec(detailField);
  if (!item) return detailField;
  const row = made.itemRows[Number(item[1])] ?? Number(item[1]);
  const member = item[2] && ITEM_MEMBERS.some((known) => known.name === item[2]) ? item[2] : 'description';
  return `fields.items[${row}].${member}`;
}

function labelOfPath(path: string, fields: ReturnType<typeof formFieldsOf>): string {
  const item = ITEM_PATH.exec(path);
  if (item)
    return `Item ${Number(item[1]) + 1} ${ITEM_MEMBERS.find((member) => member.name === item[2])?.label.toLowerCase() ?? ''}`.trim();
  if (Object.hasOwn(OPTION_LABELS, path)) return OPTION_LABELS[path as keyof typeof OPTION_LABELS];
  return fields.find((known) => known.path === path)?.label ?? path;
}

/** The body the form makes, held to the API's size limit. */
function madeBody(template: TemplateDefinition, form: FormValues, mode: 'final' | 'preview'): FormBody {
  const made = bodyOf(template, form, mode);
  const size = new TextEncoder().encode(JSON.stringify(made.body)).length;
  if (size > LIMITS.requestBodyBytes) {
    throw new PageError(413, 'This document is too large', `Its request would be ${size} bytes; the limit is ${LIMITS.requestBodyBytes}.`);
  }
  return made;
}

/** The answer with a PDF: shown in place (the preview) or downloaded (the final), named as section 4.2 names it. */
function pdfAnswer(created: CreatedDocument, disposition: 'inline' | 'attachment'): Response {
  const filename = documentFilename(created.document);
  return new Response(created.bytes, {
    headers: {
      [HEADERS.contentType]: 'application/pdf',
      [HEADERS.contentDisposition]: contentDisposition(filename, disposition),
      ...documentHeaders(created, totalsObject(created.document.totals, created.document.digits)),
    },
  });
}

/** The form as the API request it stands for, with the samples /docs/api gives (src/docs/samples.ts). */
function copyOf(made: FormBody, baseUrl: string) {
  const call: SampleCall = {
    method: createDocumentRoute.method,
    path: createDocumentRoute.path,
    operationId: createDocumentRoute.doc.operationId,
    pathValues: [],
    query: {},
    headers: {},
    body: made.body,
    needsKey: true,
    file: 'document.pdf',
    baseUrl,
  };
  return { json: JSON.stringify(made.body, null, 2), curl: curlSample(call), typescript: typeScriptSample(call) };
}

/** A form sent with a form id this service did not make: an old page, or none at all. */
function formIdOf(form: URLSearchParams): string {
  const formId = field(form, 'form_id');
  if (!isFormId(formId)) {
    throw new PageError(
      400,
      'This form is out of date',
      'Open New document again and fill in the form there; nothing was made or charged.',
    );
  }
  return formId;
}

function pastedBody(text: string): JsonObject {
  if (new TextEncoder().encode(text).length > LIMITS.requestBodyBytes) {
    throw new PageError(
      413,
      'This body is too large',
      `The API takes a request body of at most ${LIMITS.requestBodyBytes / 1024} KiB, so a larger one cannot start a form either.`,
    );
  }
  let body: unknown;
  try {
    body = parseJson(text);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    throw new PageError(400, 'This is not a JSON body', `It could not be read as JSON: ${error.message}`);
  }
  if (!isJsonObject(body))
    throw new PageError(400, 'This is not a JSON body', 'A request body is one JSON object: { "template": …, "fields": { … } }.');
  return body;
}

async function pasted(page: SignedInPageRequest, fallback: TemplateDefinition | undefined): Promise<Response> {
  const body = pastedBody(field(page.form, 'json'));
  const template = typeof body.template === 'string' ? findTemplate(body.template) : fallback;
  if (!template)
    throw new PageError(400, 'Which template?', `The body's template must be one of: ${TEMPLATES.map((known) => known.slug).join(', ')}.`);
  const { form, leftOut } = formValuesFromBody(template, body);
  const notice = leftOut.length
    ? html`<p class="notice">The form has no place for ${leftOut.join(', ')}: ${leftOut.length === 1 ? 'it was' : 'they were'} left out.</p>`
    : undefined;
  // The body is checked as sent, so that a value the form's inputs cannot hold (a date that does not exist, which a
  // browser's date input empties) is still named at its field. Its line items fill the first rows, in order.
  const made: FormBody = { body: { ...body, mode: 'preview' }, itemRows: Array.from({ length: form.itemRows }, (_, row) => row) };
  return formPage(page, { template, form, ...checkedBody(template, made), ...(notice ? { notice } : {}) });
}

/** A refusal of the checks (400, 404, 409, 422) as problems at the fields; any other refusal is answered as a page. */
function isFieldRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && [400, 404, 409, 422].includes(error.status) && error.code !== 'idempotency_in_progress';
}

/** The document of the form's body, made by the web app's use case; its refusals are the caller's to show. */
function made(page: SignedInPageRequest, body: FormBody) {
  const { context, session } = page;
  return makeWebDocument(
    {
      account: session.account,
      body: body.body,
      formId: formIdOf(page.form),
      requestId: context.requestId,
      onRendered: (renderMs) => {
        context.trace.renderMs = renderMs;
      },
    },
    { ...context.deps, engine: context.engine },
  );
}

async function preview(page: SignedInPageRequest, template: TemplateDefinition, form: FormValues): Promise<Response> {
  const body = madeBody(template, form, 'preview');
  try {
    return pdfAnswer(await made(page, body), 'inline');
  } catch (error) {
    if (!isFieldRefusal(error)) throw error;
    page.context.trace.errorCode = error.code;
    const problems = problemsOf(error, template, body);
    return pageResponse({ title: 'No preview yet', status: error.status, session: page.session, body: previewProblemsView(problems) });
  }
}

async function final(page: SignedInPageRequest, template: TemplateDefinition, form: FormValues): Promise<Response> {
  const body = madeBody(template, form, 'final');
  try {
    return pdfAnswer(await made(page, body), 'attachment');
  } catch (error) {
    if (error instanceof FormExpired) {
      const notice = html`<p class="notice" role="status">This form is more than 24 hours old, so nothing was made or charged. Press <strong>Make final PDF</strong> again to make the document with this fresh form: it uses 1 credit.</p>`;
      return formPage(page, { template, form, status: 409, notice });
    }
    if (error instanceof FormAlreadyUsed) {
      const notice = html`<p class="notice" role="status">This form already made its final document, and the fields have changed since. Press <strong>Make final PDF</strong> again to make a new document with these fields: it uses another credit.</p>`;
      return formPage(page, { template, form, status: 409, notice });
    }
    if (error instanceof ApiError && error.code === 'insufficient_credits') {
      const account = page.session.account;
      const body = outOfCreditsView({
        remaining: Number(error.body.credits_remaining ?? 0),
        allowance: planOf(account.plan).monthlyAllowance,
        periodEnd: String(error.body.period_end),
        plan: account.plan,
      });
      page.context.trace.errorCode = error.code;
      return pageResponse({ title: 'No credit left', status: 402, session: page.session, body });
    }
    if (!isFieldRefusal(error)) throw error;
    page.context.trace.errorCode = error.code;
    const problems = problemsOf(error, template, body);
    return formPage(page, { template, form, formId: formIdOf(page.form), status: error.status, problems });
  }
}

/** The checks of POST /api/v1/documents/validate on a body: its totals as printed, or its problems at the fields. */
function checkedBody(template: TemplateDefinition, made: FormBody): Pick<FormPageInput, 'status' | 'totals' | 'problems'> {
  try {
    return { status: 200, totals: printedTotals(parseDocumentRequest(made.body)) };
  } catch (error) {
    if (!isFieldRefusal(error)) throw error;
    return { status: error.status, problems: problemsOf(error, template, made) };
  }
}

async function check(page: SignedInPageRequest, template: TemplateDefinition, form: FormValues): Promise<Response> {
  const made = madeBody(template, form, 'preview');
  return formPage(page, { template, form, formId: formIdOf(page.form), ...checkedBody(template, made) });
}

export const settingsNewDocumentRoute = settingsPage({
  method: 'GET',
  path: PAGE_PATHS.newDocument,
  operationId: 'settingsNewDocument',
  summary: 'Web app: choose the template of a new document',
  session: 'required',
  handle: ({ session }) => pageResponse({ title: 'New document', session, body: chooseTemplateView({ templates: TEMPLATES, session }) }),
});

export const settingsPasteDocumentRoute = settingsPage({
  method: 'POST',
  path: PAGE_PATHS.newDocument,
  operationId: 'settingsPasteDocument',
  summary: 'Web app: start a form from a pasted JSON request body',
  session: 'required',
  formMaxBytes: DOCUMENT_FORM_MAX_BYTES,
  handle: (page) => pasted(page, undefined),
});

export const settingsDocumentFormRoute = settingsPage({
  method: 'GET',
  path: `${PAGE_PATHS.newDocument}/{slug}`,
  operationId: 'settingsDocumentForm',
  summary: "Web app: a template's form",
  session: 'required',
  handle: (page) => {
    const template = templateOf(page.context.params.slug);
    return formPage(page, { template, form: { values: new Map(), itemRows: ITEM_ROWS.initial } });
  },
});

export const settingsDocumentFormPostRoute = settingsPage({
  method: 'POST',
  path: `${PAGE_PATHS.newDocument}/{slug}`,
  operationId: 'settingsDocumentFormPost',
  summary: 'Web app: check, preview or make a document from the form',
  session: 'required',
  formMaxBytes: DOCUMENT_FORM_MAX_BYTES,
  frameable: (form) => actionOf(form) === 'preview',
  async handle(page) {
    const template = templateOf(page.context.params.slug);
    const action = actionOf(page.form);
    if (action === 'paste') return pasted(page, template);
    const form = formValuesOf(template, page.form);
    switch (action) {
      case 'more_rows': {
        const itemRows = Math.min(form.itemRows + ITEM_ROWS.more, ITEM_ROWS.max);
        return formPage(page, { template, form: { ...form, itemRows }, formId: formIdOf(page.form) });
      }
      case 'copy':
        return formPage(page, {
          template,
          form,
          formId: formIdOf(page.form),
          copy: copyOf(madeBody(template, form, 'final'), page.context.baseUrl),
        });
      case 'preview':
        return preview(page, template, form);
      case 'final':
        return final(page, template, form);
      default:
        return check(page, template, form);
    }
  },
});
