/**
 * Which keys were asked about before, for a cache that keeps a result only when its key comes again in another
 * document (a line or a glyph set a second document has too): a result of a document seen once, as most customers'
 * names and glyph sets are, stayed in the cache until evicted, and the collector's scavenges, which cost in
 * proportion to what survives them, copied and promoted it (a render with a new glyph set left about 10 KB so).
 * Only a hash of each key is remembered, in 30 bits, with the number of the document it came in (small integers
 * to the engines: remembering one allocates nothing, and a key's string, often a slice of a request's text, is not
 * kept alive); all are forgotten at once when `capacity` are.
 */
export class SeenBefore {
  private readonly documents = new Map<number, number>();
  private readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  /**
   * Whether `key` came before, in another document than `document` when one is given (a hash collision counts as
   * before: a result is then kept early), noting it.
   */
  check(key: string, document = ANY_DOCUMENT): boolean {
    let hash = 0x811c9dc5;
    for (let index = 0; index < key.length; index++) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
    hash &= 0x3fffffff;
    const seenIn = this.documents.get(hash);
    if (seenIn === ANY_DOCUMENT || (seenIn !== undefined && seenIn !== document)) {
      this.documents.set(hash, ANY_DOCUMENT);
      return true;
    }
    if (seenIn !== undefined) return false;
    if (this.documents.size >= this.capacity) this.documents.clear();
    this.documents.set(hash, document);
    return false;
  }
}

/**
 * A key checked without a document, as if every call were a document of its own; and a key's document once it came
 * in two: it came before, whatever document asks.
 */
const ANY_DOCUMENT = -1;
