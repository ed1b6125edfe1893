/**
 * Which keys were asked about before, for a cache that keeps a result only the second time its key comes (a line
 * or a glyph set of a second document): a result of a document seen once, as most customers' names and glyph sets
 * are, stayed in the cache until evicted, and the collector's scavenges, which cost in proportion to what survives
 * them, copied and promoted it (a render with a new glyph set left about 10 KB so). Only a hash of each key is
 * remembered, in 30 bits (a small integer to the engines: remembering one allocates nothing, and a key's string,
 * often a slice of a request's text, is not kept alive); all are forgotten at once when `capacity` are.
 */
export class SeenBefore {
  private readonly hashes = new Set<number>();
  private readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  /** Whether `key` came before (a hash collision counts as before: a result is then kept early), noting it. */
  check(key: string): boolean {
    let hash = 0x811c9dc5;
    for (let index = 0; index < key.length; index++) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
    hash &= 0x3fffffff;
    if (this.hashes.has(hash)) return true;
    if (this.hashes.size >= this.capacity) this.hashes.clear();
    this.hashes.add(hash);
    return false;
  }
}
