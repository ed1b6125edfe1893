import { LIMITS } from '../../src/contract/limits.ts';
import type { TemplateDefinition } from '../../src/templates/template.ts';

export const REFERENCES = [
  { name: '3 lines', file: 'reference-invoice.json' },
  { name: '50 lines', file: 'reference-invoice-50.json' },
] as const;

/** Characters to make new glyph sets from (see withNewGlyphs), per font family; the first unused ones are taken. */
export const POOLS = {
  latin: 'ĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦ',
  arabic: 'ثخذضظغژڤڭۆۇۈۋ',
  hebrew: 'װױײﬠﬡﬢﬣﬤﬥﬦﬧﬨ',
  devanagari: 'ऍऎऑऒऩऱऴॐॠॡ',
  thai: 'ฃฅฆฌญฎฏฐฑฒฝฬฮ',
  cjk: '鑫龘麒麟鳳凰鵬鷹豹熊鹿鶴',
  hangul: '뷁똠얍쀍햏꿻뙇쀼휑',
} as const;

/** The invoices of issue 16 (test/fixtures/script-invoices), with the pools of the fonts each one draws with. */
export const SCRIPT_INVOICES = [
  { name: 'Arabic', file: 'script-invoices/arabic.json', pools: [POOLS.arabic, POOLS.latin] },
  { name: 'Hebrew', file: 'script-invoices/hebrew.json', pools: [POOLS.hebrew, POOLS.latin] },
  { name: 'Hindi', file: 'script-invoices/hindi.json', pools: [POOLS.devanagari, POOLS.latin] },
  { name: 'Thai', file: 'script-invoices/thai.json', pools: [POOLS.thai, POOLS.latin] },
  { name: 'Japanese', file: 'script-invoices/japanese.json', pools: [POOLS.cjk, POOLS.latin] },
  { name: 'Chinese', file: 'script-invoices/chinese.json', pools: [POOLS.cjk, POOLS.latin] },
  { name: 'Korean', file: 'script-invoices/korean.json', pools: [POOLS.hangul, POOLS.latin] },
  { name: 'mixed', file: 'script-invoices/mixed.json', pools: [POOLS.arabic, POOLS.cjk, POOLS.devanagari, POOLS.latin] },
] as const;

export const WARMUP = Number(process.env.BENCH_WARMUP ?? 100);
export const RUNS = Number(process.env.BENCH_RUNS ?? 300);

/** Bits of the call number that choose characters from each pool: 2^9 - 1 sets, one per call. */
const POOL_BITS = 9;

/**
 * The request of a script invoice as call `call` of WARMUP + RUNS renders it: with a new glyph set in every font.
 * The PDF writer keeps the subsets of the last 64 glyph sets (src/render/pdf/fonts/subset-cache.ts), and a benchmark that rendered one
 * document over and over would time that cache, not the subsetting each new customer's invoice costs. So the
 * first item's description (regular weight) and the client's name (bold) each get a word per font the invoice
 * draws with, made of the characters of the font's pool (not otherwise in the invoice) chosen by the bits of
 * call + 1: every call of the run draws a set of glyphs of its own in every font. render-in-process.ts checks
 * that each PDF's subsets are new by their tags, which are a hash of the glyphs.
 */
export function withNewGlyphs(text: string, pools: readonly string[], call: number): string {
  const request = JSON.parse(text);
  const suffix = ` ${newGlyphWords(text, pools, call)}`;
  request.fields.items[0].description += suffix;
  request.fields.client_name += suffix;
  return JSON.stringify(request);
}

/** One word per pool, of the pool's characters not in `text` chosen by the bits of call + 1 (see withNewGlyphs). */
function newGlyphWords(text: string, pools: readonly string[], call: number): string {
  const choice = call + 1;
  if (choice >= 2 ** POOL_BITS) throw new Error(`withNewGlyphs: ${POOL_BITS} pool characters make fewer than ${choice} sets`);
  const words = pools.map((pool) => {
    const unused = [...pool].filter((char) => !text.includes(char)).slice(0, POOL_BITS);
    if (unused.length < POOL_BITS) throw new Error(`withNewGlyphs: pool ${pool} has fewer than ${POOL_BITS} characters unused`);
    return unused.filter((_, bit) => choice & (1 << bit)).join('');
  });
  return words.join(' ');
}

/** The payment codes' account fields that are not `payee_…`: forms of their own, which the longest text is not. */
const PAYMENT_ACCOUNT_FIELDS = ['creditor_reference', 'upi_id', 'pix_key', 'pix_city', 'qr_reference'];

