// The secrets in use (the API key, tokens) and their masking in any text svc writes. A hostile or
// careless service may echo a secret back: as it is, JSON-escaped (`svc\u005fsk_…`), percent-
// encoded, or broken by a line break or spaces. Each of those forms is masked as `svc_sk_live_…abcd`.
import { maskKey } from '../../config/keys.js';

/** Shorter values are not masked: they would blot out ordinary words. */
const MIN_SECRET_LENGTH = 8;
/** Line breaks and spaces inside a secret are only looked past once this much of it matched. */
const MIN_MATCHED_BEFORE_GAPS = 4;
/** How far back a write's end is searched for the start of a secret split across writes. */
const ENCODED_CHARS_PER_CHAR = 8;

const NO_MATCH = -1;
/** The text ends while it still reads like the secret: the rest may come with the next write. */
const PARTIAL = -2;

/** A secret, with a pattern of all its forms in a text and its masked form. */
interface Secret {
  value: string;
  pattern: RegExp;
  masked: string;
}

export class Secrets {
  /** Longest first, so a secret holding another is masked whole. */
  private secrets: Secret[] = [];

  /** Adds a secret to mask from now on; undefined, short or known values are ignored. */
  add(value: string | undefined): void {
    if (value === undefined || value.length < MIN_SECRET_LENGTH || this.secrets.some((s) => s.value === value)) return;
    const secret = { value, pattern: patternOf(value), masked: maskKey(value) };
    this.secrets = [...this.secrets, secret].sort((a, b) => b.value.length - a.value.length);
  }

  get size(): number {
    return this.secrets.length;
  }

  /** The text with every occurrence of every secret, in any of its forms, masked. */
  mask(text: string): string {
    let out = text;
    for (const { pattern, masked } of this.secrets) out = out.replace(pattern, () => masked);
    return out;
  }

  /**
   * Where the end of `text` starts to read like a secret that the next write may complete: the
   * index from which a writer holds the text back; `text.length` when nothing needs holding.
   */
  heldTailStart(text: string): number {
    let start = text.length;
    for (const { value } of this.secrets) {
      for (let i = Math.max(0, text.length - value.length * ENCODED_CHARS_PER_CHAR); i < start; i++) {
        if (matchAt(text, i, value) === PARTIAL) {
          start = i;
          break;
        }
      }
    }
    return start;
  }
}

/**
 * Every form of the value: each character as itself or escaped (`\u005f` with hex in either case,
 * `\/`, `%5F`), with spaces and line breaks (raw or escaped) allowed past its first characters.
 */
function patternOf(value: string): RegExp {
  const gap = '(?:[ \\t\\r\\n]|\\\\[nrt])*';
  const chars = [...value].map((c, j) => (j >= MIN_MATCHED_BEFORE_GAPS ? gap : '') + `(?:${charForms(c).join('|')})`);
  return new RegExp(chars.join(''), 'g');
}

function charForms(c: string): string[] {
  const code = c.charCodeAt(0);
  const hex = (digits: number) => [...code.toString(16).padStart(digits, '0')].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join('');
  const literal = c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
  const forms = [literal, '\\\\u' + hex(4)];
  if (code < 256) forms.push('%' + hex(2));
  if (c === '/' || c === '"' || c === '\\') forms.push('\\\\' + literal);
  return forms;
}

/** The end of the value read from `start` on, NO_MATCH, or PARTIAL when the text ends first. */
function matchAt(text: string, start: number, value: string): number {
  let i = start;
  for (let j = 0; j < value.length; j++) {
    if (j >= MIN_MATCHED_BEFORE_GAPS) i = skipGaps(text, i);
    if (i >= text.length) return PARTIAL;
    const used = encodedCharAt(text, i, value.charCodeAt(j));
    if (used === NO_MATCH || used === PARTIAL) return used;
    i += used;
  }
  return i;
}

/** Past spaces and line breaks, raw or JSON-escaped (`\n`, `\r`, `\t`). */
function skipGaps(text: string, from: number): number {
  let i = from;
  for (;;) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
    else if (c === '\\' && (text[i + 1] === 'n' || text[i + 1] === 'r' || text[i + 1] === 't')) i += 2;
    else return i;
  }
}

/**
 * How many characters of `text` at `i` spell the character `code`, as `patternOf` reads them;
 * NO_MATCH, or PARTIAL for an escape the text ends inside.
 */
function encodedCharAt(text: string, i: number, code: number): number {
  const c = text[i]!;
  if (c.charCodeAt(0) === code) return 1;
  if (c === '\\') {
    if (i + 1 >= text.length) return PARTIAL;
    const next = text[i + 1]!;
    if (next === 'u') return hexEscape(text, i + 2, 4, code, 6);
    return (next === '/' || next === '"' || next === '\\') && next.charCodeAt(0) === code ? 2 : NO_MATCH;
  }
  if (c === '%' && code < 256) return hexEscape(text, i + 1, 2, code, 3);
  return NO_MATCH;
}

function hexEscape(text: string, from: number, digits: number, code: number, length: number): number {
  const hex = text.slice(from, from + digits);
  if (!/^[0-9a-fA-F]*$/.test(hex)) return NO_MATCH;
  if (hex.length < digits) return PARTIAL;
  return parseInt(hex, 16) === code ? length : NO_MATCH;
}
