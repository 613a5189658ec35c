// API keys of the mock, kept only as SHA-256 hashes, as the real service does (a key is shown once
// and cannot be recovered). The plain keys are new at every start, or given by whoever starts the
// mock: `svc mock` keeps a copy in the user's data folder so that a saved login survives a restart.
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

const MODES = ['live', 'test'] as const;
const SCOPES = ['FULL', 'READ_ONLY'] as const;

/** A key of that mode as the mock makes them: the prefix and 32 hex characters. */
function isKeyOf(key: unknown, mode: MockKey['mode']): key is string {
  return typeof key === 'string' && new RegExp(`^svc_sk_${mode}_[0-9a-f]{32}$`).test(key);
}

/**
 * Every key the organisations are given, live and test × FULL and READ_ONLY, each made by `make`.
 */
function keysOf(
  organizations: readonly Organization[],
  make: (org: Organization, mode: MockKey['mode'], scope: MockKey['scope']) => string,
): MockKey[] {
  return organizations.flatMap(({ organization_id, organization_name }) =>
    MODES.flatMap((mode) =>
      SCOPES.map((scope) => ({
        key: make({ organization_id, organization_name }, mode, scope),
        organization_id,
        organization_name,
        mode,
        scope,
      })),
    ),
  );
}

/** New keys for the organisations, live and test × FULL and READ_ONLY each. */
export function newKeys(organizations: readonly Organization[]): MockKey[] {
  return keysOf(organizations, (_org, mode) => newToken(`svc_sk_${mode}`));
}

/** What `keysFor` made of a list of kept keys. */
export interface KeptKeys {
  /** One key per organisation, mode and scope, in the order `newKeys` gives them. */
  keys: MockKey[];
  /** Keys made for what the list lacked (an organisation added, an entry damaged or missing). */
  made: number;
  /** Well-formed entries of organisations the mock no longer has, left out. */
  dropped: number;
  /** The list differs from `keys` in any way (then it is worth writing again). */
  changed: boolean;
}

/**
 * The keys of these organisations, taking each from `kept` (entries read from a file: anything)
 * where an entry of that organisation, mode and scope holds a key of the mock's form, and making
 * new ones for the rest. The organisation's name is the fixture's.
 */
export function keysFor(
  organizations: readonly Organization[],
  kept: readonly unknown[],
): KeptKeys {
  const known = new Set(organizations.map((org) => org.organization_id));
  const usable = new Map<string, string>();
  let dropped = 0;
  for (const entry of kept) {
    if (entry === null || typeof entry !== 'object') continue;
    const { key, organization_id, mode, scope } = entry as Record<string, unknown>;
    if (
      typeof organization_id !== 'string' ||
      !MODES.includes(mode as never) ||
      !SCOPES.includes(scope as never) ||
      !isKeyOf(key, mode as MockKey['mode'])
    )
      continue;
    if (!known.has(organization_id)) {
      dropped++;
      continue;
    }
    const slot = `${organization_id} ${mode as MockKey['mode']} ${scope as MockKey['scope']}`;
    if (!usable.has(slot)) usable.set(slot, key);
  }
  let made = 0;
  const keys = keysOf(organizations, ({ organization_id }, mode, scope) => {
    const key = usable.get(`${organization_id} ${mode} ${scope}`);
    if (key !== undefined) return key;
    made++;
    return newToken(`svc_sk_${mode}`);
  });
  const changed = made > 0 || JSON.stringify(kept) !== JSON.stringify(keys);
  return { keys, made, dropped, changed };
}

export class KeyRing {
  private readonly byHash = new Map<string, KeyIdentity>();

  /** Makes live+test × FULL+READ_ONLY keys for each organisation; returns the plaintext once. */
  issue(organizations: readonly Organization[]): MockKey[] {
    const issued = newKeys(organizations);
    this.admit(issued);
    return issued;
  }

  /** Accepts these keys from now on; only their hashes are kept. */
  admit(keys: readonly MockKey[]): void {
    for (const { key, organization_id, organization_name, mode, scope } of keys) {
      const hash = tokenHash(key);
      this.byHash.set(hash, {
        organization_id,
        organization_name,
        mode,
        scope,
        last4: key.slice(-4),
        hash,
      });
    }
  }

  /** Reads `Authorization: Bearer <key>`; undefined when missing or unknown. */
  authenticate(authorization: string | undefined): KeyIdentity | undefined {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    return match ? this.byHash.get(tokenHash(match[1]!)) : undefined;
  }
}
