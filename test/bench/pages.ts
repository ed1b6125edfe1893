/**
 * The web app's pages: server time (median and p95 of 200 answers each, in process, after 20 to warm up) and
 * weight (the HTML gzip-compressed, as a browser gets it). Targets of issue 36: at most 10 ms and 30 KB a page, PDFs
 * aside. `node test/bench/pages.ts` (or `bun`); prints a table.
 */
import { gzipSync } from 'node:zlib';
import { createAccount } from '../../src/accounts/store.ts';
import { createApp } from '../../src/app.ts';
import { systemClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/libsql.ts';
import { sessions } from '../../src/db/schema.ts';
import { SESSION_COOKIE } from '../../src/pages/security.ts';
import { readFontFiles } from '../../src/render/font-files.ts';
import { loadFonts } from '../../src/render/fonts.ts';
import { csrfTokenFor } from '../../src/settings/sessions.ts';
import { hashToken, newToken } from '../../src/settings/tokens.ts';
import { formOf, WEB_INVOICE } from '../support/web-invoice.ts';

const BASE = 'http://localhost:8787';
const { db } = await openDatabase(':memory:');
const fetch = createApp({ db, clock: systemClock, config: loadConfig({}, { logRequests: false }), fonts: loadFonts(readFontFiles()) });
const now = Date.now();
const account = await createAccount(db, { email: 'bench@example.com', plan: 'free', emailConfirmed: true, now });
const token = newToken();
await db.insert(sessions).values({ tokenHash: hashToken(token), accountId: account!.id, createdAt: now, expiresAt: now + 86_400_000 });
const cookie = `${SESSION_COOKIE}=${token}`;

const form = new URLSearchParams({ csrf: csrfTokenFor(token), form_id: newToken(), item_rows: '3', ...formOf(WEB_INVOICE) });
const post = (action: string) => () =>
  new Request(`${BASE}/settings/documents/new/invoice`, {
    method: 'POST',
    headers: { Cookie: cookie, Origin: BASE, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: `${form}&action=${action}`,
  });
const get = (path: string) => () => new Request(`${BASE}${path}`, { headers: { Cookie: cookie, Accept: 'text/html' } });

const PAGES: [string, () => Request][] = [
  ['GET /', get('/')],
  ['GET /settings', get('/settings')],
  ['GET /settings/documents/new', get('/settings/documents/new')],
  ['GET /settings/documents/new/invoice', get('/settings/documents/new/invoice')],
  ['POST check (totals)', post('check')],
  ['POST copy', post('copy')],
  ['GET /settings/usage', get('/settings/usage')],
  ['GET /settings/keys', get('/settings/keys')],
  ['GET /settings/account', get('/settings/account')],
  ['GET /settings/account/delete', get('/settings/account/delete')],
  ['GET /no-such-page (404)', get('/no-such-page')],
];

const rows: string[] = [];
for (const [name, request] of PAGES) {
  for (let warm = 0; warm < 20; warm++) await (await fetch(request())).arrayBuffer();
  const times: number[] = [];
  let bytes = new Uint8Array();
  for (let run = 0; run < 200; run++) {
    const started = performance.now();
    const answer = await fetch(request());
    bytes = new Uint8Array(await answer.arrayBuffer());
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const median = times[100]!;
  const p95 = times[190]!;
  rows.push(
    `${name.padEnd(36)} ${median.toFixed(2).padStart(6)} ms ${p95.toFixed(2).padStart(6)} ms ${(bytes.length / 1024).toFixed(1).padStart(6)} KB ${(gzipSync(bytes).length / 1024).toFixed(1).padStart(5)} KB`,
  );
}
console.log(`${'page'.padEnd(36)} median    p95      html   gzip`);
for (const row of rows) console.log(row);
