// Writing values read from a reply back as JSON with every number as received: JSON.stringify
// with an ExactNumber (exact-number.ts) written as its text. A value that holds none is written
// by JSON.stringify itself, at its full speed; the others by a writer whose layout is
// JSON.stringify's.
import { ExactNumber, exactNumbersMade } from './exact-number.js';

/** As JSON.stringify(value, null, space), an ExactNumber written as its text. */
export function stringifyExact(value: unknown, space = 0): string | undefined {
  // Most runs read no such number: their values are not walked at all.
  if (!exactNumbersMade() || !holdsExactNumber(value)) return JSON.stringify(value, null, space);
  const parts: string[] = [];
  return write(value, '', parts, space > 0 ? ' '.repeat(space) : '', '')
    ? parts.join('')
    : undefined;
}

/** True when the value holds an ExactNumber, however deep (a walk without recursion). */
export function holdsExactNumber(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === null || typeof next !== 'object') continue;
    if (next instanceof ExactNumber) return true;
    if (Array.isArray(next)) for (const item of next) pending.push(item);
    else
      for (const key in next)
        if (Object.hasOwn(next, key)) pending.push((next as Record<string, unknown>)[key]);
  }
  return false;
}

/** Writes `value` into `parts`; false when it has no JSON text (undefined, a function). */
function write(
  value: unknown,
  key: string,
  parts: string[],
  step: string,
  indent: string,
): boolean {
  if (
    value !== null &&
    typeof value === 'object' &&
    !(value instanceof ExactNumber) &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  ) {
    value = (value as { toJSON: (key: string) => unknown }).toJSON(key);
  }
  if (value instanceof ExactNumber) {
    parts.push(value.text);
    return true;
  }
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    if (text === undefined) return false;
    parts.push(text);
    return true;
  }
  const inner = indent + step;
  const newline = step ? '\n' + inner : '';
  if (Array.isArray(value)) {
    if (value.length === 0) {
      parts.push('[]');
      return true;
    }
    parts.push('[');
    for (let i = 0; i < value.length; i++) {
      parts.push(i > 0 ? ',' + newline : newline);
      if (!write(value[i], String(i), parts, step, inner)) parts.push('null');
    }
    parts.push(step ? '\n' + indent + ']' : ']');
    return true;
  }
  const record = value as Record<string, unknown>;
  let written = 0;
  parts.push('{');
  for (const name of Object.keys(record)) {
    const at = parts.length;
    parts.push(written > 0 ? ',' + newline : newline, JSON.stringify(name), step ? ': ' : ':');
    if (write(record[name], name, parts, step, inner)) written++;
    else parts.length = at;
  }
  if (written === 0) {
    parts[parts.length - 1] = '{}';
    return true;
  }
  parts.push(step ? '\n' + indent + '}' : '}');
  return true;
}