/** Words of a worst-case text: long ones, capitals, digits and punctuation, as business text has them. */
const WORST_WORDS =
  'Consolidated maintenance agreement 2026-Q4: on-site support, spare-part logistics (EMEA/APAC), reference ' +
  'PO-4500012345/ACME; invoicing per milestone, 30% on acceptance, balance within 45 days. IBAN GB33BUKB20201555555555 ';

/** `n` characters of WORST_WORDS, ending in `end`; a line break every `lineChars` characters when given. */
function worstText(n: number, end: string, lineChars?: number): string {
  let text = WORST_WORDS.repeat(Math.ceil(n / WORST_WORDS.length)).slice(0, n - end.length - 1);
  if (lineChars) text = text.replace(new RegExp(`(.{${lineChars - 1}}) `, 'g'), '$1\n');
  return `${text.trimEnd()} ${end}`.slice(-n);
}

/**
 * The largest valid request of a template as call `call` of a run: every text field at its maximum length
 * (text and multiline fields, a payment link of the longest URL), 50 line items of the longest description with
 * figures of the most digits the totals allow, every option on, a preview (its marking drawn on every page), and a
 * new glyph set in every Latin face (as withNewGlyphs) at the end of each text, so that no render reuses a subset.
 * The bench runs parse it with the service's own validation, so a request that stopped being valid fails the run.
 */
export function worstRequest(template: TemplateDefinition, call: number): string {
  const words = newGlyphWords(WORST_WORDS, [POOLS.latin], call);
  const example = template.example as { fields: Record<string, unknown> };
  const fields: Record<string, unknown> = { ...example.fields };
  for (const [name, field] of Object.entries(template.fields)) {
    if (field.deprecatedFor) continue;
    switch (field.type.name) {
      case 'text':
        fields[name] = worstText(LIMITS.textChars, words);
        break;
      case 'multiline':
        fields[name] = worstText(LIMITS.multilineChars, words, 60);
        break;
      case 'url':
        fields[name] = `https://pay.example.com/${'pay-now/'.repeat(40)}`.slice(0, LIMITS.urlChars);
        break;
      case 'line_items':
        fields[name] = Array.from({ length: LIMITS.maxLineItems }, () => ({
          description: worstText(LIMITS.lineItemDescriptionChars, words),
          quantity: '99999.9999',
          unit_price: '99999999.99',
        }));
        break;
      case 'boolean':
        fields[name] = true;
        break;
      case 'discount':
        fields[name] = '12.5%';
        break;
    }
  }
  // A quote has items or an amount: the items are the larger document.
  if ('items' in fields && template.fields.amount) delete fields.amount;
  // The invoice's payment code: the QR code of the longest payment link (the largest code any currency takes); the
  // account fields of the other codes have forms of their own, which the longest text is not.
  if (template.fields.payment_code) {
    fields.payment_code = 'link';
    for (const name of Object.keys(fields)) if (name.startsWith('payee_') || PAYMENT_ACCOUNT_FIELDS.includes(name)) delete fields[name];
  }
  return JSON.stringify({ ...template.example, mode: 'preview', fields });
}

export interface Summary {
  /**
   * The first call, before the row's warm-up; a script invoice's row gives its first render in the process instead
   * (render-in-process.ts warmProcess), with its fonts' first use if none before used them.
   */
  first: number;
  median: number;
  p95: number;
  max: number;
  perSecond: number;
  bytes: number;
}

function summarise(samples: number[], bytes: number, first: number): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return {
    first,
    median: sorted[Math.floor(sorted.length / 2)]!,
    p95: sorted[Math.floor(sorted.length * 0.95)]!,
    max: sorted.at(-1)!,
    perSecond: 1000 / mean,
    bytes,
  };
}

/** Times `run` RUNS times after WARMUP calls, each call on its own; `run` gets the call's number, from 0. */
export async function timeRuns(run: (call: number) => Promise<number>): Promise<Summary> {
  let bytes = 0;
  let first = 0;
  for (let call = 0; call < WARMUP; call++) {
    const start = performance.now();
    bytes = await run(call);
    if (call === 0) first = performance.now() - start;
  }
  const samples: number[] = [];
  for (let call = WARMUP; call < WARMUP + RUNS; call++) {
    const start = performance.now();
    await run(call);
    samples.push(performance.now() - start);
  }
  return summarise(samples, bytes, first);
}
