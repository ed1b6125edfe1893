/** Expands an IPv6 address to its eight groups. */
function ipv6Groups(address: string): string[] | undefined {
  const [head = '', tail] = address.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.length === 8 && groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g)) ? groups : undefined;
}

/**
 * The "network" of the failed-sign-in limit: an IPv4 address as it is, an IPv6 address by its /64 prefix
 * (one host usually holds a whole /64). Anything unreadable counts as one network, `unknown`.
 */
export function networkOf(address: string | undefined): string {
  if (!address) return 'unknown';
  const trimmed = address.trim().replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  if (mapped) return mapped[1]!;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(trimmed)) return trimmed;
  const groups = ipv6Groups(trimmed);
  if (!groups) return 'unknown';
  return `${groups.slice(0, 4).map((g) => g.toLowerCase().padStart(4, '0')).join(':')}::/64`;
}
