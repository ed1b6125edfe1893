import { LIMITS } from '../contract/limits.ts';
import type { TotalsRow } from '../render/layout/document.ts';
import type { Session } from '../settings/sessions.ts';
import type { TemplateDefinition } from '../templates/template.ts';
import { DEFAULT_PAPER, type FormField, type FormValues, ITEM_MEMBERS, ITEM_ROWS, itemPath, PAPER_CHOICES } from './document-form.ts';
import { type Html, html } from './html.ts';
import { csrfField, isoTime, PAGE_PATHS } from './layout.ts';

/** A problem the checks found, at the input it belongs to (its name, the contract's path) or at none. */
export interface FieldProblem {
  /** The input's name; undefined for a problem of the whole request. */
  readonly path: string | undefined;
  readonly label: string;
  readonly message: string;
}

/** An input's id, from its name: ids must not hold `.`, `[` or `]` to be usable in a link's fragment. */
export function inputId(path: string): string {
  return `f-${path.replace(/[^A-Za-z0-9]+/g, '-').replace(/-$/, '')}`;
}

export function newDocumentPath(slug: string): string {
  return `${PAGE_PATHS.newDocument}/${encodeURIComponent(slug)}`;
}

/** The labels of the request's own options, which the form shows beside the template's fields. */
export const OPTION_LABELS = { paper: 'Paper', reference: 'Your reference' } as const;

const REFERENCE_HINT = `Your own label for finding the document in the history; never printed. 1 to ${LIMITS.referenceChars} printable ASCII characters; no personal information.`;

/** The target of the preview form: an inline frame of the page (no JavaScript needed to show the PDF in place). */
export const PREVIEW_FRAME = 'preview';

/** What every document page states about where the fields go. */
const NOTHING_STORED = html`<p class="notice">Nothing you type is stored on our server: the document is made from the form and sent to you, and only its record (template, time, size, fingerprint) is kept for ${LIMITS.historyRetentionDays} days. With JavaScript on, this browser keeps a draft of the form until you press Clear draft.</p>`;

export function chooseTemplateView(input: { templates: readonly TemplateDefinition[]; session: Session }): Html {
  const items = input.templates.map(
    (template) =>
      html`<li><a href="${newDocumentPath(template.slug)}"><strong>${template.name}</strong></a><br>${template.description}</li>`,
  );
  return html`<h1>New document</h1>
<p>Choose what to make. You fill in a form, check it, see a free preview, then make the final PDF for 1 credit.</p>
<ul class="choices">${items}</ul>
<h2>Start from an API request</h2>
${pasteForm(input.session, PAGE_PATHS.newDocument)}`;
}

function pasteForm(session: Session, action: string, json = ''): Html {
  return html`<form method="post" action="${action}" class="stacked wide">
${csrfField(session)}
<label for="json-body">A JSON request body, as sent to POST /api/v1/documents</label>
<textarea id="json-body" name="json" rows="6" spellcheck="false">${json}</textarea>
<button type="submit" name="action" value="paste" class="secondary">Fill the form from it</button>
</form>`;
}

function requiredMark(required: boolean): Html {
  return required ? html` <span class="required">(required)</span>` : html` <span class="optional">(optional)</span>`;
}

/** The ids an input is described by: its hint, and its problem when it has one. */
function describedBy(id: string, hint: string, problem: FieldProblem | undefined): Html {
  const ids = [hint ? `${id}-hint` : '', problem ? `${id}-error` : ''].filter(Boolean).join(' ');
  return ids ? html` aria-describedby="${ids}"` : html``;
}

function problemNote(id: string, problem: FieldProblem | undefined): Html {
  return problem ? html`<p class="field-error" id="${id}-error">${problem.message}</p>` : html``;
}

function invalid(problem: FieldProblem | undefined): Html {
  return problem ? html` aria-invalid="true"` : html``;
}

