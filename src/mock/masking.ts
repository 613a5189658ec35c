// Secrets in what the mock shows of a request (its stderr lines, GET /_mock/requests): API keys,
// consent, public and access tokens. They are masked the way svc masks them in its own output, a
// key's prefix (`svc_sk_test_`) and the last four characters, so a log can be pasted anywhere.
// The mock keeps its own copy of the rule: it imports nothing of the CLI.

/**
 * The key forms svc recognises (docs/reference/configuration.md, "Keys"), longest first; anything
 * else keeps no prefix.
 */
const KEY_PREFIXES = ['svc_sk_live_', 'svc_sk_test_', 'sk_live_', 'sk_test_'];
/** A shorter secret shows no tail: four characters would give away too much of it. */
const MIN_LENGTH_FOR_TAIL = 12;

/** `svc_sk_test_…abcd` for a key, `…abcd` for any other secret. */
export function maskSecret(value: string): string {
  const prefix = KEY_PREFIXES.find((p) => value.startsWith(p) && value.length > p.length) ?? '';
  const secret = value.slice(prefix.length);
  return `${prefix}…${secret.length >= MIN_LENGTH_FOR_TAIL ? secret.slice(-4) : ''}`;
}

/**
 * An Authorization header with its credential masked and its scheme kept: `Bearer
 * svc_sk_test_…abcd`.
 */
export function maskAuthorization(value: string): string {
  const match = /^(\S+\s+)(\S+)\s*$/.exec(value);
  return match ? match[1]! + maskSecret(match[2]!) : maskSecret(value.trim());
}

/** Headers whose value is a credential. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-svc-access-token']);

/** The header's value as it may be shown. */
export function maskHeader(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (!SECRET_HEADERS.has(lower)) return value;
  return lower.endsWith('authorization') ? maskAuthorization(value) : maskSecret(value);
}

/**
 * Query parameters that carry a token: `token` (a consent's data link, a Connect request) and any
 * `…_token`.
 */
export function isTokenParameter(name: string): boolean {
  return /^(?:\w+_)?token$/i.test(name);
}

/**
 * A query string (`?a=1&token=…`, or empty) with each token's value masked; everything else as
 * sent.
 */
export function maskQuery(search: string): string {
  return search.replace(
    /([?&])([^=&#]*)=([^&#]*)/g,
    (whole, separator: string, name: string, value: string) => {
      if (value === '' || !isTokenParameter(decodeQueryComponent(name))) return whole;
      return `${separator}${name}=${maskSecret(decodeQueryComponent(value))}`;
    },
  );
}

function decodeQueryComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
