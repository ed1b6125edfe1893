interface MediaRange {
  type: string;
  q: number;
}

function parseAccept(header: string): MediaRange[] {
  return header
    .split(',')
    .map((part) => {
      const [type = '', ...parameters] = part.split(';').map((piece) => piece.trim());
      const qParameter = parameters.find((parameter) => /^q\s*=/i.test(parameter));
      const q = qParameter ? Number(qParameter.split('=')[1]) : 1;
      return { type: type.toLowerCase(), q: Number.isFinite(q) ? q : 1 };
    })
    .filter((range) => range.type !== '' && range.q > 0);
}

const BINARY_RANGES = ['application/pdf', 'application/*', '*/*'];

/**
 * Section 4.2: the JSON form only when Accept lists application/json and none of the BINARY_RANGES
 * (a range with q=0 is not listed: it says "not acceptable").
 */
export function wantsJson(accept: string | null): boolean {
  if (!accept) return false;
  const ranges = parseAccept(accept);
  return ranges.some((range) => range.type === 'application/json') && !ranges.some((range) => BINARY_RANGES.includes(range.type));
}