function selectInput(id: string, path: string, choices: readonly { value: string; label: string }[], chosen: string, extra: Html): Html {
  const options = choices.map(
    (choice) => html`<option value="${choice.value}"${choice.value === chosen ? html` selected` : ''}>${choice.label}</option>`,
  );
  return html`<select id="${id}" name="${path}"${extra}>${options}</select>`;
}

/** One field's input of the right kind, with its value as sent (escaped: the tag escapes every value). */
function fieldInput(field: FormField, value: string, problem: FieldProblem | undefined): Html {
  const id = inputId(field.path);
  const extra = html`${describedBy(id, field.hint, problem)}${invalid(problem)}${field.required ? html` aria-required="true"` : ''}`;
  const max = field.maxLength === undefined ? html`` : html` maxlength="${field.maxLength}"`;
  switch (field.kind) {
    case 'textarea':
      return html`<textarea id="${id}" name="${field.path}" rows="3"${max}${extra}>${value}</textarea>`;
    case 'select': {
      const none = { value: '', label: field.required ? 'Choose…' : '(none)' };
      return selectInput(
        id,
        field.path,
        [none, ...(field.choices ?? []).map((choice) => ({ value: choice, label: choice }))],
        value,
        extra,
      );
    }
    case 'checkbox':
      return html`<input id="${id}" name="${field.path}" type="checkbox" value="true"${value === 'true' ? html` checked` : ''}${extra}>`;
    case 'date':
      return html`<input id="${id}" name="${field.path}" type="date" value="${value}"${extra}>`;
    case 'url':
      return html`<input id="${id}" name="${field.path}" type="url" inputmode="url" value="${value}"${max}${extra}>`;
    case 'decimal':
      return html`<input id="${id}" name="${field.path}" type="text" inputmode="decimal" value="${value}"${extra}>`;
    default:
      return html`<input id="${id}" name="${field.path}" type="text" value="${value}"${max}${extra}>`;
  }
}

function fieldBlock(field: FormField, form: FormValues, problems: ReadonlyMap<string, FieldProblem>): Html {
  const id = inputId(field.path);
  const problem = problems.get(field.path);
  const hint = field.hint ? html`<p class="hint" id="${id}-hint">${field.hint}</p>` : html``;
  const input = fieldInput(field, form.values.get(field.path) ?? '', problem);
  if (field.kind === 'checkbox') {
    return html`<div class="field checkbox">${input} <label for="${id}">${field.label}</label>${hint}${problemNote(id, problem)}</div>`;
  }
  return html`<div class="field"><label for="${id}">${field.label}${requiredMark(field.required)}</label>${hint}${problemNote(
    id,
    problem,
  )}${input}</div>`;
}

/** The line items as rows of three inputs; a "More rows" post-back adds rows up to the contract's 50. */
function itemsBlock(field: FormField, form: FormValues, problems: ReadonlyMap<string, FieldProblem>): Html {
  const id = inputId(field.path);
  const problem = problems.get(field.path);
  const rows = Array.from({ length: form.itemRows }, (_, row) => {
    const cells = ITEM_MEMBERS.map((member) => {
      const path = itemPath(row, member.name);
      const cellId = inputId(path);
      const cellProblem = problems.get(path);
      const mode = member.name === 'description' ? html`type="text"` : html`type="text" inputmode="decimal"`;
      return html`<div class="cell ${member.name}"><label for="${cellId}">${member.label}</label>${problemNote(cellId, cellProblem)}<input id="${cellId}" name="${path}" ${mode} value="${
        form.values.get(path) ?? ''
      }"${cellProblem ? html` aria-invalid="true" aria-describedby="${cellId}-error"` : ''}></div>`;
    });
    return html`<fieldset class="item" data-item-row="${row}"><legend>Item ${row + 1}</legend>${cells}</fieldset>\n`;
  });
  const more =
    form.itemRows < ITEM_ROWS.max
      ? html`<button type="submit" name="action" value="more_rows" class="secondary" formnovalidate>More rows</button>`
      : html`<p>The form holds at most ${ITEM_ROWS.max} items.</p>`;
  return html`<fieldset class="items" id="${id}"${describedBy(id, field.hint, problem)}><legend>${field.label}${requiredMark(
    field.required,
  )}</legend>
<p class="hint" id="${id}-hint">${field.hint}</p>${problemNote(id, problem)}
${rows}${more}
</fieldset>`;
}

