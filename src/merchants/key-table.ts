// A set of 64-bit keys, each given as two 32-bit halves: what `merchants resolve` keeps of every
// distinct lookup to know a repeat when it comes (lookup-set.ts makes the keys). It grows by 8
// bytes a key, and nothing it lets go of is left for the garbage collector to find later:
//   - the latest keys (up to 65,536) are in a small hash table, at most 1 MiB (it starts at 8 KiB
//     and doubles while a run is small);
//   - when it is full they are sorted (natively, as 64-bit integers) and merged into one sorted
//     list of all the others, 8 bytes a key, kept in pages of 32,768 keys (256 KiB) that are only
//     ever added; an index of 65,536 entries (256 KiB) says where each value of a key's top 16
//     bits starts in it.
// A key is looked for in the small table, then among the few keys of the list that share its top
// bits. The list holds each key scrambled by a bijection (three Feistel rounds of murmur3's
// mixer), so that keys that are alike (terminal numbers in sequence) spread evenly over it.
// For comparison: a hash table that grows by copying itself takes 12 to 16 bytes a key, plus the
// copies it leaves behind, which at a million keys double that until a full collection.
// A merge moves the whole list: about 0.1 s of merging in all for a million keys, but it grows
// with the square of the keys (some seconds at ten million, still little beside their calls).

/**
 * The small table: first and largest size, in slots (two Int32 each); it is merged at half full.
 */
