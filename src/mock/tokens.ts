// Secrets the mock hands out besides API keys: consent tokens, Connect public tokens and access
// tokens. Like keys, they are shown once and kept only as SHA-256 hashes, compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** `<prefix>_` and 32 hex characters. */
export function newToken(prefix: string): string {
  return `${prefix}_${randomBytes(16).toString('hex')}`;
}

/** `<prefix>_` and 16 hex characters: ids are not secret, only unguessable enough not to collide. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function matchesHash(token: string | undefined | null, hash: string): boolean {
  if (!token) return false;
  return timingSafeEqual(Buffer.from(tokenHash(token), 'hex'), Buffer.from(hash, 'hex'));
}
