// Finds the forms of the secrets in one reading of a text: as written or decoded (decoding.ts),
// looking past gaps (gaps.ts) and, when asked, past escape sequences: a terminal shows
// `svc_sk_te<ESC>[0mst_…` as the key. One step a character (form-automaton.ts), each character
// read once, so the time grows with the text's length only; while nothing has begun to match, a
// character that cannot begin a form, an escape or a sequence is passed over with a look-up or two.
import { BACKSLASH, Decoder, type Escapes, PERCENT } from './decoding.js';
import { EscapeSequences } from './escape-sequences.js';
import type { FormAutomaton } from './form-automaton.js';
import { isGap } from './gaps.js';

/** Form `id` (the lowest of those found there) was read from `start` to `end` of the text. */
export type OnFound = (start: number, end: number, id: number) => void;

/**
 * A reading of a text: its escapes as written or decoded, and escape sequences kept or looked past.
 */
export interface Reading {
  escapes: 'as written' | Escapes;
  escapeSequences: boolean;
}

const ESC = 0x1b;

export class SecretSearch {
  private state = 0;
  /**
   * Where the last characters read (gaps aside) start in the text: a ring as long as the longest
   * form, or the text.
   */
  private starts = new Int32Array(0);
  private read = 0;
  /** Whether a gap came after the last character read. */
  private gapSinceLast = false;
  private readonly escapeSequences: EscapeSequences | undefined;
  /**
   * For each ASCII character, whether it may begin something while nothing matched: a form, an
   * escape, a sequence.
   */
  private readonly begins: Uint8Array;
  private readonly decoding: boolean;

  constructor(
    private readonly automaton: FormAutomaton,
    private readonly reading: Reading,
    private readonly onFound: OnFound = () => {},
  ) {
    this.escapeSequences = reading.escapeSequences ? new EscapeSequences() : undefined;
    this.decoding = reading.escapes !== 'as written';
    this.begins = automaton.beginsWith.slice();
    if (this.decoding) this.begins[BACKSLASH] = this.begins[PERCENT] = 1;
    if (reading.escapeSequences) this.begins[ESC] = 1;
  }

  /**
   * Reads `text`, the one text of this search. With `stopAtUnfinished`, a decoding reading stops
   * where the text ends inside an escape (`…\u00`) and returns its index; else the reading reaches
   * the end, and returns `text.length`.
   */
  search(text: string, stopAtUnfinished = false): number {
    const decoder =
      this.reading.escapes === 'as written' ? undefined : new Decoder(text, this.reading.escapes);
    // No more characters are read than the text has: a long secret needs no long ring for a short
    // write.
    let ring = 1;
    while (ring < Math.min(this.automaton.longest, text.length)) ring *= 2;
    this.starts = new Int32Array(ring);
    for (let i = 0; i < text.length;) {
      if (this.idle) {
        while (i < text.length && !this.mayBeginAt(text, i)) i++;
        if (i >= text.length) break;
      }
      let code: number;
      let length: number;
      const c = text.charCodeAt(i);
      if (decoder && (c === BACKSLASH || c === PERCENT)) {
        length = decoder.read(i);
        if (decoder.unfinished && stopAtUnfinished) return i;
        code = decoder.code;
      } else {
        code = text.codePointAt(i)!;
        length = code > 0xffff ? 2 : 1;
      }
      this.take(code, i, i + length);
      i += length;
    }
    return text.length;
  }

  /**
   * Where the text read ends in the beginning of a form, which more text may complete; `none`
   * when it does not. A gap at the very end counts only once `minBeforeGap` characters matched:
   * text ending "s\n" is an ordinary line, not a secret's start.
   */
  heldFrom(minBeforeGap: number, none: number): number {
    const matched = this.automaton.depth[this.state]!;
    if (matched === 0 || (this.gapSinceLast && matched < minBeforeGap)) return none;
    return this.startOf(matched);
  }

  /**
   * Whether something may begin at `i`, while nothing matched: an escape or a sequence, or a form:
   * its first character followed by its second, by a gap, by an escape, or by the end of the text.
   * Beyond ASCII, anything may (a gap, a C1 control, a character of a form).
   */
  private mayBeginAt(text: string, i: number): boolean {
    const c = text.charCodeAt(i);
    if (c >= 128) return true;
    if (this.begins[c] === 0) return false;
    if (this.automaton.beginsWith[c] === 0 || i + 1 >= text.length) return true;
    const next = text.charCodeAt(i + 1);
    if (next >= 128 || next <= 0x20 || next === 0x7f) return true;
    return (
      this.automaton.beginsWithPair[c * 128 + next] === 1 ||
      (this.decoding && (next === BACKSLASH || next === PERCENT))
    );
  }

  /**
   * Nothing has begun to match, outside any escape sequence: what begins nothing can be passed
   * over.
   */
  private get idle(): boolean {
    return this.automaton.depth[this.state] === 0 && this.escapeSequences?.inText !== false;
  }

  private take(code: number, start: number, end: number): void {
    // The escape parser sees every character: where a sequence ends depends on all of it.
    const inSequence = this.escapeSequences?.take(code) === true;
    if (inSequence || isGap(code)) {
      this.gapSinceLast = true;
      return;
    }
    this.gapSinceLast = false;
    this.starts[this.read & (this.starts.length - 1)] = start;
    this.read++;
    this.state = this.automaton.next(this.state, code);
    const found = this.automaton.found(this.state);
    if (found) this.onFound(this.startOf(found.length), end, found.id);
  }

  /** Where the last `count` characters read start. */
  private startOf(count: number): number {
    return this.starts[(this.read - count) & (this.starts.length - 1)]!;
  }
}
