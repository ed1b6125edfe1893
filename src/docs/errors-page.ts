import { type CreditUsedOnError, ERROR_CODES, ERRORS } from '../contract/errors.ts';
import { HEADERS } from '../contract/headers.ts';
import { LIMITS } from '../contract/limits.ts';
import { inlineCode, page } from './html.ts';

const CREDIT_USED: Record<CreditUsedOnError, string> = {
  false: '<code>false</code>: no credit used',
  null: `<code>null</code>: unconfirmed; retry with the same ${HEADERS.idempotencyKey} to be charged at most once`,
  false_or_null: '<code>false</code>, or <code>null</code> if the charge had started',
  not_stated: 'not stated',
};

/**
 * On a phone, a detail table becomes one block per detail (the code above its meaning), and a code breaks where it
 * must: the longest (`idempotency_replay_unavailable` as a heading) is wider than a 390 px screen.
 */
const NARROW_SCREEN_STYLE = `code{overflow-wrap:anywhere}
@media (max-width:40rem){table.details,.details tbody,.details tr,.details td{display:block}
.details thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
.details tr{border:1px solid #ddd;border-radius:4px;margin:0 0 .5rem}.details td{border:0}.details td:first-child{font-weight:600;padding-bottom:0}}`;

/** GET /docs/api/errors: one anchor per error code (`id` = the code), generated from the error table. */
export function errorsPage(): Response {
  const index = ERROR_CODES.map((code) => `<li><a href="#${code}"><code>${code}</code></a> (${ERRORS[code].status})</li>`).join('');
  const sections = ERROR_CODES.map((code) => {
    const entry = ERRORS[code];
    const details = Object.entries(entry.details as Record<string, string>);
    const detailTable = details.length
      ? `<table class="details"><thead><tr><th>Detail code</th><th>Meaning</th></tr></thead><tbody>${details
          .map(([detail, meaning]) => `<tr><td id="${code}.${detail}"><code>${detail}</code></td><td>${inlineCode(meaning)}</td></tr>`)
          .join('')}</tbody></table>`
      : '';
    return `<section><h2 id="${code}"><code>${code}</code></h2>
<p><strong>HTTP ${entry.status}.</strong> ${inlineCode(entry.meaning)}</p>
<p><strong>credit_used:</strong> ${CREDIT_USED[entry.creditUsed]}.</p>
<p><strong>What to do:</strong> ${inlineCode(entry.action)}</p>${detailTable}</section>`;
  }).join('\n');
  return page(
    'API errors',
    `<h1>API errors</h1>
<p>Every error is JSON: <code>{"error": {"code", "message", "details"?, "request_id", "docs_url"}, "credit_used"}</code>.
Key on <code>code</code>; messages may change. Treat a code not listed here by its HTTP status.
details lists at most ${LIMITS.errorDetails} problems, each with <code>code</code>, <code>message</code> and, where it applies, <code>field</code>.</p>
<ul>${index}</ul>${sections}`,
    { style: NARROW_SCREEN_STYLE },
  );
}
