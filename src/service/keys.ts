// API key forms and masking. A full key never leaves this process in any output.
import { UsageError } from '../core/errors.js';
import type { KeyForms } from '../core/secrets/secrets.js';

export type KeyMode = 'live' | 'test' | 'unknown';

/**
 * The key forms of the service (docs/reference/configuration.md, "Keys"): `svc_sk_live_…` and
 * `svc_sk_test_…`, and the same without the brand, as some of the service's own pages write them.
 * Longest prefix first.
 */
const PREFIXES: readonly { prefix: string; mode: Exclude<KeyMode, 'unknown'> }[] = [
  { prefix: 'svc_sk_live_', mode: 'live' },
  { prefix: 'svc_sk_test_', mode: 'test' },
  { prefix: 'sk_live_', mode: 'live' },
  { prefix: 'sk_test_', mode: 'test' },
];

function formOf(key: string): (typeof PREFIXES)[number] | undefined {
  return PREFIXES.find((form) => key.startsWith(form.prefix) && key.length > form.prefix.length);
}

export function keyMode(key: string): KeyMode {
  return formOf(key)?.mode ?? 'unknown';
}

/**
 * Keys are tens of characters: past this, a value is no key (a file pasted, a variable gone wrong).
 */
export const MAX_KEY_BYTES = 16 * 1024;

/**
 * The key, unless it is longer than any key is: then a usage error (exit 2) naming it by where it
 * came from, as `the API key in SVC_API_KEY`.
 */
export function checkKeySize(key: string, what: string): string {
  const bytes = Buffer.byteLength(key, 'utf8');
  if (bytes > MAX_KEY_BYTES)
    throw new UsageError(
      `${what} is ${bytes} bytes long; an API key is at most ${MAX_KEY_BYTES / 1024} KiB`,
    );
  return key;
}

/** `svc_sk_live_…abcd`: the prefix and the last four characters; never more of a short key. */
export function maskKey(key: string): string {
  const prefix = formOf(key)?.prefix ?? '';
  const secret = key.slice(prefix.length);
  const tail = secret.length >= 12 ? secret.slice(-4) : '';
  return `${prefix}…${tail}`;
}

/** The key without its prefix: what is secret in it (all of a key of another form). */
export function secretOf(key: string): string {
  return key.slice(formOf(key)?.prefix.length ?? 0);
}

/** The service's key forms, for masking (core/secrets): the prefix shown, the rest secret. */
export const KEY_FORMS: KeyForms = { secretOf, mask: maskKey };
