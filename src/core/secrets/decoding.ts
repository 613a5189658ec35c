// Text decoded as a reader of JSON or of an address would read it: `\u005f`, `\/`, `\n`, `%5F`,
// `%E2%80%8B` each one character. JSON kept in a JSON string has its escapes escaped again
// (`\\u005f`), yet `\\n` may as well be a backslash and an n: so escapes are read either strictly
// or nested, each way in a reading of its own. A character is read at a time, at any index the
// reader asks for; no escape is longer than 12 characters, but for a run of backslashes (nested),
// which is read as one character: no character is read twice.

/**
 * How escapes are read: strictly (`\\` is one backslash), or nested (any run of backslashes begins
 * the escape after it).
 */
export type Escapes = 'strict' | 'nested';

export const BACKSLASH = 0x5c;
export const PERCENT = 0x25;

/** Reads one character at a time: `code` is the last one read. */
export class Decoder {
  code = 0;
  /**
   * The text ends inside the escape last read, which was read as written instead: more text may
   * complete it.
   */
  unfinished = false;

  private readonly nested: boolean;

  constructor(
    private readonly text: string,
    escapes: Escapes,
  ) {
    this.nested = escapes === 'nested';
  }

  /** The length of the character at `i`: an escape, or a code point as written. */
  read(i: number): number {
    this.unfinished = false;
    const c = this.text.charCodeAt(i);
    if (c !== BACKSLASH && c !== PERCENT) return this.asWritten(i);
    const length = c === BACKSLASH ? this.jsonEscape(i) : this.percentEncoded(i);
    if (length !== UNFINISHED) return length;
    this.unfinished = true;
    // Read as written meanwhile; nested, a run of backslashes as one (so it is read once, however
    // long).
    return c === BACKSLASH && this.nested
      ? this.backslashes(i, this.endOfBackslashes(i))
      : this.asWritten(i);
  }

  private asWritten(i: number): number {
    this.code = this.text.codePointAt(i)!;
    return this.code > 0xffff ? 2 : 1;
  }

  /**
   * `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\uXXXX` (a surrogate pair as two, the low one
   * raw or escaped); nested, after any number of backslashes. Else the backslash as written, or
   * nested, the run of backslashes as one.
   */
  private jsonEscape(i: number): number {
    const letter = this.nested ? this.endOfBackslashes(i) : i + 1;
    if (letter >= this.text.length) return UNFINISHED;
    const simple = simpleEscape(this.text.charCodeAt(letter));
    if (simple !== undefined) {
      this.code = simple;
      return letter + 1 - i;
    }
    const unit = this.text[letter] === 'u' ? this.hexAt(letter + 1, 4) : NOT_HEX;
    if (unit === UNFINISHED) return UNFINISHED;
    if (unit === NOT_HEX) return this.nested ? this.backslashes(i, letter) : this.asWritten(i);
    this.code = unit;
    const end = letter + 5;
    if (!isHighSurrogate(unit)) return end - i;
    // The low surrogate: raw, or escaped as the high one was.
    const escapedLow = this.text.charCodeAt(end) === BACKSLASH;
    const lowLetter = !escapedLow ? end : this.nested ? this.endOfBackslashes(end) : end + 1;
    const low = !escapedLow
      ? this.text.charCodeAt(end)
      : this.text[lowLetter] === 'u'
        ? this.hexAt(lowLetter + 1, 4)
        : NOT_HEX;
    if (!isLowSurrogate(low)) return end - i;
    this.code = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
    return (escapedLow ? lowLetter + 5 : end + 1) - i;
  }

  private endOfBackslashes(i: number): number {
    let j = i;
    while (this.text.charCodeAt(j) === BACKSLASH) j++;
    return j;
  }

  /** A run of backslashes, read as one (nested). */
  private backslashes(i: number, end: number): number {
    this.code = BACKSLASH;
    return end - i;
  }

  /** `%XX`, and a UTF-8 sequence of them as one character; else the percent sign itself. */
  private percentEncoded(i: number): number {
    const lead = this.hexAt(i + 1, 2);
    if (lead === UNFINISHED) return UNFINISHED;
    if (lead === NOT_HEX) return this.asWritten(i);
    const continuations = utf8Continuations(lead);
    if (continuations === 0) return this.single(lead);
    let code = lead & (0x3f >> continuations);
    for (let k = 1; k <= continuations; k++) {
      const at = i + 3 * k;
      if (at >= this.text.length) return UNFINISHED;
      const byte = this.text[at] === '%' ? this.hexAt(at + 1, 2) : NOT_HEX;
      if (byte === UNFINISHED) return UNFINISHED;
      // Not UTF-8 after all: the byte alone, read as the character of that number (as %5F is `_`).
      if (byte < 0x80 || byte > 0xbf) return this.single(lead);
      code = (code << 6) | (byte & 0x3f);
    }
    if (code > 0x10ffff) return this.single(lead);
    this.code = code;
    return 3 * (continuations + 1);
  }

  private single(byte: number): number {
    this.code = byte;
    return 3;
  }

  /** The number written in `digits` hex digits at `at`; UNFINISHED when the text ends first. */
  private hexAt(at: number, digits: number): number {
    let value = 0;
    for (let k = 0; k < digits; k++) {
      if (at + k >= this.text.length) return UNFINISHED;
      const digit = hexDigit(this.text.charCodeAt(at + k));
      if (digit === NOT_HEX) return NOT_HEX;
      value = value * 16 + digit;
    }
    return value;
  }
}

/** The text ends inside an escape that more text may complete. */
const UNFINISHED = -1;
/** Not a hex digit where one was expected: no escape after all. */
const NOT_HEX = -2;

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : NOT_HEX;
}

/** The character a one-letter JSON escape stands for (`n` for a line break …). */
function simpleEscape(c: number): number | undefined {
  switch (c) {
    case 0x22: // "
    case 0x5c: // backslash
    case 0x2f: // /
      return c;
    case 0x62: // b
      return 0x08;
    case 0x66: // f
      return 0x0c;
    case 0x6e: // n
      return 0x0a;
    case 0x72: // r
      return 0x0d;
    case 0x74: // t
      return 0x09;
    default:
      return undefined;
  }
}

/** How many continuation bytes a UTF-8 lead byte announces; 0 for a byte that leads nothing. */
function utf8Continuations(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 1;
  if (lead >= 0xe0 && lead <= 0xef) return 2;
  if (lead >= 0xf0 && lead <= 0xf4) return 3;
  return 0;
}

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;
