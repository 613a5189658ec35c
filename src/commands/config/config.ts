import { keyMode, maskKey } from '../../config/keys.js';
import { activeProfile, checkBaseUrl, profileOf, profileToWrite, refuseReservedName, unknownProfile } from '../../config/resolve.js';
import { PROFILE_KEYS, type ProfileKey } from '../../config/store.js';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { printableDeep } from '../../core/output/format.js';

function checkKey(key: string): ProfileKey {
  if (!(PROFILE_KEYS as readonly string[]).includes(key)) {
    throw new UsageError(`unknown setting "${key}" (settings: ${PROFILE_KEYS.join(', ')})`);
  }
  return key as ProfileKey;
}

function shown(key: ProfileKey, value: string | undefined): string | null {
  if (value === undefined) return null;
  return key === 'api_key' ? maskKey(value) : value;
}

interface ProfileRow {
  name: string;
  active: boolean;
  base_url: string | null;
  api_key: string | null;
}

export async function listProfiles(ctx: Context): Promise<void> {
  const store = await ctx.config();
  const doc = store.read();
  const active = doc.current_profile ?? 'default';
  const rows: ProfileRow[] = Object.entries(doc.profiles).map(([name, p]) => ({
    name,
    active: name === active,
    base_url: p.base_url ?? null,
    api_key: shown('api_key', p.api_key),
  }));
  const body = {
    current_profile: doc.current_profile ?? null,
    profiles: Object.fromEntries(rows.map((r) => [r.name, { base_url: r.base_url, api_key: r.api_key }])),
  };
  await ctx.present({ raw: JSON.stringify(body), body }, {
    what: 'config list',
    records: () => rows,
    view: () => ({
      kind: 'list',
      rows: printableDeep(rows),
      empty: `No profiles yet. Create one with \`svc login\`. (Config file: ${store.file})`,
      columns: [
        { key: 'active', header: ' ', value: (r: ProfileRow) => r.active, display: (r, paint) => (r.active ? paint.good('*') : '') },
        { key: 'name', header: 'PROFILE', value: (r) => r.name },
        { key: 'base_url', header: 'BASE URL', value: (r) => r.base_url },
        { key: 'api_key', header: 'API KEY', value: (r) => r.api_key },
      ],
    }),
  });
}

export async function getSetting(ctx: Context, key: string): Promise<void> {
  const setting = checkKey(key);
  const store = await ctx.config();
  const doc = store.read();
  const { name } = activeProfile(ctx.flags, ctx.io.env, doc);
  const value = shown(setting, profileOf(doc, name)?.[setting]);
  if (value === null) throw new UsageError(`${setting} is not set in profile "${name}"`);
  ctx.out(ctx.format === 'json' ? JSON.stringify(value) + '\n' : value + '\n');
}

export async function setSetting(ctx: Context, key: string, value: string): Promise<void> {
  const setting = checkKey(key);
  let stored = value.trim();
  if (setting === 'base_url') stored = checkBaseUrl(stored);
  if (setting === 'api_key') {
    if (stored === '' || /\s/.test(stored)) throw new UsageError('the API key must not be empty or contain white space');
    ctx.warn('a key given as an argument is visible to other users of this machine; `svc login --with-key` reads it from stdin');
    if (keyMode(stored) === 'unknown') ctx.warn('the API key is not of the form svc_sk_live_…, svc_sk_test_… (or sk_live_…, sk_test_…); saving it as given');
  }
  const store = await ctx.config();
  const doc = store.read();
  const name = profileToWrite(ctx.flags, ctx.io.env, doc);
  await store.update((d) => {
    d.profiles[name] = { ...profileOf(d, name), [setting]: stored };
    d.current_profile ??= name;
  });
  ctx.err(`✓ Set ${setting} of profile "${name}" to ${shown(setting, stored)}`);
}

export async function printPath(ctx: Context): Promise<void> {
  const store = await ctx.config();
  ctx.out(store.file + '\n');
}

export async function useProfile(ctx: Context, profile: string): Promise<void> {
  refuseReservedName(profile);
  const store = await ctx.config();
  const doc = store.read();
  if (!profileOf(doc, profile)) throw unknownProfile(profile, doc);
  await store.update((d) => {
    d.current_profile = profile;
  });
  ctx.err(`✓ Profile "${profile}" is now active`);
}