const FIRST_RECENT_SLOTS = 1 << 10;
const RECENT_SLOTS = 1 << 17;
const RECENT_MAX = RECENT_SLOTS >> 1;
const PAGE_SHIFT = 15;
const PAGE_KEYS = 1 << PAGE_SHIFT;
const PAGE_MASK = PAGE_KEYS - 1;
const INDEX_BITS = 16;
const INDEX_SIZE = 1 << INDEX_BITS;
/** The high half of an empty slot of the small table: keys never have it. */
const EMPTY = 0;
/** Flips the sign bit: signed order of flipped halves is the unsigned order of the halves. */
const SIGN = 0x80000000 | 0;
/** Whether a 64-bit integer's low half comes first in memory (sorting reads them as such). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

export class KeyTable64 {
  /** Keys held. */
  size = 0;
  /** The latest keys, as given: two Int32 a slot (low, high). */
  private recent = new Int32Array(FIRST_RECENT_SLOTS * 2);
  private recentMask = FIRST_RECENT_SLOTS - 1;
  private recentCount = 0;
  /**
   * Every other key, scrambled, in ascending order: pages of (high, low) pairs, sign bits flipped.
   */
  private readonly pages: Int32Array[] = [];
  private listed = 0;
  /**
   * Per value of the top 16 bits of a scrambled high half: where its keys start in the list (from
   * the first merge).
   */
  private starts?: Int32Array;
  /**
   * Where the small table is sorted: 64-bit integers, read and written as 32-bit halves (from the
   * first merge).
   */
  private sorting?: ArrayBuffer;

  /** Bytes the table takes. */
  get bytes(): number {
    return (
      this.recent.byteLength +
      (this.sorting?.byteLength ?? 0) +
      this.pages.length * PAGE_KEYS * 8 +
      (this.starts?.byteLength ?? 0)
    );
  }

  /** Adds the key (`high` must not be 0); true when it was not there yet. */
  add(low: number, high: number): boolean {
    low |= 0;
    high |= 0;
    const slot = this.find(low, high);
    if (slot < 0) return false;
    const recent = this.recent;
    recent[slot << 1] = low;
    recent[(slot << 1) + 1] = high;
    this.size++;
    const mask = this.recentMask;
    if (++this.recentCount > mask >>> 1) {
      if (mask + 1 < RECENT_SLOTS) this.growRecent();
      else this.merge();
    }
    return true;
  }

  /** Whether the key is held. */
  has(low: number, high: number): boolean {
    return this.find(low | 0, high | 0) < 0;
  }

  /**
   * Looks for the key (32-bit halves) in the small table, then in the list: -1 when it is held,
   * else the free slot of the small table it would take.
   */
  private find(low: number, high: number): number {
    scramble(low, high);
    const recent = this.recent;
    const mask = this.recentMask;
    let slot = outLow & mask;
    for (;;) {
      const found = recent[(slot << 1) + 1]!;
      if (found === EMPTY) break;
      if (found === high && recent[slot << 1] === low) return -1;
      slot = (slot + 1) & mask;
    }
    return this.listed > 0 && this.inList(outHigh, outLow) ? -1 : slot;
  }

  /**
   * Whether the scrambled key (flipped halves) is in the list: scrambled keys are spread evenly,
   * so the top 16 bits of the high half find the few keys it could be among (their range, from
   * the index), and a binary search the key among them.
   */
  private inList(high: number, low: number): boolean {
    const top = (high ^ SIGN) >>> (32 - INDEX_BITS);
    const starts = this.starts!;
    let first = starts[top]!;
    let last = starts[top + 1]! - 1;
    const pages = this.pages;
    while (first <= last) {
      const middle = (first + last) >>> 1;
      const page = pages[middle >>> PAGE_SHIFT]!;
      const at = (middle & PAGE_MASK) << 1;
      const h = page[at]!;
      const l = page[at + 1]!;
      if (h === high && l === low) return true;
      if (h < high || (h === high && l < low)) first = middle + 1;
      else last = middle - 1;
    }
    return false;
  }

  /** The small table at twice its size, while it is not at its largest. */
  private growRecent(): void {
    const old = this.recent;
    const slots = (this.recentMask + 1) * 2;
    const recent = new Int32Array(slots * 2);
    const mask = slots - 1;
    for (let at = 0; at < old.length; at += 2) {
      const high = old[at + 1]!;
      if (high === EMPTY) continue;
      scramble(old[at]!, high);
      let slot = outLow & mask;
      while (recent[(slot << 1) + 1] !== EMPTY) slot = (slot + 1) & mask;
      recent[slot << 1] = old[at]!;
      recent[(slot << 1) + 1] = high;
    }
    this.recent = recent;
    this.recentMask = mask;
  }

  /** The small table sorted and merged into the list, from the back, in place; then emptied. */
  private merge(): void {
    this.sorting ??= new ArrayBuffer(RECENT_MAX * 8);
    const halves = new Int32Array(this.sorting);
    const lowAt = LITTLE_ENDIAN ? 0 : 1;
    let count = 0;
    const recent = this.recent;
    for (let at = 0; at < recent.length; at += 2) {
      const high = recent[at + 1]!;
      if (high === EMPTY) continue;
      scramble(recent[at]!, high);
      // Flipped back: the unsigned 64-bit order of (high, low) is the list's order.
      halves[(count << 1) + lowAt] = outLow ^ SIGN;
      halves[(count << 1) + 1 - lowAt] = outHigh ^ SIGN;
      count++;
    }
    new BigUint64Array(this.sorting, 0, count).sort();
    const total = this.listed + count;
    while (this.pages.length * PAGE_KEYS < total) this.pages.push(new Int32Array(PAGE_KEYS * 2));
    const pages = this.pages;
    // From the back: the list's last key or the sorted table's, whichever is larger, goes last.
    let i = this.listed - 1;
    let j = count - 1;
    let from = i >= 0 ? pages[i >>> PAGE_SHIFT]! : pages[0]!;
    let to = pages[(total - 1) >>> PAGE_SHIFT]!;
    let highI = i >= 0 ? from[(i & PAGE_MASK) << 1]! : 0;
    let lowI = i >= 0 ? from[((i & PAGE_MASK) << 1) + 1]! : 0;
    let highJ = halves[(j << 1) + 1 - lowAt]! ^ SIGN;
    let lowJ = halves[(j << 1) + lowAt]! ^ SIGN;
    for (let k = total - 1; j >= 0; k--) {
      if ((k & PAGE_MASK) === PAGE_MASK) to = pages[k >>> PAGE_SHIFT]!;
      const at = (k & PAGE_MASK) << 1;
      if (i >= 0 && (highI > highJ || (highI === highJ && lowI > lowJ))) {
        to[at] = highI;
        to[at + 1] = lowI;
        if (--i >= 0) {
          if ((i & PAGE_MASK) === PAGE_MASK) from = pages[i >>> PAGE_SHIFT]!;
          highI = from[(i & PAGE_MASK) << 1]!;
          lowI = from[((i & PAGE_MASK) << 1) + 1]!;
        }
      } else {
        to[at] = highJ;
        to[at + 1] = lowJ;
        if (--j >= 0) {
          highJ = halves[(j << 1) + 1 - lowAt]! ^ SIGN;
          lowJ = halves[(j << 1) + lowAt]! ^ SIGN;
        }
      }
    }
    this.listed = total;
    this.index();
    recent.fill(0);
    this.recentCount = 0;
  }

  /**
   * Where the keys of each value of the top 16 bits start in the list (`starts[65536]`: its
   * length).
   */
  private index(): void {
    const starts = (this.starts ??= new Int32Array(INDEX_SIZE + 1));
    let top = 0;
    for (let k = 0; k < this.listed; k++) {
      const page = this.pages[k >>> PAGE_SHIFT]!;
      const keyTop = (page[(k & PAGE_MASK) << 1]! ^ SIGN) >>> (32 - INDEX_BITS);
      while (top <= keyTop) starts[top++] = k;
    }
    while (top <= INDEX_SIZE) starts[top++] = this.listed;
  }
}

// The scrambled key, in two halves with their sign bits flipped: set by scramble (no object a key).
let outHigh = 0;
let outLow = 0;

/**
 * Three Feistel rounds: a bijection of 64-bit keys, so distinct keys stay distinct, with
 * well-spread halves.
 */
function scramble(low: number, high: number): void {
  const a = high ^ mix(low, 0x85ebca6b);
  const b = low ^ mix(a, 0xc2b2ae35);
  outHigh = a ^ mix(b, 0x27d4eb2f) ^ SIGN;
  outLow = b ^ SIGN;
}

/** murmur3's finaliser of `h` seeded by `seed`: 32 well-spread bits. */
function mix(h: number, seed: number): number {
  return fmix32(Math.imul(h ^ seed, 0x9e3779b1));
}

/** murmur3's finaliser (fmix32): every bit of `h` moves every bit of the result. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
