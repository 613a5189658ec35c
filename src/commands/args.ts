// Checks of user input that every command shares; each failure is a usage error (exit 2) and
// happens before any request.
import { UsageError } from '../core/errors.js';

/**
 * A report id (or any id): one non-empty path segment with no `/ ? #` and no white space, and not
 * `.` or `..`, which URL resolution would take as this folder or the one above (a request for
 * `/v1/reports/..` goes to `/v1`).
 */
export function checkId(id: string | undefined, what = 'report id'): string {
  if (id === undefined || id === '') throw new UsageError(`the ${what} is empty`);
  if (/[/?#\s]/.test(id)) throw new UsageError(`the ${what} "${id.replace(/\s/g, ' ')}" must not contain / ? # or white space`);
  if (id === '.' || id === '..') throw new UsageError(`the ${what} "${id}" is not an id: "." and ".." name a folder of the URL`);
  return id;
}

export function idPath(prefix: string, id: string, suffix = ''): string {
  return `${prefix}/${encodeURIComponent(checkId(id))}${suffix}`;
}

export function checkInteger(value: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`${flag} takes a whole number from ${min} to ${max}, not "${value}"`);
  }
  return Number(value);
}

export function checkChoice<T extends string>(value: string | undefined, flag: string, choices: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value)) {
    throw new UsageError(`${flag} takes one of ${choices.join(', ')}, not "${value}"`);
  }
  return value as T;
}

export function examples(...lines: string[]): string {
  return '\nExamples:\n' + lines.map((line) => `  $ ${line}`).join('\n');
}
