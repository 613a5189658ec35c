// Reading the fields of a JSON request body. Every check throws 400 INVALID_REQUEST naming the
// field, so each endpoint states its rules in a few lines and answers a bad field the same way.
import { isCalendarDate } from './dates.js';
import { parseJsonBody, type RequestBody } from './http.js';
import { invalid } from './route.js';

export type Fields = Record<string, unknown>;

/** The body as a JSON object; `example` shows the caller what was expected. */
export function jsonObjectBody(body: RequestBody, example: string): Fields {
  const parsed = parseJsonBody(body);
  const value = parsed.ok ? parsed.value : undefined;
  if (!isObject(value)) throw invalid(`The request body must be a JSON object, e.g. ${example}.`);
  return value;
}

export function isObject(value: unknown): value is Fields {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Absent or null reads as undefined. */
function given(fields: Fields, name: string): unknown {
  const value = fields[name];
  return value === null ? undefined : value;
}

export function requiredString(fields: Fields, name: string, maxLength = 255): string {
  const value = optionalString(fields, name, maxLength);
  if (value === undefined) throw invalid(`'${name}' is required: a non-empty string.`);
  return value;
}

export function optionalString(fields: Fields, name: string, maxLength = 1000): string | undefined {
  const value = given(fields, name);
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '')
    throw invalid(`'${name}' must be a non-empty string.`);
  if (value.length > maxLength) throw invalid(`'${name}' is longer than ${maxLength} characters.`);
  return value;
}

export function requiredChoice<T extends string>(
  fields: Fields,
  name: string,
  choices: readonly T[],
): T {
  const value = optionalChoice(fields, name, choices);
  if (value === undefined) throw invalid(`'${name}' is required: one of ${choices.join(', ')}.`);
  return value;
}

export function optionalChoice<T extends string>(
  fields: Fields,
  name: string,
  choices: readonly T[],
): T | undefined {
  const value = given(fields, name);
  if (value === undefined) return undefined;
  if (!choices.includes(value as T))
    throw invalid(`'${name}' must be one of ${choices.join(', ')}, got ${JSON.stringify(value)}.`);
  return value as T;
}

interface NumberRule {
  /** Inclusive unless `aboveMin`. */
  min: number;
  max: number;
  aboveMin?: boolean;
  integer?: boolean;
}

export function optionalNumber(fields: Fields, name: string, rule: NumberRule): number | undefined {
  const value = given(fields, name);
  if (value === undefined) return undefined;
  const low = rule.aboveMin ? `greater than ${rule.min}` : `at least ${rule.min}`;
  const what = `${rule.integer ? 'an integer' : 'a number'} ${low} and at most ${rule.max}`;
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw invalid(`'${name}' must be ${what}, got ${JSON.stringify(value)}.`);
  if (
    (rule.integer && !Number.isInteger(value)) ||
    (rule.aboveMin ? value <= rule.min : value < rule.min) ||
    value > rule.max
  ) {
    throw invalid(`'${name}' must be ${what}, got ${value}.`);
  }
  return value;
}

export function requiredNumber(fields: Fields, name: string, rule: NumberRule): number {
  const value = optionalNumber(fields, name, rule);
  if (value === undefined) throw invalid(`'${name}' is required.`);
  return value;
}

/**
 * A nested object, its keys prefixed with `name.` so that messages name them in full
 * (`loan.principal`).
 */
export function requiredObject(fields: Fields, name: string): Fields {
  const value = fields[name];
  if (!isObject(value)) throw invalid(`'${name}' is required: a JSON object.`);
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [`${name}.${key}`, inner]));
}

export function requiredDate(fields: Fields, name: string): string {
  const value = fields[name];
  if (typeof value !== 'string' || !isCalendarDate(value))
    throw invalid(`'${name}' must be a date written YYYY-MM-DD.`);
  return value;
}

/** A query parameter: an integer within bounds, or undefined when absent. */
export function integerQuery(
  query: URLSearchParams,
  name: string,
  min: number,
  max: number,
): number | undefined {
  const text = query.get(name);
  if (text === null) return undefined;
  const value = /^\d{1,6}$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max))
    throw invalid(`${name} must be an integer from ${min} to ${max}, got '${text}'.`);
  return value;
}
