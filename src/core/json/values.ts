// JSON values as a program reads them: an object or not, a text, a number, the fields
// left over once the known ones are read.
import { ExactNumber } from './exact-number.js';

export type JsonRecord = Record<string, unknown>;

/** An object of a reply: not a list, nor a number kept as written (ExactNumber). */
export function isRecord(value: unknown): value is JsonRecord {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof ExactNumber)
  );
}

/** The first of `names` that the object holds with a value other than null; undefined otherwise. */
export function pick(from: unknown, ...names: string[]): unknown {
  if (!isRecord(from)) return undefined;
  for (const name of names) {
    const value = from[name];
    if (value !== undefined && value !== null) return value;
  }
  return undefined;
}

/** A value as text: strings as they are, numbers (as received) and booleans written out; anything else absent. */
export function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value instanceof ExactNumber) return value.text;
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean')
    return String(value);
  return undefined;
}

/** A finite number, or a string that writes one ("12450.30"); anything else absent. */
export function numberOf(value: unknown): number | undefined {
  if (value instanceof ExactNumber) value = value.valueOf();
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

export function booleanOf(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

/**
 * The fields of an object other than the named ones: what a designed view leaves to the generic
 * one. Without a prototype, so that a field named `__proto__` is kept like any other. A value that
 * is no object at all (a list where an object was documented) is left over whole, as `value`.
 */
export function otherFields(from: unknown, known: readonly string[]): JsonRecord {
  const rest = Object.create(null) as JsonRecord;
  if (from === undefined || from === null) return rest;
  if (!isRecord(from)) {
    rest.value = from;
    return rest;
  }
  for (const [key, value] of Object.entries(from)) if (!known.includes(key)) rest[key] = value;
  return rest;
}

/**
 * What a view leaves to be shown as it came: the fields neither in `known` nor in `read`, and
 * those of `read` it could not make sense of. `read` holds what the view made of a field; one
 * present in `from` but read as undefined (a number sent as an object, a text as a list) is shown
 * as received, not hidden behind a blank cell.
 */
export function unreadFields(
  from: unknown,
  known: readonly string[],
  read: Record<string, unknown>,
): JsonRecord {
  const rest = otherFields(from, [...known, ...Object.keys(read)]);
  if (!isRecord(from)) return rest;
  for (const [key, value] of Object.entries(read)) {
    if (value === undefined && from[key] !== undefined && from[key] !== null) rest[key] = from[key];
  }
  return rest;
}

export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (value instanceof ExactNumber) return 'a number';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a text';
  return `a ${typeof value}`;
}
