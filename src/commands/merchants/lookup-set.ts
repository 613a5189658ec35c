// The distinct lookups of a run in order of first appearance: the only thing that grows with the
// input. A JavaScript Set of strings costs about 60 bytes a lookup on the garbage-collected heap,
// and a file read as strings makes a string per line; here each distinct lookup is its UTF-8 bytes
// in one growing buffer, found again through an open-addressing hash table of typed arrays: about
// 30 bytes a lookup, outside the heap, and a file's terminal lines are never made into strings.
// Strings are made again only for the calls in flight.

export type LookupType = 'terminal' | 'name';

export interface Lookup {
  type: LookupType;
  value: string;
}

const TERMINAL = 0;
const NAME = 1;
const EMPTY = -1;

export class LookupSet {
  /** Every lookup given, duplicates included. */
  given = 0;
  terminals = 0;
  names = 0;
  private bytes = Buffer.allocUnsafe(64 * 1024);
  private used = 0;
  /** Per distinct lookup: where its bytes start, its kind, its hash. Its bytes end where the next start. */
  private starts = new Uint32Array(1024);
  private kinds = new Uint8Array(1024);
  private hashes = new Uint32Array(1024);
  private count = 0;
  /** Lookup index, or EMPTY; a power of two long, at most half full. */
  private slots = new Int32Array(2048).fill(EMPTY);
  private readonly scratch = Buffer.allocUnsafe(1024);

  get size(): number {
    return this.count;
  }

  get duplicates(): number {
    return this.given - this.count;
  }

  add(lookup: Lookup): void {
    const length = Buffer.byteLength(lookup.value);
    const source = length <= this.scratch.length ? this.scratch : Buffer.allocUnsafe(length);
    source.write(lookup.value, 0, 'utf8');
    this.addBytes(source, 0, length, lookup.type === 'terminal' ? TERMINAL : NAME);
  }

  /** A terminal number given as ASCII digits in `source[start, end)` (the file-reading fast path). */
  addTerminalBytes(source: Uint8Array, start: number, end: number): void {
    this.addBytes(source, start, end, TERMINAL);
  }

  /** The distinct lookups, in order of first appearance. */
  *[Symbol.iterator](): IterableIterator<Lookup> {
    for (let i = 0; i < this.count; i++) yield this.at(i);
  }

  /** The distinct lookups from position `from` up to (not including) `to`. */
  slice(from: number, to: number): Lookup[] {
    const lookups: Lookup[] = [];
    for (let i = from; i < Math.min(to, this.count); i++) lookups.push(this.at(i));
    return lookups;
  }

  private at(i: number): Lookup {
    const start = this.starts[i]!;
    const end = i + 1 < this.count ? this.starts[i + 1]! : this.used;
    return this.kinds[i] === TERMINAL
      ? { type: 'terminal', value: this.bytes.toString('latin1', start, end) }
      : { type: 'name', value: this.bytes.toString('utf8', start, end) };
  }

  private addBytes(source: Uint8Array, start: number, end: number, kind: number): void {
    this.given++;
    const hash = hashOf(source, start, end, kind);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const index = this.slots[slot]!;
      if (index === EMPTY) {
        this.append(source, start, end, kind, hash);
        this.slots[slot] = this.count - 1;
        if (this.count * 2 > this.slots.length) this.rehash();
        return;
      }
      if (this.hashes[index] === hash && this.kinds[index] === kind && this.equals(index, source, start, end)) return;
    }
  }

  private equals(index: number, source: Uint8Array, start: number, end: number): boolean {
    const from = this.starts[index]!;
    const to = index + 1 < this.count ? this.starts[index + 1]! : this.used;
    if (to - from !== end - start) return false;
    for (let i = 0; i < end - start; i++) if (this.bytes[from + i] !== source[start + i]) return false;
    return true;
  }

  private append(source: Uint8Array, start: number, end: number, kind: number, hash: number): void {
    const length = end - start;
    if (this.used + length > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + length));
      this.bytes.copy(grown, 0, 0, this.used);
      this.bytes = grown;
    }
    if (this.count === this.starts.length) {
      this.starts = grow(this.starts, new Uint32Array(this.count * 2));
      this.kinds = grow(this.kinds, new Uint8Array(this.count * 2));
      this.hashes = grow(this.hashes, new Uint32Array(this.count * 2));
    }
    this.bytes.set(source.subarray(start, end), this.used);
    this.starts[this.count] = this.used;
    this.kinds[this.count] = kind;
    this.hashes[this.count] = hash;
    this.used += length;
    this.count++;
    if (kind === TERMINAL) this.terminals++;
    else this.names++;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2).fill(EMPTY);
    const mask = slots.length - 1;
    for (let index = 0; index < this.count; index++) {
      let slot = this.hashes[index]! & mask;
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[slot] = index;
    }
    this.slots = slots;
  }
}

function grow<T extends Uint8Array | Uint32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** FNV-1a over the kind and the bytes. */
function hashOf(source: Uint8Array, start: number, end: number, kind: number): number {
  let hash = (0x811c9dc5 ^ kind) >>> 0;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ source[i]!, 0x01000193);
  return hash >>> 0;
}
