import { keyMode, maskKey } from '../../config/keys.js';
import { checkBaseUrl, requireApiKey } from '../../config/resolve.js';
import type { Context } from '../../core/context.js';

export async function whoami(ctx: Context): Promise<void> {
  const settings = await ctx.settings();
  const apiKey = requireApiKey(settings);
  const baseUrl = settings.baseUrl ? checkBaseUrl(settings.baseUrl) : null;
  const identity = {
    profile: settings.profile,
    base_url: baseUrl,
    key_mode: keyMode(apiKey),
    api_key: maskKey(apiKey),
    sources: { profile: settings.profileSource, base_url: settings.baseUrlSource, api_key: settings.apiKeySource },
  };
  const raw = JSON.stringify(identity);
  type Identity = typeof identity;
  await ctx.present({ raw, body: identity }, {
    what: 'whoami',
    view: (i) => ({
      kind: 'record',
      record: i as Identity,
      fields: [
        { key: 'profile', header: 'Profile', value: (x: Identity) => x.profile, display: (x) => `${x.profile} (${x.sources.profile})` },
        { key: 'base_url', header: 'Base URL', value: (x) => x.base_url, display: (x, paint) => (x.base_url ? `${x.base_url} (${x.sources.base_url})` : paint.warn('not set')) },
        { key: 'key_mode', header: 'Key mode', value: (x) => x.key_mode, display: (x, paint) => (x.key_mode === 'live' ? paint.bad('live') : x.key_mode === 'test' ? paint.good('test') : paint.warn('unknown')) },
        { key: 'api_key', header: 'API key', value: (x) => x.api_key, display: (x) => `${x.api_key} (${x.sources.api_key})` },
      ],
    }),
  });
}
