// The secrets in use (the API key, tokens) and their masking in any text svc writes. A hostile or
// careless service may echo a secret back in any form a reader could still read it from. The one
// rule: a secret is masked wherever a reading of the text spells it out once gaps are looked past
// (spaces, line breaks, controls, characters that show nothing such as U+200B: gaps.ts). The
// readings: the text as written, and with JSON escapes and percent-encoding undone
// (`svc\u005fsk_…`, `%5F`: decoding.ts); each of them also past terminal escape sequences
// (`ESC[0m`, as a terminal shows it: escape-sequences.ts). What is read for: the key, its secret
// without the prefix, and the base64 and hex of that secret (secret-forms.ts). The key is masked by
// its forms (KeyForms: its prefix and `…abcd`), the other forms as `…abcd`. Each reading is one
// pass over the text, one step a character (secret-search.ts): the time grows with the text's
// length only.
import { FormAutomaton } from './form-automaton.js';
import { isGap } from './gaps.js';
import { type Form, formsOf } from './secret-forms.js';
import { type OnFound, type Reading, SecretSearch } from './secret-search.js';

/**
 * How keys are written: what of a key is secret, and how it is shown masked. The service's forms
 * are service/keys.ts KEY_FORMS; without them, all of a value is secret, shown as `…abcd`.
 */
export interface KeyForms {
  secretOf(key: string): string;
  mask(key: string): string;
}

const PLAIN: KeyForms = {
  secretOf: (key) => key,
  mask: (key) => `…${key.length >= 12 ? key.slice(-4) : ''}`,
};

/** Shorter values are not masked: they would blot out ordinary words. */
const MIN_SECRET_LENGTH = 8;
/**
 * A write that ends in gaps is held back for the next only once this much of a secret matched
 * before them.
 */
const MIN_MATCHED_BEFORE_GAPS = 4;
/**
 * How far back a write's end is read for the start of a secret split across writes, in text
 * characters per character of the longest form: room for escapes and gaps between them.
 */
const HELD_CHARS_PER_CHAR = 16;

const READINGS: readonly Reading[] = (['as written', 'strict', 'nested'] as const).flatMap(
  (escapes) => [false, true].map((escapeSequences) => ({ escapes, escapeSequences })),
);

/** What a text holds that makes a reading other than as written, without sequences, find more. */
interface TextHolds {
  escapes: boolean;
  nestedEscapes: boolean;
  escapeSequences: boolean;
  escapedEscapeSequences: boolean;
}

function mayFindMore({ escapes, escapeSequences }: Reading, holds: TextHolds): boolean {
  if (escapes === 'as written') return !escapeSequences || holds.escapeSequences;
  if (escapes === 'nested' && !holds.nestedEscapes) return false;
  return (
    holds.escapes && (!escapeSequences || holds.escapeSequences || holds.escapedEscapeSequences)
  );
}

/** ESC, and the C1 controls. */
const ESCAPE_SEQUENCE_STARTS = /[\u001b\u0080-\u009f]/;
/**
 * ESC or a C1 control as a JSON escape (nested too) or percent-encoded (as a byte, or in UTF-8).
 */
const ESCAPED_ESCAPE_SEQUENCE_STARTS =
  /\\u00(?:1[bB]|[89][0-9a-fA-F])|%(?:1[bB]|[cC]2%[89][0-9a-fA-F]|[89][0-9a-fA-F])/;
/**
 * A character that may hide a form in plain sight, or spell one: any but printable ASCII, tabs
 * and line breaks, or a backslash or percent sign, which begin an escape. Beyond ASCII, only a gap
 * (gaps.ts) may: a character that shows (a dash, a letter of another script) breaks a form as
 * any other does, and is found by the prefilter where it is one of a form's own.
 */
const MAY_HIDE = /[^\t\n\r\x20-\x24\x26-\x5b\x5d-\x7e]/g;

function mayHide(text: string): boolean {
  MAY_HIDE.lastIndex = 0;
  for (let found = MAY_HIDE.exec(text); found; found = MAY_HIDE.exec(text)) {
    const code = text.codePointAt(found.index)!;
    if (code < 0x80 || isGap(code)) return true;
  }
  return false;
}
/**
 * How many first characters of each form a plain text is first looked through for (the hex of a
 * secret of digits is digits).
 */
const PREFILTER_LENGTH = 8;

interface Secret {
  value: string;
  /**
   * Its forms, each with what it is masked as: the key as `svc_sk_live_…abcd`, the rest as `…abcd`.
   */
  forms: { codes: Form; masked: string }[];
}

