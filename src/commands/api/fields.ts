// The request parts of `svc api`, read from the command line as `gh api` reads them: fields with
// `key=value` (nested with `key[sub]`, arrays with `key[]`), typed values, headers and the path.
import { encodedSeparatorIn, isDotSegment } from '../../api/request-paths.js';
import { UsageError } from '../../core/errors.js';

export type FieldValue =
  string | number | boolean | null | FieldValue[] | { [key: string]: FieldValue };
export type FieldObject = { [key: string]: FieldValue };

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type ApiMethod = (typeof METHODS)[number];

/** A method name, in any case: `get` is GET. */
export function isMethod(value: string): boolean {
  return (METHODS as readonly string[]).includes(value.toUpperCase());
}

export function checkMethod(value: string): ApiMethod {
  if (!isMethod(value))
    throw new UsageError(`unknown method "${value}" (use ${METHODS.join(', ')})`);
  return value.toUpperCase() as ApiMethod;
}

/**
 * The path from the base URL: `/v1` is added when missing. A full URL, a fragment, white space,
 * `.`/`..` segments, `\` (which a URL reads as `/`) and encoded `/ \ .` (`%2f`, `%5c`, `%2e`, which
 * a server may decode) are refused in the path: each could lead out of /v1. The query is the
 * service's to read.
 */
export function apiPath(value: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(value))
    throw new UsageError(
      `PATH is a path such as /v1/reports, not a URL ("${value}"); the address comes from --base-url`,
    );
  if (/[\s#]/.test(value))
    throw new UsageError(`PATH "${value}" must not contain white space or #`);
  const path = value.startsWith('/') ? value : `/${value}`;
  const pathname = path.split('?')[0]!;
  if (pathname.split('/').some(isDotSegment))
    throw new UsageError(`PATH "${value}" must not contain . or .. segments`);
  if (pathname.includes('\\'))
    throw new UsageError(`PATH "${value}" must not contain \\, which a URL reads as /`);
  const encoded = encodedSeparatorIn(pathname);
  if (encoded !== undefined)
    throw new UsageError(`PATH "${value}" must not contain ${encoded}, an encoded / \\ or .`);
  return pathname === '/v1' || pathname.startsWith('/v1/') ? path : `/v1${path}`;
}

/** `key=value` split at the first `=`. */
export function splitField(text: string, flag: string): [string, string] {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new UsageError(`${flag} takes key=value, not "${text}"`);
  return [text.slice(0, eq), text.slice(eq + 1)];
}

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * A typed value of -F: true, false, null, a JSON number, `@file` (the file's text) or `@-` (stdin's
 * text); anything else stays a string. Integers too large to be exact stay strings.
 */
export async function typedValue(
  raw: string,
  readText: (source: string) => Promise<string>,
): Promise<FieldValue> {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (NUMBER.test(raw)) {
    const n = Number(raw);
    if (Number.isFinite(n) && (!/^-?\d+$/.test(raw) || Number.isSafeInteger(n))) return n;
    return raw;
  }
  if (raw.startsWith('@')) return readText(raw.slice(1));
  return raw;
}

/** `a[b][]` → ['a', 'b', '']; '' means "append to an array" and may only come last. */
export function keyPath(key: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) throw new UsageError(`the field name "${key}" is not name, name[sub] or name[]`);
  const path = [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)];
  if (path.slice(0, -1).includes(''))
    throw new UsageError(`the field name "${key}" may end with [] but not have it in the middle`);
  return path;
}

/** Builds the JSON object the fields describe, in the order given. */
export function buildObject(fields: readonly { key: string; value: FieldValue }[]): FieldObject {
  const root: FieldObject = {};
  for (const { key, value } of fields) {
    const path = keyPath(key);
    let node: FieldObject = root;
    for (let i = 0; i < path.length - 1; i++) {
      const name = path[i]!;
      const next = path[i + 1]!;
      const existing = node[name];
      if (next === '') {
        if (existing === undefined) node[name] = [];
        else if (!Array.isArray(existing)) throw conflict(key, path.slice(0, i + 1));
        (node[name] as FieldValue[]).push(value);
        break;
      }
      if (existing === undefined) node[name] = {};
      else if (existing === null || typeof existing !== 'object' || Array.isArray(existing))
        throw conflict(key, path.slice(0, i + 1));
      node = node[name] as FieldObject;
    }
    const last = path.at(-1)!;
    if (last !== '') {
      if (node[last] !== undefined) throw conflict(key, path);
      node[last] = value;
    }
  }
  return root;
}

function conflict(key: string, path: string[]): UsageError {
  return new UsageError(`the field "${key}" clashes with an earlier field at "${path.join('.')}"`);
}

/** Fields as query parameters: scalars, and arrays as repeated parameters; objects cannot be. */
export function toQuery(fields: readonly { key: string; value: FieldValue }[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (const { key, value } of fields) {
    const path = keyPath(key);
    if (path.length > 2 || (path.length === 2 && path[1] !== ''))
      throw new UsageError(`the field "${key}" is nested; a query string has flat names only`);
    if (value !== null && typeof value === 'object')
      throw new UsageError(`the field "${key}" is not a plain value`);
    pairs.push([path[0]!, value === null ? '' : String(value)]);
  }
  return pairs;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Set by the HTTP layer itself; a second value would make a broken request. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);

/**
 * `Name: value` → [Name, value], the name written Like-This so it replaces the default of that
 * name.
 */
export function parseHeader(text: string): [string, string] {
  const colon = text.indexOf(':');
  const name = colon > 0 ? text.slice(0, colon).trim() : '';
  if (!HEADER_NAME.test(name)) throw new UsageError(`-H takes "Name: value", not "${text}"`);
  if (RESERVED_HEADERS.has(name.toLowerCase()))
    throw new UsageError(`the ${name} header is set by svc itself`);
  const value = text.slice(colon + 1).trim();
  // Tab is the one control character a header value may hold; Node sends nothing past Latin-1.
  if (/[\x00-\x08\x0a-\x1f\x7f]/.test(value))
    throw new UsageError(
      `the value of the ${name} header must be one line, without control characters`,
    );
  if (/[^\x00-\xff]/.test(value))
    throw new UsageError(
      `the value of the ${name} header holds a character HTTP headers cannot carry (only Latin-1)`,
    );
  const canonical = name
    .toLowerCase()
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('-');
  return [canonical, value];
}
