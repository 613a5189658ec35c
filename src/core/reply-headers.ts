// The headers of a reply, whichever transport brought it.
/** The reply's headers: names lower-cased, iterated in name order (as fetch's Headers are). */
export class ReplyHeaders implements Iterable<[string, string]> {
  private readonly byName = new Map<string, string>();

  constructor(entries: Iterable<[string, string]> = []) {
    for (const [name, value] of entries) {
      const key = name.toLowerCase();
      const earlier = this.byName.get(key);
      this.byName.set(key, earlier === undefined ? value : `${earlier}, ${value}`);
    }
  }

  get(name: string): string | null {
    return this.byName.get(name.toLowerCase()) ?? null;
  }

  [Symbol.iterator](): Iterator<[string, string]> {
    return [...this.byName].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))[Symbol.iterator]();
  }
}