/**
 * What the search needs of the secrets: made when first needed after a secret was added. The
 * automaton takes most of the making (about 0.7 ms at a start): it is made only for a text that
 * neither the prefilter nor `endsClearOfForms` clears, and they clear most output.
 */
interface Searching {
  /** The forms, numbered by preference (see `search`). */
  forms: { codes: Form; masked: string }[];
  automaton?: FormAutomaton;
  /** By the automaton's pattern number: what each form is masked as. */
  masked: string[];
  shortestForm: number;
  longestForm: number;
  /** The first characters of any form, with white space between them: see `mask`. */
  prefilter: RegExp;
  /** Every character of every form. */
  formCharacters: Set<number>;
}

export class Secrets {
  /** Longest first, so a secret holding another is masked whole. */
  private secrets: Secret[] = [];
  private searching: Searching | undefined;

  constructor(private readonly keys: KeyForms = PLAIN) {}

  /** Adds a secret to mask from now on; undefined, short or known values are ignored. */
  add(value: string | undefined): void {
    if (
      value === undefined ||
      value.length < MIN_SECRET_LENGTH ||
      this.secrets.some((s) => s.value === value)
    )
      return;
    const secret = this.keys.secretOf(value);
    const forms = formsOf(value, secret, MIN_SECRET_LENGTH);
    // Little more than gaps: what is left would blot out ordinary words.
    if (!forms) return;
    const masked = [
      { codes: forms.itself, masked: this.keys.mask(value) },
      ...forms.secret.map((codes) => ({ codes, masked: this.keys.mask(secret) })),
    ];
    this.secrets = [...this.secrets, { value, forms: masked }].sort(
      (a, b) => b.value.length - a.value.length,
    );
    this.searching = undefined;
  }

  get size(): number {
    return this.secrets.length;
  }

  /** The text with every occurrence of every secret, in any of its forms and readings, masked. */
  mask(text: string): string {
    if (this.secrets.length === 0) return text;
    const { shortestForm, prefilter, masked } = this.search();
    // A form takes at least one character of the text for each of its own.
    if (text.length < shortestForm) return text;
    // Plain text (printable ASCII and line breaks, no escape) holds a form only as written, broken
    // by white space at most, so it holds its first characters so: the engine's own search finds
    // those much faster than reading the text a character at a time. Most output stops here.
    if (!mayHide(text) && !prefilter.test(text)) return text;
    const spans = new MaskedSpans(text.length);
    this.read(text, (start, end, id) => spans.add(start, end, id));
    return spans.applyTo(text, (id) => masked[id]!);
  }

  /**
   * Where the end of `text` starts to read like a secret that the next write may complete: the
   * index from which a writer holds the text back; `text.length` when nothing needs holding.
   */
  heldTailStart(text: string): number {
    if (this.secrets.length === 0) return text.length;
    const { longestForm, formCharacters } = this.search();
    const from = Math.max(0, text.length - longestForm * HELD_CHARS_PER_CHAR);
    const tail = text.slice(from);
    if (endsClearOfForms(tail, formCharacters)) return text.length;
    const { searches, unfinishedFrom } = this.read(tail);
    return (
      from +
      Math.min(
        unfinishedFrom,
        ...searches.map((search) => search.heldFrom(MIN_MATCHED_BEFORE_GAPS, tail.length)),
      )
    );
  }

  private search(): Searching {
    if (!this.searching) {
      // Numbered by preference, where found forms overlap: the longest secret first (it may hold a
      // shorter one), and of each the key itself first (its secret alone is found inside it).
      const forms = this.secrets.flatMap((secret) => secret.forms);
      this.searching = {
        forms,
        masked: forms.map((form) => form.masked),
        shortestForm: Math.min(...forms.map(({ codes }) => codes.length)),
        longestForm: Math.max(...forms.map(({ codes }) => codes.length)),
        prefilter: new RegExp(
          [...new Set(forms.map(({ codes }) => prefilterOf(codes)))].join('|'),
          'u',
        ),
        formCharacters: new Set(forms.flatMap(({ codes }) => codes)),
      };
    }
    return this.searching;
  }

  private automaton(): FormAutomaton {
    const searching = this.search();
    searching.automaton ??= new FormAutomaton(
      searching.forms.map(({ codes }, id) => ({ codes, id })),
    );
    return searching.automaton;
  }

