// The distinct lookups of a run, in order of first appearance, without keeping them: what grows
// with the input is a 64-bit key per distinct lookup (key-table.ts: 8 bytes each), never the
// lookups themselves. A new lookup waits in a queue until a call takes it (`take`); the reading of
// the input stops while two calls' worth wait (batches.ts), so only the calls in flight and the
// next one hold strings. A run that stops finds the lookups it did not resolve by reading on
// (run.ts), not in memory.
//
// The key of a terminal number of 16 to 18 digits is the number itself with its length, so two
// such terminals are never taken for one another. Any other lookup (a merchant name, a longer
// terminal) is known by a 64-bit hash of its kind and text: two independent 32-bit hashes, seeded
// afresh at each run. Two distinct ones taken for one another would take a collision of both;
// among n such lookups its odds are about n^2 / 2^65: 3 in 100 million for a million distinct
// names, 1 in a billion for 200,000. It cannot be checked without the text the set exists not
// to keep: checking would mean reading a repeat's first appearance back from the input at each
// repeat (and standard input cannot be read back). A collision would make the later lookup look
// like a repeat (counted as a duplicate, not sent); a new seed at each run means a run again
// would not meet it again.
//
// A run that reads its input twice (the count first, for a person or --dry-run; then the calls)
// records on the first reading which of the lookups given were first appearances, one bit each,
// and the second reading `replay`s that record: no hashing, and the same order.
import { fmix32, KeyTable64 } from './key-table.js';

export type LookupType = 'terminal' | 'name';

export interface Lookup {
  type: LookupType;
  value: string;
}

interface LookupSetOptions {
  /** Queue each new lookup for `take` and iteration (default); false counts them only. */
  keep?: boolean;
  /** Record which of the lookups given are first appearances, for a second reading (`replay`). */
  record?: boolean;
  /** The seeds of the hashes (tests); random by default. */
  seeds?: readonly [number, number];
}

const TERMINAL = 0;
const NAME = 1;
const DIGIT_0 = 0x30;

export class LookupSet {
  /** Every lookup given, duplicates included. */
  given = 0;
  terminals = 0;
  names = 0;
  private count = 0;
  /** Terminal numbers of 16 to 18 digits: the number is the key. */
  private exact = new KeyTable64();
  /** Every other lookup: a 64-bit hash of its kind and text. */
  private hashed = new KeyTable64();
  private readonly seedA: number;
  private readonly seedB: number;
  private readonly keep: boolean;
  /** New lookups no call has taken yet: `queue[head…]`. */
  private queue: Lookup[] = [];
  private head = 0;
  /** When recording: a bit per lookup given, set for a first appearance. */
  private firstBits?: FirstAppearances;
  /** When replaying a first reading: its record. */
  private readonly replaying?: FirstAppearances;

  constructor(options: LookupSetOptions = {}, replaying?: FirstAppearances) {
    this.keep = options.keep ?? true;
    this.seedA = options.seeds?.[0] ?? (Math.random() * 0x100000000) | 0;
    this.seedB = options.seeds?.[1] ?? (Math.random() * 0x100000000) | 0;
    if (options.record) this.firstBits = new FirstAppearances();
    this.replaying = replaying;
  }

  /** Distinct lookups so far. */
  get size(): number {
    return this.count;
  }

  get duplicates(): number {
    return this.given - this.count;
  }

  /** Lookups waiting for a call. */
  get waiting(): number {
    return this.queue.length - this.head;
  }

  /** What a recording set recorded: for the set of the second reading. */
  replay(): LookupSet {
    if (!this.firstBits) throw new Error('replay() needs a set made with { record: true }');
    return new LookupSet({ keep: true }, this.firstBits);
  }

  /**
   * A LookupIndex of room for the distinct lookups this set has seen, that knows each again by the
   * same key (--each-line, reading the input again). The set's own keys are let go: it cannot tell
   * a repeat any more.
   */
  toIndex(): LookupIndex {
    const index = new LookupIndex(this.seedA, this.seedB, this.exact.size, this.hashed.size);
    this.exact = new KeyTable64();
    this.hashed = new KeyTable64();
    return index;
  }

  /** Adds a lookup; true when it is a first appearance. */
  add(lookup: Lookup): boolean {
    const kind = lookup.type === 'terminal' ? TERMINAL : NAME;
    if (!this.isNew(kind, lookup.value, undefined, 0, lookup.value.length)) return false;
    this.append(kind, lookup);
    return true;
  }

