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

/** GET /docs/api/errors: one anchor per error code (`id` = the code), generated from the error table. */
export function errorsPage(): Response {
  const index = ERROR_CODES.map((code) => `<li><a href="#${code}"><code>${code}</code></a> (${ERRORS[code].status})</li>`).join('');
  const sections = ERROR_CODES.map((code) => {
    const entry = ERRORS[code];
    const details = Object.entries(entry.details as Record<string, string>);
    const detailTable = details.length
      ? `<table><tr><th>Detail code</th><th>Meaning</th></tr>${details
          .map(([detail, meaning]) => `<tr><td id="${code}.${detail}"><code>${detail}</code></td><td>${inlineCode(meaning)}</td></tr>`)
          .join('')}</table>`
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
  );
}
