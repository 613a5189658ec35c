// A number of a reply that JSON.parse would not give back as written: 125000.50 (125000.5),
// 12345678901234567890 (…567000), 1e400 (Infinity), -0 (0). The lossless reader (exact-json.ts)
// keeps such a number as its text, so that what a script is shown (a pipe's table, CSV, NDJSON,
// a merged reply) is the service's own value, every digit kept. Every other number stays a number.

/** Until the first ExactNumber is made, no value can hold one: writers skip looking. */
let anyMade = false;

/** True once an ExactNumber has been made in this process. */
export function exactNumbersMade(): boolean {
  return anyMade;
}

/** Never changed once made: one stands in every place a reply repeats its text (exact-json.ts). */
export class ExactNumber {
  // Private: a walk over an object's own keys finds none here, so it is never read as a record.
  readonly #text: string;

  /** `text` is a JSON number, as the reply wrote it. */
  constructor(text: string) {
    this.#text = text;
    anyMade = true;
  }

  /** The number as the reply wrote it. */
  get text(): string {
    return this.#text;
  }

  /** The nearest double (1e400: Infinity), for arithmetic and comparisons. */
  valueOf(): number {
    return Number(this.#text);
  }

  toString(): string {
    return this.#text;
  }

  /** Code that knows nothing of exactness writes the double, as it would have from JSON.parse. */
  toJSON(): number | null {
    const value = this.valueOf();
    return Number.isFinite(value) ? value : null;
  }
}

/**
 * True for a JSON number text that JSON.parse gives back exactly: `String(Number(text)) === text`.
 */
export function readsBackAsWritten(text: string): boolean {
  return String(Number(text)) === text;
}
