// The keys svc mock issues, as a test picks one: an organisation (its id or its name), a mode and
// a scope. A key the mock did not issue fails the test that asked for it.

export interface IssuedKey {
  key: string;
  organization_id?: string;
  organization_name?: string;
  mode: string;
  scope: string;
}

export interface KeyChoice {
  mode?: 'live' | 'test';
  scope?: 'FULL' | 'READ_ONLY';
}

/**
 * The mock's key of `org` (an id or a name; any organisation when left out): a test key with the
 * FULL scope unless told otherwise.
 */
export function findKey<K extends IssuedKey>(
  mock: { keys: readonly K[] },
  org?: string,
  { mode = 'test', scope = 'FULL' }: KeyChoice = {},
): K {
  const found = mock.keys.find(
    (k) =>
      (org === undefined || k.organization_id === org || k.organization_name === org) &&
      k.mode === mode &&
      k.scope === scope,
  );
  if (!found)
    throw new Error(
      `the mock has no ${mode} key with the ${scope} scope${org === undefined ? '' : ` for ${org}`}`,
    );
  return found;
}

/** The secret of the key `findKey` picks. */
export function keyOf(
  mock: { keys: readonly IssuedKey[] },
  org?: string,
  choice: KeyChoice = {},
): string {
  return findKey(mock, org, choice).key;
}
