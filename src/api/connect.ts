// The Connect request (contract §6, `svc connect`): the scopes a flow may ask for and the rule for
// its redirect address.
import { isLoopbackHost } from '../config/resolve.js';

/** The scopes a Connect flow can ask the account holder for. */
export const CONNECT_SCOPES = [
  { name: 'identity', description: 'who owns the account: holder, account number, bank' },
  { name: 'income', description: 'income streams: salary, remittance, pension' },
] as const;

export type ConnectScope = (typeof CONNECT_SCOPES)[number]['name'];

export const CONNECT_SCOPE_NAMES: readonly string[] = CONNECT_SCOPES.map((s) => s.name);

/**
 * Why a redirect address is refused, or undefined when it is fine: it must be an absolute
 * `https` URL, or `http` to this machine (a local development server), and carry no fragment.
 */
export function redirectUriProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${value}" is not an absolute URL (example: https://app.example.com/connect/done)`;
  }
  if (url.protocol === 'http:') {
    if (!isLoopbackHost(url.hostname)) return `"${value}" uses http to ${url.hostname}; use https (http is only for localhost, 127.0.0.1 or ::1)`;
  } else if (url.protocol !== 'https:') {
    return `"${value}" is not an https URL`;
  }
  if (url.hash) return `"${value}" must not carry a #fragment`;
  return undefined;
}
