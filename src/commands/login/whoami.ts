// `svc whoami`: the profile, base URL and key in force (masked), where each came from, and whether
// the service accepts the key (GET /v1/usage: any success accepts it, docs/reference/output.md,
// "Reading replies").
import { ENDPOINTS, target } from '../../api/endpoints.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { checkBaseUrl, refusesKey, type Settings, type Source } from '../../config/resolve.js';
import { UsageError } from '../../core/errors.js';
import { shownText } from '../../core/output/format.js';
import type { Paint } from '../../core/output/paint.js';
import type { Column } from '../../core/output/view.js';
import { keyMode, maskKey } from '../../service/keys.js';
import { ReplyReading } from '../../service/reading.js';

interface Identity {
  profile: string;
  base_url: string | null;
  key_mode: string;
  api_key: string;
  sources: { profile: Source; base_url: Source; api_key: Source };
  /** Where the key comes from: --api-key, SVC_API_KEY, the OS keyring or the config file. */
  key_source: KeySource;
  /** Whether the service accepted the key; null when it was not asked (--local, no base URL). */
  accepted: boolean | null;
  /** The plan the service named when it accepted the key, if it named one. */
  plan: string | null;
}

type KeySource = 'flag' | 'env' | 'keyring' | 'file';

function keySourceOf(settings: Settings): KeySource {
  if (settings.apiKeySource === 'flag' || settings.apiKeySource === 'env')
    return settings.apiKeySource;
  return settings.keyStore ?? 'file';
}

/** Where a setting came from, as a person reads it beside the value on a terminal. */
const LABELS: Record<'profile' | 'base_url' | 'api_key', { flag: string; env: string }> = {
  profile: { flag: '--profile', env: 'SVC_PROFILE' },
  base_url: { flag: '--base-url', env: 'SVC_BASE_URL' },
  api_key: { flag: '--api-key', env: 'SVC_API_KEY' },
};

function from(setting: keyof typeof LABELS, source: Source, profile: string): string {
  if (source === 'flag' || source === 'env') return LABELS[setting][source];
  if (source === 'default') return 'default';
  if (source === 'none') return 'not set';
  // The profile itself comes from the file's current_profile; the others from that profile.
  return setting === 'profile' ? 'config file' : `profile "${profile}"`;
}

export async function whoami(ctx: Context, options: { local?: boolean }): Promise<void> {
  const settings = await ctx.config.settings();
  const apiKey = await ctx.config.apiKey();
  const baseUrl = settings.baseUrl ? checkBaseUrl(settings.baseUrl) : null;
  const identity: Identity = {
    profile: settings.profile,
    base_url: baseUrl,
    key_mode: keyMode(apiKey),
    api_key: maskKey(apiKey),
    sources: {
      profile: settings.profileSource,
      base_url: settings.baseUrlSource,
      api_key: settings.apiKeySource,
    },
    key_source: keySourceOf(settings),
    accepted: null,
    plan: null,
  };

  // What ends the command after the identity is shown: a refused key (exit 3), no base URL to ask
  // (exit 2).
  let failure: Error | undefined;
  let refusedCode = '';
  if (!options.local && !baseUrl) {
    failure = new UsageError('cannot check the key: no base URL configured', [
      'Run `svc login`, or set SVC_BASE_URL (or pass --base-url); `svc whoami --local` shows the settings without asking the service.',
    ]);
  } else if (!options.local) {
    const client = await ctx.client();
    const spinner = await ctx.spinner('Checking the key…');
    try {
      const call = target(ENDPOINTS.usage);
      const reply = await client.request(call);
      identity.accepted = true;
      const { readReply, UsageReply } = await import('../../api/replies/usage.js');
      identity.plan = readReply(new ReplyReading(call.what), UsageReply, reply.body)?.plan ?? null;
    } catch (error) {
      // Any other failure (network, service) leaves the question open: it is the error.
      if (!refusesKey(error)) throw error;
      identity.accepted = false;
      refusedCode = shownText(error.envelope.error_code, ctx.secrets);
      failure = error;
    } finally {
      spinner.stop();
    }
  }

  const keptIn =
    settings.keyStore === 'keyring' ? (await ctx.config.keyring()).name : 'the config file';
  await present(
    ctx,
    { raw: JSON.stringify(identity), body: identity },
    {
      what: 'whoami',
      view: (body) => {
        const record = body as Identity;
        return {
          kind: 'record',
          record,
          fields: ctx.io.stdoutIsTTY ? forPeople(refusedCode, keptIn) : forScripts(),
        };
      },
    },
  );
  if (failure) throw failure;
}

function verdict(x: Identity, paint: Paint, refusedCode: string): string {
  if (x.accepted === false) return paint.bad(`Key refused: ${refusedCode}`);
  return paint.good('Key accepted by the service') + (x.plan ? ` (plan ${x.plan})` : '');
}

/** On a terminal: each value with where it came from. */
function forPeople(refusedCode: string, keptIn: string): Column<Identity>[] {
  return [
    {
      key: 'profile',
      header: 'Profile',
      value: (x) => x.profile,
      display: (x) => `${x.profile} (${from('profile', x.sources.profile, x.profile)})`,
    },
    {
      key: 'base_url',
      header: 'Base URL',
      // Shown when absent too: "not set" says why the key could not be checked.
      value: (x) => x.base_url ?? 'not set',
      display: (x, paint) =>
        x.base_url
          ? `${x.base_url} (${from('base_url', x.sources.base_url, x.profile)})`
          : paint.warn('not set'),
    },
    {
      key: 'key_mode',
      header: 'Key mode',
      value: (x) => x.key_mode,
      display: (x, paint) =>
        x.key_mode === 'live'
          ? paint.bad('live')
          : x.key_mode === 'test'
            ? paint.good('test')
            : paint.warn('unknown'),
    },
    {
      key: 'api_key',
      header: 'API key',
      value: (x) => x.api_key,
      // A profile's key: in the keyring or the config file.
      display: (x) =>
        `${x.api_key} (${from('api_key', x.sources.api_key, x.profile)}${x.key_source === 'keyring' || x.key_source === 'file' ? `, in ${keptIn}` : ''})`,
    },
    {
      key: 'accepted',
      header: 'Service',
      value: (x) => x.accepted,
      display: (x, paint) => verdict(x, paint, refusedCode),
    },
  ];
}

/** In a pipe: clean values, one a line, where each came from in a field of its own. */
function forScripts(): Column<Identity>[] {
  return [
    { key: 'profile', header: 'Profile', value: (x) => x.profile },
    { key: 'profile_source', header: 'Profile from', value: (x) => x.sources.profile },
    { key: 'base_url', header: 'Base URL', value: (x) => x.base_url },
    { key: 'base_url_source', header: 'Base URL from', value: (x) => x.sources.base_url },
    { key: 'key_mode', header: 'Key mode', value: (x) => x.key_mode },
    { key: 'api_key', header: 'API key', value: (x) => x.api_key },
    { key: 'api_key_source', header: 'API key from', value: (x) => x.sources.api_key },
    { key: 'key_source', header: 'Key kept in', value: (x) => x.key_source },
    { key: 'accepted', header: 'Accepted', value: (x) => x.accepted },
    { key: 'plan', header: 'Plan', value: (x) => x.plan },
  ];
}