  /**
   * A terminal number given as ASCII digits in `source[start, end)` (the file-reading fast path).
   */
  addTerminalBytes(source: Buffer, start: number, end: number): boolean {
    if (!this.isNew(TERMINAL, undefined, source, start, end)) return false;
    // A string is made only for a new lookup, and only when it is kept.
    this.append(
      TERMINAL,
      this.keep ? { type: 'terminal', value: source.toString('latin1', start, end) } : undefined,
    );
    return true;
  }

  /** Takes up to `count` of the waiting lookups, oldest first. */
  take(count: number): Lookup[] {
    const end = Math.min(this.queue.length, this.head + count);
    const taken = this.queue.slice(this.head, end);
    this.head = end;
    // The queue is cut down once most of it is taken: it stays as short as the lookups waiting.
    if (this.head >= 4096 && this.head * 2 >= this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return taken;
  }

  /** The lookups waiting, in order of first appearance (all of them, when none was taken). */
  *[Symbol.iterator](): IterableIterator<Lookup> {
    for (let i = this.head; i < this.queue.length; i++) yield this.queue[i]!;
  }

  private append(kind: number, lookup: Lookup | undefined): void {
    this.count++;
    if (kind === TERMINAL) this.terminals++;
    else this.names++;
    if (this.keep && lookup) this.queue.push(lookup);
  }

  /**
   * Counts the lookup given and tells whether it is a first appearance: from the text, or from the
   * bytes.
   */
  private isNew(
    kind: number,
    text: string | undefined,
    bytes: Uint8Array | undefined,
    start: number,
    end: number,
  ): boolean {
    const index = this.given++;
    if (this.replaying) return this.replaying.has(index);
    const length = end - start;
    let fresh: boolean;
    if (kind === TERMINAL && length >= 16 && length <= 18 && digitKey(text, bytes, start, end))
      fresh = this.exact.add(keyLow, keyHigh);
    else {
      hashKey(kind, text, bytes, start, end, this.seedA, this.seedB);
      fresh = this.hashed.add(keyLow, keyHigh);
    }
    if (fresh) this.firstBits?.set(index);
    return fresh;
  }
}

/**
 * The distinct lookups of an input, each with a number (--each-line: where its result is), for a
 * reading that meets each again on every line it is on. Sized once for the lookups a first
 * reading counted: two open-addressing tables (the terminals of 16 to 18 digits, and the hashed
 * keys, as in LookupSet), each a 64-bit key (two Int32) and a Float64 value a slot, at most 3
 * slots in 4 used: about 21 bytes a distinct lookup, nothing copied as it fills.
 */
export class LookupIndex {
  /** Whether the lookup of the last `entryOf…` was not in the index yet (it now is, valued NaN). */
  isNew = false;
  private readonly tables: [KeyValueTable, KeyValueTable];

  constructor(
    private readonly seedA: number,
    private readonly seedB: number,
    exactCount: number,
    hashedCount: number,
  ) {
    this.tables = [new KeyValueTable(exactCount), new KeyValueTable(hashedCount)];
  }

  /** The entry of the lookup, made (isNew) when it is not in the index yet. */
  entryOf(lookup: Lookup): number {
    return this.entry(
      lookup.type === 'terminal' ? TERMINAL : NAME,
      lookup.value,
      undefined,
      0,
      lookup.value.length,
    );
  }

  /** The entry of a terminal given as ASCII digits in `source[start, end)`, as entryOf. */
  entryOfTerminalBytes(source: Buffer, start: number, end: number): number {
    return this.entry(TERMINAL, undefined, source, start, end);
  }

  value(entry: number): number {
    return this.tables[entry & 1]!.values[entry >>> 1]!;
  }

  setValue(entry: number, value: number): void {
    this.tables[entry & 1]!.values[entry >>> 1] = value;
  }

