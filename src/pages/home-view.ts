import { PLANS } from '../accounts/plans.ts';
import { LIMITS } from '../contract/limits.ts';
import type { TemplateDefinition } from '../templates/template.ts';
import { firstRequest } from './first-request.ts';
import { type Html, html } from './html.ts';
import { PAGE_PATHS, pageResponse, SERVICE_NAME } from './layout.ts';
import { withPageSecurityHeaders } from './security.ts';

export const SAMPLES_PATH = '/samples';
export const OPENAPI_PATH = '/api/v1/openapi.json';
export const ERRORS_PATH = '/docs/api/errors';

/** The front door's table of plans: what the API's account route states, from the same table (no prices). */
function plansTable(): Html {
  const rows = Object.entries(PLANS).map(
    ([
      name,
      plan,
    ]) => html`<tr role="row"><th scope="row" role="rowheader" data-label="Plan">${name.charAt(0).toUpperCase()}${name.slice(1)}</th>
<td role="cell" data-label="Credits a month">${plan.monthlyAllowance.toLocaleString('en')}</td>
<td role="cell" data-label="Final documents a minute, per key">${plan.limits.finalPerMinuteKey}</td>
<td role="cell" data-label="Previews an hour / a day, per account">${plan.limits.previewPerHourAccount} / ${plan.limits.previewPerDayAccount}</td></tr>`,
  );
  return html`<p class="table-title" id="plans-title">Plans</p>
<div class="table-scroll"><table class="stacks" role="table" aria-labelledby="plans-title">
<thead role="rowgroup"><tr role="row"><th scope="col" role="columnheader">Plan</th><th scope="col" role="columnheader">Credits a month</th><th scope="col" role="columnheader">Final documents a minute, per key</th><th scope="col" role="columnheader">Previews an hour / a day, per account</th></tr></thead>
<tbody role="rowgroup">${rows}</tbody>
</table></div>`;
}

export function homeView(input: { templates: readonly TemplateDefinition[]; signUpOpen: boolean; baseUrl: string }): Html {
  const samples = input.templates.map(
    (template) =>
      html`<li><strong>${template.name}</strong>: ${template.description}<br><a href="${SAMPLES_PATH}/${template.slug}" type="application/pdf">Sample ${template.name.toLowerCase()} (PDF, watermarked preview)</a></li>`,
  );
  return html`<h1>Invoices, quotes and payment receipts as PDF</h1>
<p class="lead">${SERVICE_NAME} makes business documents from a few facts: fill in a form in your browser, or send one JSON request from your own software. It computes the totals, lays the document out in your language's script, and gives you the PDF.</p>
<ul class="facts-list">
<li><strong>No developer needed</strong>: a bakery, a translator or a plumber makes an invoice in the browser, checks the totals and sees a free preview first.</li>
<li><strong>For developers</strong>: one HTTP API with an OpenAPI description, a typed client and idempotent requests: a final document is never charged twice.</li>
<li><strong>Nothing kept</strong>: what you type and the PDF are not stored; only a record of each document (template, time, size, fingerprint) is kept for ${LIMITS.historyRetentionDays} days.</li>
<li>A preview is free and watermarked; a final document uses 1 credit.</li>
</ul>
<p class="actions">${input.signUpOpen ? html`<a class="button" href="${PAGE_PATHS.signUp}">Sign up free</a>` : ''}<a class="button secondary" href="${PAGE_PATHS.signIn}">Sign in</a><a class="button secondary" href="${PAGE_PATHS.newDocument}">Make a document</a></p>
<h2>What it makes</h2>
<ul class="choices">${samples}</ul>
<h2>Plans</h2>
<p>Credits come each month with the plan and are shared by your API keys and the web app. Previews are free within their limits.</p>
${plansTable()}
<h2>For developers</h2>
<ul>
<li><a href="${PAGE_PATHS.apiReference}">API reference</a>: every route, field and limit, with curl and TypeScript samples.</li>
<li><a href="${ERRORS_PATH}">Errors</a>: every error code, what it means and what to do.</li>
<li><a href="${OPENAPI_PATH}">openapi.json</a>: the OpenAPI 3.1 description.</li>
</ul>
<p class="table-title">A first request (a key comes from Settings, API keys)</p>
<pre><code>${firstRequest(input.baseUrl)}</code></pre>`;
}

/** The page for a path no route serves, to a browser (src/app.ts) or for a sample of no template. */
export function notFoundPage(baseUrl: string): Response {
  return withPageSecurityHeaders(pageResponse({ title: 'Page not found', status: 404, body: notFoundView() }), baseUrl);
}

function notFoundView(): Html {
  return html`<h1>Page not found</h1>
<p>There is no page at this address. <a href="${PAGE_PATHS.home}">Go to the front page</a>, or to <a href="${PAGE_PATHS.apiReference}">the API reference</a>.</p>`;
}