/** The problems at the top, each a link to its input; the browser focuses the box when the page opens. */
function problemSummary(problems: readonly FieldProblem[]): Html {
  if (!problems.length) return html``;
  const items = problems.map((problem) =>
    problem.path
      ? html`<li><a href="#${inputId(problem.path)}">${problem.label}: ${problem.message}</a></li>`
      : html`<li>${problem.message}</li>`,
  );
  const count = problems.length === 1 ? 'There is 1 problem' : `There are ${problems.length} problems`;
  return html`<div class="problems" id="problems" role="alert" tabindex="-1" autofocus aria-labelledby="problems-title">
<h2 id="problems-title">${count} to fix before the document can be made</h2>
<ul>${items}</ul>
</div>`;
}

function totalsView(rows: readonly TotalsRow[]): Html {
  if (!rows.length) return html``;
  const body = rows.map(
    (row) => html`<tr${row.weight ? html` class="${row.weight}"` : ''}><th scope="row">${row.label}</th><td>${row.value}</td></tr>`,
  );
  return html`<section class="totals" aria-labelledby="totals-title" id="totals" tabindex="-1" autofocus>
<h2 id="totals-title">Totals, as the document prints them</h2>
<table><tbody>${body}</tbody></table>
</section>`;
}

/** What the form page shows besides the form: its problems, its totals, a notice, the request to copy. */
export interface DocumentFormPage {
  readonly template: TemplateDefinition;
  readonly fields: readonly FormField[];
  readonly form: FormValues;
  readonly session: Session;
  /** A fresh id per form shown: a final made from it is made once (src/documents/web.ts). */
  readonly formId: string;
  readonly credits: { remaining: number; periodEnd: string };
  readonly problems?: readonly FieldProblem[];
  readonly totals?: readonly TotalsRow[];
  readonly notice?: Html;
  readonly copy?: { json: string; curl: string; typescript: string };
}

export function documentFormView(page: DocumentFormPage): Html {
  const problems = new Map((page.problems ?? []).flatMap((problem) => (problem.path ? [[problem.path, problem] as const] : [])));
  const action = newDocumentPath(page.template.slug);
  const blocks = page.fields.map((field) =>
    field.kind === 'items' ? itemsBlock(field, page.form, problems) : fieldBlock(field, page.form, problems),
  );
  const paper = page.form.values.get('paper') ?? DEFAULT_PAPER;
  const referenceId = inputId('reference');
  const referenceProblem = problems.get('reference');
  const canFinal = page.credits.remaining > 0;
  return html`<h1>New ${page.template.name.toLowerCase()}</h1>
${NOTHING_STORED}
${page.notice ?? ''}
${problemSummary(page.problems ?? [])}
${page.totals ? totalsView(page.totals) : ''}
${page.copy ? copyView(page.copy) : ''}
<form method="post" action="${action}" id="document-form" class="document" novalidate data-draft="${page.session.account.id}:${page.template.slug}">
${csrfField(page.session)}
<input type="hidden" name="form_id" value="${page.formId}">
<input type="hidden" name="item_rows" value="${page.form.itemRows}">
<fieldset class="options"><legend>Document</legend>
<div class="field"><label for="${inputId('paper')}">${OPTION_LABELS.paper}</label>${selectInput(inputId('paper'), 'paper', PAPER_CHOICES, paper, html``)}</div>
<div class="field"><label for="${referenceId}">${OPTION_LABELS.reference}${requiredMark(false)}</label><p class="hint" id="${referenceId}-hint">${REFERENCE_HINT}</p>${problemNote(
    referenceId,
    referenceProblem,
  )}<input id="${referenceId}" name="reference" type="text" maxlength="${LIMITS.referenceChars}" value="${page.form.values.get('reference') ?? ''}"${describedBy(referenceId, REFERENCE_HINT, referenceProblem)}${invalid(referenceProblem)}></div>
</fieldset>
${blocks}
<div class="actions">
<button type="submit" name="action" value="check" class="secondary">Check and show totals</button>
<button type="submit" name="action" value="preview" formtarget="${PREVIEW_FRAME}" class="secondary">Preview</button>
<button type="submit" name="action" value="copy" class="secondary">Copy as API request</button>
</div>
<div class="final">
<p id="final-cost">Making the final PDF uses <strong>1 credit</strong>. You have <strong>${page.credits.remaining}</strong> credit${
    page.credits.remaining === 1 ? '' : 's'
  } left this period (until ${isoTime(page.credits.periodEnd)}).</p>
${
  canFinal
    ? html`<button type="submit" name="action" value="final" aria-describedby="final-cost">Make final PDF (1 credit)</button>
<p class="hint">Pressing it again, or reloading its answer, downloads the same document again and uses no further credit, for 24 hours; after that this form asks to be sent afresh.</p>`
    : html`<p class="notice">No credit is left this period: previews still work.</p>`
}
</div>
<p><button type="button" class="link" data-clear-draft hidden>Clear draft</button></p>
</form>
<section class="preview" aria-labelledby="preview-title">
<h2 id="preview-title">Preview</h2>
<p>Press Preview to see the watermarked PDF here (free, counted in your previews per hour and day). Your browser's PDF viewer can download it.</p>
<iframe name="${PREVIEW_FRAME}" title="Preview of the document"></iframe>
</section>
<details><summary>Start from a JSON request body</summary>
${pasteForm(page.session, action)}
</details>`;
}

