const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/i;

/** Expands an IPv6 address to its eight groups; a dotted IPv4 tail (`::ffff:1.2.3.4`) counts as two. */
function ipv6Groups(address: string): string[] | undefined {
  const lastColon = address.lastIndexOf(':');
  const tail = address.slice(lastColon + 1);
  let text = address;
  if (tail.includes('.')) {
    if (!IPV4.test(tail)) return undefined;
    const [a, b, c, d] = tail.split('.').map(Number) as [number, number, number, number];
    text = `${address.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const [head = '', rest] = halves;
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const left = parse(head);
  const right = rest === undefined ? [] : parse(rest);
  // `::` stands for one group or more: with eight written around it, the text is no address.
  const elided = 8 - left.length - right.length;
  if (rest !== undefined && elided < 1) return undefined;
  const groups = rest === undefined ? left : [...left, ...Array<string>(elided).fill('0'), ...right];
  return groups.length === 8 && groups.every((g) => HEX_GROUP.test(g)) ? groups : undefined;
}

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d, RFC 4291 2.5.5.2), however written, as its IPv4 address. */
function mappedIpv4(groups: readonly string[]): string | undefined {
  if (!groups.slice(0, 5).every((g) => parseInt(g, 16) === 0) || parseInt(groups[5]!, 16) !== 0xffff) return undefined;
  const [high, low] = [parseInt(groups[6]!, 16), parseInt(groups[7]!, 16)];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/**
 * The "network" of the failed-sign-in limit: an IPv4 address as it is (also when written as IPv4-mapped IPv6),
 * an IPv6 address by its /64 prefix (one host usually holds a whole /64). Anything unreadable counts as one
 * network, `unknown`.
 */
export function networkOf(address: string | undefined): string {
  if (!address) return 'unknown';
  const trimmed = address
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '');
  if (IPV4.test(trimmed)) return trimmed;
  const groups = ipv6Groups(trimmed);
  if (!groups) return 'unknown';
  return (
    mappedIpv4(groups) ??
    `${groups
      .slice(0, 4)
      .map((g) => g.toLowerCase().padStart(4, '0'))
      .join(':')}::/64`
  );
}
