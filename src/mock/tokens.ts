// Secrets the mock hands out besides API keys: consent tokens, Connect public tokens and access
// tokens. Like keys, they are shown once and kept only as SHA-256 hashes, compared in constant
// time.
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** `<prefix>_` and 32 hex characters. */
export function newToken(prefix: string): string {
  return `${prefix}_${randomBytes(16).toString('hex')}`;
}

/**
 * `<prefix>_` and 16 hex characters: ids are not secret, only unguessable enough not to collide.
 */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}

/**
 * SHA-256 in hex, by one-shot crypto.hash (Node 20.12 and later): a few times cheaper per request
 * than a Hash object.
 */
export function tokenHash(token: string): string {
  return hash('sha256', token, 'hex');
}

export function matchesHash(token: string | undefined | null, expected: string): boolean {
  if (!token) return false;
  return timingSafeEqual(Buffer.from(tokenHash(token), 'hex'), Buffer.from(expected, 'hex'));
}