function copyView(copy: { json: string; curl: string; typescript: string }): Html {
  return html`<section class="copy" aria-labelledby="copy-title" id="copy" tabindex="-1" autofocus>
<h2 id="copy-title">This form as an API request</h2>
<p>The exact body of POST /api/v1/documents for this form (mode final). Make a key under <a href="${PAGE_PATHS.keys}">API keys</a> and see <a href="/docs/api">the API reference</a>.</p>
<p class="table-title">JSON body</p>
<pre><code id="copy-json">${copy.json}</code></pre>
<p><button type="button" class="copy" data-copy="copy-json" hidden>Copy JSON</button></p>
<p class="table-title">curl</p>
<pre><code id="copy-curl">${copy.curl}</code></pre>
<p><button type="button" class="copy" data-copy="copy-curl" hidden>Copy curl</button></p>
<p class="table-title">TypeScript, with the project's client (<code>src/client</code>)</p>
<pre><code id="copy-ts">${copy.typescript}</code></pre>
<p><button type="button" class="copy" data-copy="copy-ts" hidden>Copy TypeScript</button></p>
</section>`;
}

/** The preview frame's page when the form cannot be previewed yet: its problems, each named by its field. */
export function previewProblemsView(problems: readonly FieldProblem[]): Html {
  const items = problems.map(
    (problem) => html`<li>${problem.path ? html`<strong>${problem.label}</strong>: ` : ''}${problem.message}</li>`,
  );
  return html`<h1>No preview yet</h1>
<p>Fix these first; press <strong>Check and show totals</strong> to see each at its field.</p>
<ul>${items}</ul>`;
}

export function outOfCreditsView(input: { remaining: number; allowance: number; periodEnd: string; plan: string }): Html {
  return html`<h1>No credit left</h1>
<p>A final document uses 1 credit, and this account has ${input.remaining} left. Nothing was made or charged.</p>
<dl class="facts"><dt>Plan</dt><dd>${input.plan}</dd><dt>Monthly allowance</dt><dd>${input.allowance} credits</dd><dt>Next allowance</dt><dd>${isoTime(
    input.periodEnd,
  )}</dd></dl>
<p>Previews still work and are free. Your browser's Back button returns to the form with your fields as they were.</p>`;
}
