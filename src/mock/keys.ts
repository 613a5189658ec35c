// API keys of the mock: generated fresh at every start, kept only as SHA-256 hashes, as the
// real service does (a key is shown once and cannot be recovered).
import { newToken, tokenHash } from './tokens.js';

export interface MockKey {
  key: string;
  organization_id: string;
  organization_name: string;
  mode: 'live' | 'test';
  scope: 'FULL' | 'READ_ONLY';
}

/**
 * What the server knows about a key: everything except the key itself, and its SHA-256 (`hash`),
 * by which what a key registered stays bound to it.
 */
export type KeyIdentity = Omit<MockKey, 'key'> & { last4: string; hash: string };

export interface Organization {
  organization_id: string;
  organization_name: string;
}

export class KeyRing {
  private readonly byHash = new Map<string, KeyIdentity>();

  /** Makes live+test × FULL+READ_ONLY keys for each organisation; returns the plaintext once. */
  issue(organizations: readonly Organization[]): MockKey[] {
    const issued: MockKey[] = [];
    for (const { organization_id, organization_name } of organizations) {
      const org = { organization_id, organization_name };
      for (const mode of ['live', 'test'] as const) {
        for (const scope of ['FULL', 'READ_ONLY'] as const) {
          const key = newToken(`svc_sk_${mode}`);
          const hash = tokenHash(key);
          const identity: KeyIdentity = { ...org, mode, scope, last4: key.slice(-4), hash };
          this.byHash.set(hash, identity);
          issued.push({ key, ...org, mode, scope });
        }
      }
    }
    return issued;
  }

  /** Reads `Authorization: Bearer <key>`; undefined when missing or unknown. */
  authenticate(authorization: string | undefined): KeyIdentity | undefined {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    return match ? this.byHash.get(tokenHash(match[1])) : undefined;
  }
}
