// `svc config list`: the profiles, their base URLs and keys (masked), and where each key is kept.
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { currentProfileName, type KeyStore, keyStoreOf } from '../../config/resolve.js';
import { printableDeep } from '../../core/output/format.js';
import { shown } from './settings.js';

interface ProfileRow {
  name: string;
  active: boolean;
  base_url: string | null;
  api_key: string | null;
  /**
   * Where the key is kept; a key in the OS keyring is not read for a list (it may ask to be
   * unlocked).
   */
  api_key_in: KeyStore | null;
}

export async function listProfiles(ctx: Context): Promise<void> {
  const store = await ctx.config.store();
  const doc = store.read();
  const active = currentProfileName(doc);
  const rows: ProfileRow[] = Object.entries(doc.profiles).map(([name, p]) => ({
    name,
    active: name === active,
    base_url: p.base_url ?? null,
    api_key: shown('api_key', p.api_key),
    api_key_in: keyStoreOf(p) ?? null,
  }));
  const body = {
    current_profile: doc.current_profile ?? null,
    profiles: Object.fromEntries(
      rows.map((r) => [
        r.name,
        { base_url: r.base_url, api_key: r.api_key, api_key_in: r.api_key_in },
      ]),
    ),
  };
  await present(
    ctx,
    { raw: JSON.stringify(body), body },
    {
      what: 'config list',
      records: () => rows,
      view: () => ({
        kind: 'list',
        rows: printableDeep(rows),
        empty: `No profiles yet. Create one with \`svc login\`. (Config file: ${store.file})`,
        columns: [
          {
            key: 'active',
            header: ' ',
            value: (r: ProfileRow) => r.active,
            display: (r: ProfileRow, paint) => (r.active ? paint.good('*') : ''),
          },
          { key: 'name', header: 'PROFILE', value: (r: ProfileRow) => r.name },
          { key: 'base_url', header: 'BASE URL', value: (r: ProfileRow) => r.base_url },
          { key: 'api_key', header: 'API KEY', value: (r: ProfileRow) => r.api_key },
          { key: 'api_key_in', header: 'KEY KEPT IN', value: (r: ProfileRow) => r.api_key_in },
        ],
      }),
    },
  );
}
