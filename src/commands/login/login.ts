import { text } from 'node:stream/consumers';
import { ENDPOINTS, target } from '../../api/endpoints.js';
import { pick, textOf } from '../../api/reading.js';
import { keyMode, maskKey } from '../../config/keys.js';
import { checkBaseUrl, profileOf, profileToWrite } from '../../config/resolve.js';
import type { Context } from '../../core/context.js';
import { readEnv } from '../../core/environment.js';
import { ApiError, CliError, EXIT, UsageError } from '../../core/errors.js';
import { oneLine } from '../../core/output/format.js';

function validateWith(check: (value: string) => unknown): (value: string) => true | string {
  return (value) => {
    try {
      check(value.trim());
      return true;
    } catch (error) {
      return (error as Error).message;
    }
  };
}

export async function login(ctx: Context, options: { withKey?: boolean }): Promise<void> {
  const store = await ctx.config();
  const doc = store.read();
  const profile = profileToWrite(ctx.flags, ctx.io.env, doc);
  const saved = profileOf(doc, profile) ?? {};

  let baseUrl = ctx.flags.baseUrl ?? readEnv(ctx.io.env, 'SVC_BASE_URL');
  if (!baseUrl && ctx.canPrompt && !options.withKey) {
    baseUrl = await (await ctx.prompter()).text('Base URL of the service', { default: saved.base_url, validate: validateWith(checkBaseUrl) });
  }
  baseUrl ??= saved.base_url;
  if (!baseUrl) throw new UsageError('no base URL to log in to', ['Pass --base-url URL or set SVC_BASE_URL.']);
  baseUrl = checkBaseUrl(baseUrl);

  let apiKey: string;
  if (options.withKey) {
    apiKey = (await text(ctx.io.stdin)).trim();
    if (apiKey === '') throw new UsageError('--with-key read no key from standard input');
  } else if (ctx.flags.apiKey) {
    apiKey = ctx.flags.apiKey;
    ctx.warn('--api-key is visible to other users of this machine; prefer --with-key');
  } else if (ctx.canPrompt) {
    apiKey = await (await ctx.prompter()).secret(`API key for ${baseUrl}`, (value) => (value.trim() ? true : 'The key is empty.'));
  } else {
    throw new UsageError('no API key to save, and no terminal to ask for one', [
      'Pipe it in: printf %s "$SVC_KEY" | svc login --with-key',
    ]);
  }
  if (/\s/.test(apiKey)) throw new UsageError('the API key must not contain white space');

  const client = await ctx.clientFor(baseUrl, apiKey);
  const spinner = await ctx.spinner('Checking the key…');
  let plan: string | undefined;
  try {
    // Any success accepts the key, whatever the reply's shape (contract §4a).
    const reply = await client.request(target(ENDPOINTS.usage));
    plan = textOf(pick(reply.body, 'plan'));
  } catch (error) {
    if (error instanceof ApiError && error.exitCode === EXIT.auth) {
      throw new CliError(`the service rejected the key (${error.envelope.error_code}); nothing was saved`, EXIT.auth);
    }
    throw error;
  } finally {
    spinner.stop();
  }

  await store.update((d) => {
    d.profiles[profile] = { ...profileOf(d, profile), base_url: baseUrl, api_key: apiKey };
    d.current_profile = profile;
  });
  const mode = keyMode(apiKey);
  const onPlan = plan ? ` (plan ${oneLine(plan)})` : '';
  ctx.err(`✓ Logged in to ${baseUrl} with ${mode === 'unknown' ? 'a' : `a ${mode}`} key ${maskKey(apiKey)}${onPlan}`);
  ctx.err(`  Saved in profile "${profile}" of ${store.file}`);
}
