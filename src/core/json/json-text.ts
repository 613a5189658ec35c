// Reading JSON text without parsing it: where its strings, numbers and other tokens end, so that
// a reply can be re-indented, coloured or cut into records with every token as received. The text
// is valid JSON (it was parsed first).

export const QUOTE = 34;
export const BACKSLASH = 92;
export const OPEN_OBJECT = 123;
export const CLOSE_OBJECT = 125;
export const OPEN_ARRAY = 91;
export const CLOSE_ARRAY = 93;
export const COMMA = 44;
export const COLON = 58;

export function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** The index just past the string that starts at `start`. */
export function endOfString(raw: string, start: number): number {
  let quote = raw.indexOf('"', start + 1);
  while (quote !== -1) {
    let backslashes = 0;
    while (raw.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    quote = raw.indexOf('"', quote + 1);
  }
  return raw.length;
}

/** The index just past the number, true, false or null that starts at `start`. */
export function endOfScalar(raw: string, start: number): number {
  let i = start + 1;
  while (i < raw.length) {
    const c = raw.charCodeAt(i);
    if (c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY || c === COLON || isSpace(c)) break;
    i++;
  }
  return i;
}

/** The index of the first character from `from` that is not white space. */
export function nextSignificant(raw: string, from: number): number {
  let i = from;
  while (i < raw.length && isSpace(raw.charCodeAt(i))) i++;
  return i;
}

/**
 * The index just past the value that starts at `start`: a string, a scalar, or an object or list
 * however deep.
 */
export function endOfValue(raw: string, start: number): number {
  const c = raw.charCodeAt(start);
  if (c === QUOTE) return endOfString(raw, start);
  if (c !== OPEN_OBJECT && c !== OPEN_ARRAY) return endOfScalar(raw, start);
  let depth = 0;
  let i = start;
  while (i < raw.length) {
    const d = raw.charCodeAt(i);
    if (d === QUOTE) {
      i = endOfString(raw, i);
      continue;
    }
    if (d === OPEN_OBJECT || d === OPEN_ARRAY) depth++;
    else if ((d === CLOSE_OBJECT || d === CLOSE_ARRAY) && --depth === 0) return i + 1;
    i++;
  }
  return raw.length;
}

/**
 * The text from `start` to `end` on one line: the white space between tokens removed, the tokens as
 * they are.
 */
export function compactText(raw: string, start: number, end: number): string {
  const parts: string[] = [];
  let from = start;
  let i = start;
  while (i < end) {
    const c = raw.charCodeAt(i);
    if (c === QUOTE) {
      i = endOfString(raw, i);
    } else if (isSpace(c)) {
      if (i > from) parts.push(raw.slice(from, i));
      i = nextSignificant(raw, i);
      from = i;
    } else {
      i++;
    }
  }
  if (from < end) parts.push(raw.slice(from, end));
  return parts.length === 1 ? parts[0]! : parts.join('');
}

/**
 * The members of the object that starts at `start`, in order: each key (parsed) and where its value
 * lies.
 */
export function* membersOf(
  raw: string,
  start: number,
): Generator<{ key: string; start: number; end: number }> {
  let i = nextSignificant(raw, start + 1);
  while (i < raw.length && raw.charCodeAt(i) !== CLOSE_OBJECT) {
    const keyEnd = endOfString(raw, i);
    // A key without escapes is its text; JSON.parse reads the others.
    const text = raw.slice(i + 1, keyEnd - 1);
    const key = text.includes('\\') ? (JSON.parse(raw.slice(i, keyEnd)) as string) : text;
    const valueStart = nextSignificant(raw, nextSignificant(raw, keyEnd) + 1);
    const valueEnd = endOfValue(raw, valueStart);
    yield { key, start: valueStart, end: valueEnd };
    i = nextSignificant(raw, valueEnd);
    if (raw.charCodeAt(i) === COMMA) i = nextSignificant(raw, i + 1);
  }
}

/** The items of the list that starts at `start`, in order: where each lies. */
export function* itemsOf(raw: string, start: number): Generator<{ start: number; end: number }> {
  let i = nextSignificant(raw, start + 1);
  while (i < raw.length && raw.charCodeAt(i) !== CLOSE_ARRAY) {
    const end = endOfValue(raw, i);
    yield { start: i, end };
    i = nextSignificant(raw, end);
    if (raw.charCodeAt(i) === COMMA) i = nextSignificant(raw, i + 1);
  }
}

/**
 * The members of the object at `start`, each key once: at its first place, with its last value, as
 * JSON.parse reads them.
 */
export function fieldsOf(raw: string, start: number): Map<string, { start: number; end: number }> {
  const fields = new Map<string, { start: number; end: number }>();
  for (const member of membersOf(raw, start))
    fields.set(member.key, { start: member.start, end: member.end });
  return fields;
}

/** Whether the value at `start` is an object or a list. */
export function isNested(raw: string, start: number): boolean {
  const c = raw.charCodeAt(start);
  return c === OPEN_OBJECT || c === OPEN_ARRAY;
}
