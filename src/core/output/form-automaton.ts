// One automaton that finds every form of every secret at once (Aho–Corasick): a text is read one
// character at a time, one step each, whatever the text; no input makes it go back. Its state
// says how much of a form the text read so far ends with, and which forms it just completed.

/** A string of code points to find, and its number: where several end at once, the lowest is told. */
export interface Pattern {
  readonly codes: readonly number[];
  readonly id: number;
}

const ROOT = 0;
/** The class of every character that is in no form: from any state it leads back to the root. */
const ELSEWHERE = 0;
const NO_PATTERN = 0x7fffffff;
const UNKNOWN = -1;

export class FormAutomaton {
  /** For each state, how many characters of a form it stands for. */
  readonly depth: Int32Array;
  /**
   * For each state, the length of the longest pattern the text read ends with there (0: none),
   * and the lowest number of the patterns that end there.
   */
  readonly foundLength: Int32Array;
  readonly foundId: Int32Array;
  readonly longest: number;
  /** For each ASCII character, whether a pattern begins with it; for each two (128 × first + second), whether a pattern begins with both. */
  readonly beginsWith = new Uint8Array(128);
  readonly beginsWithPair = new Uint8Array(128 * 128);
  /** The characters of the forms, numbered from 1: the columns of the table. */
  private readonly asciiClass = new Int32Array(128);
  private readonly otherClass = new Map<number, number>();
  private readonly classes: number;
  /** The trie of the forms: each state's children by character class. */
  private readonly children: Map<number, number>[];
  /** Where each state goes on from when its next character continues no form it began. */
  private readonly fallback: Int32Array;
  /** The next state, for each state and character class, once it was needed. */
  private readonly table: Int32Array;

  constructor(patterns: readonly Pattern[]) {
    let classes = 1;
    for (const { codes } of patterns) {
      for (const code of codes) if (this.classOf(code) === ELSEWHERE) this.setClass(code, classes++);
    }
    this.classes = classes;
    // The trie of the forms, each state with its children by class.
    const children = [new Map<number, number>()];
    const depth = [0];
    const ownLength = [0];
    const ownId = [NO_PATTERN];
    for (const { codes, id } of patterns) {
      const [first, second] = codes as [number, number];
      if (first < 128) this.beginsWith[first] = 1;
      if (first < 128 && second < 128) this.beginsWithPair[first * 128 + second] = 1;
      let state = ROOT;
      for (const code of codes) {
        const cls = this.classOf(code);
        let child = children[state]!.get(cls);
        if (child === undefined) {
          child = children.length;
          children.push(new Map());
          depth.push(depth[state]! + 1);
          ownLength.push(0);
          ownId.push(NO_PATTERN);
          children[state]!.set(cls, child);
        }
        state = child;
      }
      ownLength[state] = codes.length;
      ownId[state] = Math.min(ownId[state]!, id);
    }
    const states = children.length;
    this.children = children;
    this.depth = Int32Array.from(depth);
    this.longest = Math.max(0, ...depth);
    this.foundLength = new Int32Array(states);
    this.foundId = new Int32Array(states).fill(NO_PATTERN);
    this.fallback = new Int32Array(states);
    // Filled as the text asks: the few steps a text takes cost less than the whole table.
    this.table = new Int32Array(states * classes).fill(UNKNOWN);
    // Breadth first: a state's fallback (the longest proper suffix of it that is also a state) is
    // nearer the root, so its findings are complete when they are needed.
    const queue = [ROOT];
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      const back = this.fallback[state]!;
      if (state !== ROOT) {
        this.foundLength[state] = Math.max(ownLength[state]!, this.foundLength[back]!);
        this.foundId[state] = Math.min(ownId[state]!, this.foundId[back]!);
      }
      for (const [cls, child] of children[state]!) {
        this.fallback[child] = state === ROOT ? ROOT : this.nextByClass(back, cls);
        queue.push(child);
      }
    }
  }

  /** The state after reading `code` in `state`. */
  next(state: number, code: number): number {
    return this.nextByClass(state, this.classOf(code));
  }

  private nextByClass(state: number, cls: number): number {
    const at = state * this.classes + cls;
    let next = this.table[at]!;
    if (next === UNKNOWN) {
      next = this.children[state]!.get(cls) ?? (state === ROOT ? ROOT : this.nextByClass(this.fallback[state]!, cls));
      this.table[at] = next;
    }
    return next;
  }

  private classOf(code: number): number {
    return code < 128 ? this.asciiClass[code]! : (this.otherClass.get(code) ?? ELSEWHERE);
  }

  private setClass(code: number, cls: number): void {
    if (code < 128) this.asciiClass[code] = cls;
    else this.otherClass.set(code, cls);
  }
}
