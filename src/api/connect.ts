// The Connect request (docs/guides/lender.md, "Share the data: Connect"): the scopes a flow may ask
// for and the rule for its redirect address.
import { secureUrl, shownUrl } from '../core/urls.js';

/** The scopes a Connect flow can ask the account holder for. */
export const CONNECT_SCOPES = [
  { name: 'identity', description: 'who owns the account: holder, account number, bank' },
  { name: 'income', description: 'income streams: salary, remittance, pension' },
] as const;

export const CONNECT_SCOPE_NAMES: readonly string[] = CONNECT_SCOPES.map((s) => s.name);

/**
 * Why a redirect address is refused, or undefined when it is fine: it must be an absolute
 * `https` URL, or `http` to this machine (a local development server), and carry no fragment.
 */
export function redirectUriProblem(value: string): string | undefined {
  const { url, problem } = secureUrl(value);
  if (!url) return `"${shownUrl(value)}" ${problem}`;
  if (url.hash) return `"${shownUrl(value)}" must not carry a #fragment`;
  return undefined;
}
