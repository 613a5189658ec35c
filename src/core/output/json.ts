// JSON output that keeps the reply exactly as received: the raw text is re-indented token by
// token, so numbers keep their digits (no float rounding) and keys keep their order.
import {
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COLON,
  COMMA,
  endOfScalar,
  endOfString,
  isSpace,
  nextSignificant,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
} from '../json/json-text.js';
import { terminalJson } from './format.js';

/**
 * Indentation grows with the square of the depth: past this size the raw text is printed instead.
 */
const MAX_INDENTED_LENGTH = 256 * 1024 * 1024;

/** Parts joined into one string at a time. */
const PARTS_A_CHUNK = 4096;

/**
 * Text made of a part for each token, joined a few thousand parts at a time: the list of every
 * part of a reply of 16 MiB of `1.10,` would take 27 times the reply.
 */
class Parts {
  private readonly chunks: string[] = [];
  private parts: string[] = [];

  push(text: string, ...more: string[]): void {
    this.parts.push(text, ...more);
    if (this.parts.length >= PARTS_A_CHUNK) {
      this.chunks.push(this.parts.join(''));
      this.parts = [];
    }
  }

  join(): string {
    this.chunks.push(this.parts.join(''));
    this.parts = [];
    return this.chunks.join('');
  }
}

/**
 * Re-indents valid JSON text with two spaces without parsing its values; undefined when the
 * indented text would be absurdly large (a reply nested 100,000 deep would make gigabytes).
 */
export function reindentJson(raw: string): string | undefined {
  const parts = new Parts();
  const indents: string[] = [];
  let length = 0;
  const newline = (depth: number) => {
    length += 1 + 2 * depth;
    return (indents[depth] ??= '\n' + '  '.repeat(depth));
  };
  const n = raw.length;
  let depth = 0;
  let i = 0;
  while (i < n) {
    const c = raw.charCodeAt(i);
    if (c === QUOTE) {
      const end = endOfString(raw, i);
      parts.push(raw.slice(i, end));
      i = end;
    } else if (isSpace(c)) {
      i++;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      const close = c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY;
      const next = nextSignificant(raw, i + 1);
      if (raw.charCodeAt(next) === close) {
        parts.push(c === OPEN_OBJECT ? '{}' : '[]');
        i = next + 1;
      } else {
        depth++;
        parts.push(raw[i]!, newline(depth));
        if (length > MAX_INDENTED_LENGTH) return undefined;
        i++;
      }
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
      parts.push(newline(depth), raw[i]!);
      i++;
    } else if (c === COMMA) {
      parts.push(',', newline(depth));
      i++;
    } else if (c === COLON) {
      parts.push(': ');
      i++;
    } else {
      // A number, true, false or null: copied as it is, up to the next structural character.
      const j = endOfScalar(raw, i);
      parts.push(raw.slice(i, j));
      i = j;
    }
  }
  return parts.join();
}

/**
 * The reply pretty-printed with two spaces, exactly as received. When the raw text is the compact
 * serialisation of its parsed value (the usual case), the built-in serialiser is exact and much
 * faster; otherwise the raw text is re-indented token by token. A reply too deep to indent is
 * given as received.
 */
export function prettyJson(raw: string, parsed: unknown): string {
  const trimmed = raw.trim();
  try {
    if (trimmed.length > 0 && JSON.stringify(parsed) === trimmed)
      return JSON.stringify(parsed, null, 2);
  } catch {
    // nested deeper than JSON.stringify can walk: the token-by-token path has no such limit
  }
  return reindentJson(raw) ?? trimmed;
}

/**
 * JSON as svc prints it: pretty (see prettyJson), one newline after. On a terminal the characters
 * that could rearrange it are escaped (terminalJson), and it is coloured unless colour is off.
 */
export function jsonOutput(
  raw: string,
  parsed: unknown,
  out: { terminal: boolean; color: boolean },
): string {
  const text = out.terminal ? terminalJson(prettyJson(raw, parsed)) : prettyJson(raw, parsed);
  return (out.color ? colorJson(text) : text) + '\n';
}

// Colours of JSON on a terminal, as gh's: bold delimiters, bold blue keys, green strings, cyan
// null, yellow true and false; numbers as they are.
const SGR = {
  delimiter: '\x1b[1;38m',
  key: '\x1b[1;34m',
  string: '\x1b[32m',
  null: '\x1b[36m',
  boolean: '\x1b[33m',
  reset: '\x1b[0m',
} as const;

/** JSON text with colours added around its tokens; the text itself is unchanged. */
export function colorJson(text: string): string {
  const parts = new Parts();
  const paint = (sgr: string, token: string) => parts.push(sgr, token, SGR.reset);
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = endOfString(text, i);
      const isKey = text.charCodeAt(nextSignificant(text, end)) === COLON;
      paint(isKey ? SGR.key : SGR.string, text.slice(i, end));
      i = end;
    } else if (
      c === OPEN_OBJECT ||
      c === CLOSE_OBJECT ||
      c === OPEN_ARRAY ||
      c === CLOSE_ARRAY ||
      c === COMMA ||
      c === COLON
    ) {
      paint(SGR.delimiter, text[i]!);
      i++;
    } else if (isSpace(c)) {
      let j = i + 1;
      while (j < n && isSpace(text.charCodeAt(j))) j++;
      parts.push(text.slice(i, j));
      i = j;
    } else {
      const j = endOfScalar(text, i);
      const word = text.slice(i, j);
      if (word === 'null') paint(SGR.null, word);
      else if (word === 'true' || word === 'false') paint(SGR.boolean, word);
      else parts.push(word);
      i = j;
    }
  }
  return parts.join();
}