  private entry(
    kind: number,
    text: string | undefined,
    bytes: Uint8Array | undefined,
    start: number,
    end: number,
  ): number {
    const length = end - start;
    let table = 1;
    if (kind === TERMINAL && length >= 16 && length <= 18 && digitKey(text, bytes, start, end))
      table = 0;
    else hashKey(kind, text, bytes, start, end, this.seedA, this.seedB);
    const slot = this.tables[table]!.find(keyLow, keyHigh);
    this.isNew = slot < 0;
    return ((slot < 0 ? ~slot : slot) << 1) | table;
  }
}

/** Open addressing over a fixed number of slots: a key (high half never 0) and a value each. */
class KeyValueTable {
  readonly values: Float64Array;
  private readonly keys: Int32Array;
  private readonly slots: number;
  private free: number;

  constructor(count: number) {
    this.slots = Math.ceil(count / 0.75) + 1;
    // One slot stays empty, where a search ends.
    this.free = this.slots - 1;
    this.keys = new Int32Array(this.slots * 2);
    this.values = new Float64Array(this.slots);
  }

  /** The key's slot; or, when it was not there, ~slot of the slot it now takes. */
  find(low: number, high: number): number {
    // Multiply-shift onto [0, slots): exact in a double, as both factors are under 2^32 and 2^21.
    let slot = Math.floor(
      ((fmix32(low ^ Math.imul(high, 0x9e3779b1)) >>> 0) * this.slots) / 0x100000000,
    );
    const keys = this.keys;
    for (;;) {
      const found = keys[(slot << 1) + 1]!;
      if (found === 0) break;
      if (found === high && keys[slot << 1] === low) return slot;
      if (++slot === this.slots) slot = 0;
    }
    // Far more distinct lookups than the first reading counted: the input is not what it was.
    if (--this.free < 0)
      throw new Error('--file holds more distinct lookups than when it was counted');
    keys[slot << 1] = low;
    keys[(slot << 1) + 1] = high;
    this.values[slot] = NaN;
    return ~slot;
  }
}

/** A bit per lookup given: whether it was a first appearance. 125 KB a million lookups. */
class FirstAppearances {
  private bits = new Int32Array(1024);

  set(index: number): void {
    const word = index >>> 5;
    if (word >= this.bits.length) {
      const grown = new Int32Array(Math.max(this.bits.length * 2, word + 1));
      grown.set(this.bits);
      this.bits = grown;
    }
    this.bits[word]! |= 1 << (index & 31);
  }

  has(index: number): boolean {
    const word = index >>> 5;
    return word < this.bits.length && (this.bits[word]! & (1 << (index & 31))) !== 0;
  }
}

// The key of the lookup last read, in two halves: set by digitKey and hashKey (no object a lookup).
let keyLow = 0;
let keyHigh = 0;

/**
 * The key of a terminal of 16 to 18 digits: its last 9 digits, and the digits before them (at most
 * 9) plus one with its length above them; false when a character is not a digit. Never 0 high.
 */
function digitKey(
  text: string | undefined,
  bytes: Uint8Array | undefined,
  start: number,
  end: number,
): boolean {
  const split = end - 9;
  let high = 0;
  let low = 0;
  for (let i = start; i < end; i++) {
    const digit = (text === undefined ? bytes![i]! : text.charCodeAt(i)) - DIGIT_0;
    if (digit < 0 || digit > 9) return false;
    if (i < split) high = high * 10 + digit;
    else low = low * 10 + digit;
  }
  keyLow = low;
  keyHigh = (high + 1 + ((end - start - 16) << 30)) | 0;
  return true;
}

/**
 * Two independent 32-bit hashes of the kind and the text (its UTF-16 code units, or the bytes of
 * an ASCII terminal, which are the same numbers): FNV-1a, and a multiply-xorshift lane, each from
 * its own seed and finished with murmur3's mixer. The high half is never 0.
 */
function hashKey(
  kind: number,
  text: string | undefined,
  bytes: Uint8Array | undefined,
  start: number,
  end: number,
  seedA: number,
  seedB: number,
): void {
  let a = (seedA ^ kind) | 0;
  let b = (seedB ^ Math.imul(kind + 1, 0x9e3779b1)) | 0;
  for (let i = start; i < end; i++) {
    const unit = text === undefined ? bytes![i]! : text.charCodeAt(i);
    a = Math.imul(a ^ unit, 0x01000193);
    b = Math.imul(b + unit, 0x5bd1e995);
    b ^= b >>> 15;
  }
  const length = end - start;
  keyLow = fmix32(a ^ length);
  keyHigh = fmix32(b ^ Math.imul(length, 0x27d4eb2f)) || 1;
}