  /**
   * Reads `text` in each of its readings that may find more than reading it as written.
   * `unfinishedFrom`: where the text ends inside an escape (`…\u00`), when reading for the held
   * tail, which has no `onFound`.
   */
  private read(
    text: string,
    onFound?: OnFound,
  ): { searches: SecretSearch[]; unfinishedFrom: number } {
    const automaton = this.automaton();
    const escapes = text.includes('\\') || text.includes('%');
    const holds = {
      escapes,
      nestedEscapes: text.includes('\\\\'),
      escapeSequences: ESCAPE_SEQUENCE_STARTS.test(text),
      escapedEscapeSequences: escapes && ESCAPED_ESCAPE_SEQUENCE_STARTS.test(text),
    };
    const searches: SecretSearch[] = [];
    let unfinishedFrom = text.length;
    for (const reading of READINGS) {
      if (!mayFindMore(reading, holds)) continue;
      const search = new SecretSearch(automaton, reading, onFound);
      unfinishedFrom = Math.min(unfinishedFrom, search.search(text, onFound === undefined));
      searches.push(search);
    }
    return { searches, unfinishedFrom };
  }
}

/**
 * The characters that may end an escape (JSON's `\\n`, `\\u0041`, `%41`) whose character, read
 * through it, could be a gap or a form's own.
 */
const ESCAPE_ENDS = new Set([...'\\%"/bfnrtu0123456789abcdefABCDEF'].map((c) => c.charCodeAt(0)));

/**
 * Whether no reading of `text` can end inside a form, so that a writer holds nothing back. Never
 * where an escape sequence (or an escaped one) starts in it. Where it holds an escape, its last
 * character that is no gap must be printable ASCII, in no form, and able to end no escape. Where it
 * holds none, only the text as written is read, and what a next write could continue is the run of
 * form characters (and gaps) it ends with: none, or fewer than MIN_MATCHED_BEFORE_GAPS followed by
 * a gap. JSON ends with `}`, and `svc version` with `0.1.0` and a line break: both are cleared here
 * without the automaton.
 */
export function endsClearOfForms(text: string, formCharacters: ReadonlySet<number>): boolean {
  if (ESCAPE_SEQUENCE_STARTS.test(text) || ESCAPED_ESCAPE_SEQUENCE_STARTS.test(text)) return false;
  let last = text.length - 1;
  while (last >= 0 && isGap(text.charCodeAt(last))) last--;
  if (last < 0) return true;
  const code = text.charCodeAt(last);
  if (code >= 0x7f) return false;
  if (text.includes('\\') || text.includes('%'))
    return !formCharacters.has(code) && !ESCAPE_ENDS.has(code);
  let run = 0;
  for (let i = last; i >= 0 && run < MIN_MATCHED_BEFORE_GAPS; i--) {
    const c = text.charCodeAt(i);
    if (formCharacters.has(c)) run++;
    else if (c >= 0x7f && !isGap(c)) return false;
    else if (!isGap(c)) break;
  }
  return run === 0 || (last < text.length - 1 && run < MIN_MATCHED_BEFORE_GAPS);
}

/**
 * A regular expression for the first characters of a form with white space between them (no
 * nesting: it cannot backtrack far).
 */
function prefilterOf(codes: Form): string {
  return codes
    .slice(0, PREFILTER_LENGTH)
    .map((code) => `\\u{${code.toString(16)}}`)
    .join('[\\t\\n\\r ]*');
}

/**
 * The spans of a text that hold a form of a secret. Spans that overlap are masked as one, as the
 * form of lowest number among them; spans that only touch stay apart.
 */
class MaskedSpans {
  /** For each index, the furthest end of a span that starts there (0: none), and its form. */
  private ends: Int32Array | undefined;
  private forms: Int32Array | undefined;

  constructor(private readonly length: number) {}

  add(start: number, end: number, form: number): void {
    this.ends ??= new Int32Array(this.length);
    this.forms ??= new Int32Array(this.length);
    if (this.ends[start] === 0 || form < this.forms[start]!) this.forms[start] = form;
    this.ends[start] = Math.max(this.ends[start]!, end);
  }

  applyTo(text: string, maskedOf: (form: number) => string): string {
    const { ends, forms } = this;
    if (!ends || !forms) return text;
    const pieces: string[] = [];
    let copiedTo = 0;
    let span: { start: number; end: number; form: number } | undefined;
    const close = () => {
      if (!span) return;
      pieces.push(text.slice(copiedTo, span.start), maskedOf(span.form));
      copiedTo = span.end;
    };
    for (let start = 0; start < this.length; start++) {
      const end = ends[start]!;
      if (end === 0) continue;
      if (span && start < span.end) {
        span.end = Math.max(span.end, end);
        span.form = Math.min(span.form, forms[start]!);
        continue;
      }
      close();
      span = { start, end, form: forms[start]! };
    }
    close();
    pieces.push(text.slice(copiedTo));
    return pieces.join('');
  }
}
