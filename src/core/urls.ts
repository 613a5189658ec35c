// THE rule for an address svc sends data to or opens: https, or http to this machine only (a
// local development server). The base URL, a Connect redirect URI, the connect_url a reply asks
// us to open, and where webhook deliveries are forwarded all follow it.

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);

/** localhost, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

const THIS_MACHINE = 'localhost, 127.0.0.1 or ::1';

/**
 * The address parsed, when it is absolute and https (or http to this machine); otherwise what is
 * wrong with it, as the end of a sentence that begins with the address: `"x" is not an absolute
 * URL`.
 */
export function secureUrl(
  value: string,
  example = 'https://app.example.com/connect/done',
): { url: URL; problem?: undefined } | { url?: undefined; problem: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: `is not an absolute URL (example: ${example})` };
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return {
      problem: `uses http to ${url.hostname}; use https (http is only for ${THIS_MACHINE})`,
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      problem: `uses the scheme ${url.protocol}; use https (http is allowed only to ${THIS_MACHINE})`,
    };
  }
  return { url };
}

/**
 * An address as it may be shown in a message: what comes before `@` in it (`user:secret@`, or a
 * token as the user name) is replaced by `***`, whether or not the rest parses as a URL.
 */
export function shownUrl(value: string): string {
  return value.replace(/^([^:/?#]*:\/\/)[^/?#]*@/, '$1***@');
}
