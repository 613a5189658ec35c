// One automaton that finds every form of every secret at once (Aho–Corasick): a text is read one
// character at a time, no input makes it go back, and each step back along the fallbacks was paid
// for by a step forward. Its state says how much of a form the text read so far ends with, and
// which forms it just completed. It takes a few bytes a character of the forms, so a secret of any
// length can be read for: the states of a form are numbered one after another, so a state's child
// is the next number but where forms part ways, and only those children are written down.

/**
 * A string of code points to find, and its number: where several end at once, the lowest is told.
 */
export interface Pattern {
  readonly codes: readonly number[];
  readonly id: number;
}

/**
 * What a state completes: the longest form the text read ends with there, and the lowest number of
 * those that end there.
 */
export interface Found {
  length: number;
  id: number;
}

const ROOT = 0;
/** The class of every character that is in no form: from any state it leads back to the root. */
const ELSEWHERE = 0;
const NONE = -1;
/**
 * Steps (state × character class) kept once taken, for the first states: the forms of an ordinary
 * key fit many times over.
 */
const TABLE_SIZE = 1 << 20;

export class FormAutomaton {
  /** For each state, how many characters of a form it stands for. */
  readonly depth: Int32Array;
  readonly longest: number;
  /**
   * For each ASCII character, whether a pattern begins with it; for each two (128 × first +
   * second), whether a pattern begins with both.
   */
  readonly beginsWith = new Uint8Array(128);
  readonly beginsWithPair = new Uint8Array(128 * 128);
  /** The characters of the forms, numbered from 1. */
  private readonly asciiClass = new Int32Array(128);
  private readonly otherClass = new Map<number, number>();
  private readonly classes: number;
  /**
   * For each state, the class of the character that leads to the next state in number (ELSEWHERE:
   * none).
   */
  private readonly chainClass: Int32Array;
  /** The other children, by `state × classes + class`: the root's, and where forms part ways. */
  private readonly branches = new Map<number, number>();
  /** Where each state goes on from when its next character continues no form it began. */
  private readonly fallback: Int32Array;
  /** Whether a form ends at each state; which, in `foundAt`. */
  private readonly completes: Uint8Array;
  private readonly foundAt = new Map<number, Found>();
  /** The next state of each of the first states, by character class, once it was needed. */
  private readonly table: Int32Array;
  private readonly tableStates: number;

  constructor(patterns: readonly Pattern[]) {
    let classes = 1;
    let bound = 1;
    for (const { codes } of patterns) {
      bound += codes.length;
      for (const code of codes)
        if (this.classOf(code) === ELSEWHERE) this.setClass(code, classes++);
    }
    this.classes = classes;
    // The trie of the forms.
    const depth = new Int32Array(bound);
    const chainClass = new Int32Array(bound);
    /**
     * For each state that a branch leads to, its parent and class; a chain state's are the state
     * before it and its chain class.
     */
    const branchedFrom = new Map<number, { parent: number; cls: number }>();
    const ownFound = new Map<number, Found>();
    this.chainClass = chainClass;
    let states = 1;
    for (const { codes, id } of patterns) {
      const [first, second] = codes as [number, number];
      if (first < 128) this.beginsWith[first] = 1;
      if (first < 128 && second < 128) this.beginsWithPair[first * 128 + second] = 1;
      let state = ROOT;
      for (const code of codes) {
        const cls = this.classOf(code);
        let child = this.child(state, cls);
        if (child === NONE) {
          child = states++;
          depth[child] = depth[state]! + 1;
          if (child === state + 1) chainClass[state] = cls;
          else {
            this.branches.set(state * classes + cls, child);
            branchedFrom.set(child, { parent: state, cls });
          }
        }
        state = child;
      }
      ownFound.set(state, better(ownFound.get(state), { length: codes.length, id })!);
    }
    this.depth = depth.subarray(0, states);
    let longest = 0;
    for (const d of this.depth) longest = Math.max(longest, d);
    this.longest = longest;
    this.fallback = new Int32Array(states);
    this.completes = new Uint8Array(states);
    this.tableStates = Math.min(states, Math.floor(TABLE_SIZE / classes));
    // Filled as the text asks: the few steps a text takes cost less than the whole table.
    this.table = new Int32Array(this.tableStates * classes).fill(NONE);
    // By depth: a state's fallback (the longest proper suffix of it that is also a state) is
    // nearer the root, so its own fallback and findings are known when it is needed.
    for (const state of byDepth(this.depth, longest)) {
      const { parent, cls } = branchedFrom.get(state) ?? {
        parent: state - 1,
        cls: chainClass[state - 1]!,
      };
      const back = parent === ROOT ? ROOT : this.step(this.fallback[parent]!, cls);
      this.fallback[state] = back;
      const found = better(ownFound.get(state), this.found(back));
      if (found) {
        this.completes[state] = 1;
        this.foundAt.set(state, found);
      }
    }
  }

  /** The state after reading `code` in `state`. */
  next(state: number, code: number): number {
    return this.step(state, this.classOf(code));
  }

  /** What the text read completes when it reaches `state`. */
  found(state: number): Found | undefined {
    return this.completes[state] === 0 ? undefined : this.foundAt.get(state);
  }

  private step(state: number, cls: number): number {
    if (cls === ELSEWHERE) return ROOT;
    const at = state * this.classes + cls;
    const kept = state < this.tableStates;
    if (kept && this.table[at] !== NONE) return this.table[at]!;
    let from = state;
    let next = this.child(from, cls);
    while (next === NONE && from !== ROOT) {
      from = this.fallback[from]!;
      next = this.child(from, cls);
    }
    if (next === NONE) next = ROOT;
    if (kept) this.table[at] = next;
    return next;
  }

  private child(state: number, cls: number): number {
    if (this.chainClass[state] === cls) return state + 1;
    return this.branches.get(state * this.classes + cls) ?? NONE;
  }

  private classOf(code: number): number {
    return code < 128 ? this.asciiClass[code]! : (this.otherClass.get(code) ?? ELSEWHERE);
  }

  private setClass(code: number, cls: number): void {
    if (code < 128) this.asciiClass[code] = cls;
    else this.otherClass.set(code, cls);
  }
}

/** The longer of two findings, with the lower number of the two. */
function better(a: Found | undefined, b: Found | undefined): Found | undefined {
  if (!a || !b) return a ?? b;
  return { length: Math.max(a.length, b.length), id: Math.min(a.id, b.id) };
}

/** The states but the root, shallowest first. */
function byDepth(depth: Int32Array, longest: number): Int32Array {
  const starts = new Int32Array(longest + 2);
  for (const d of depth) starts[d + 1]!++;
  for (let d = 1; d <= longest + 1; d++) starts[d]! += starts[d - 1]!;
  const order = new Int32Array(depth.length);
  for (let state = 0; state < depth.length; state++) order[starts[depth[state]!]!++] = state;
  return order.subarray(1);
}
