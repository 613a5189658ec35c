import { ENDPOINTS, target } from '../../api/endpoints.js';
import type { Context } from '../../app/context.js';
import type { KeyringEntry } from '../../config/keyring/keyring.js';
import {
  checkBaseUrl,
  currentProfileName,
  profileOf,
  profileToWrite,
  sameBaseUrl,
} from '../../config/resolve.js';
import { CliError, EXIT, InterruptedError, UsageError } from '../../core/errors.js';
import { noPromptReason } from '../../core/io.js';
import { shownText } from '../../core/output/format.js';
import { readEnv } from '../../service/environment.js';
import { ApiError } from '../../service/errors.js';
import { checkKeySize, keyMode, maskKey } from '../../service/keys.js';
import { ReplyReading } from '../../service/reading.js';
import { secretFromStdin } from '../tokens.js';

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

/**
 * The service's documented address: the base URL question's default answer where no profile has
 * one.
 */
const DOCUMENTED_BASE_URL = 'https://api.swippee.com';

/**
 * Where keys come from, for a first login. The service's documentation names no dashboard address,
 * so none is suggested: only where keys are made.
 */
const FIRST_LOGIN = {
  key: "API keys are created in the service's dashboard, which shows each one once, when it is made.",
  baseUrl: 'Give the address of the service without /v1: https, or http to this machine only.',
};

export async function login(
  ctx: Context,
  options: { withKey?: boolean; use?: boolean; insecureStorage?: boolean },
): Promise<void> {
  const store = await ctx.config.store();
  const doc = store.read();
  const profile = profileToWrite(ctx.flags, ctx.io.env, doc);
  const saved = profileOf(doc, profile) ?? {};

  let baseUrl = ctx.flags.baseUrl ?? readEnv(ctx.io.env, 'SVC_BASE_URL');
  const asking = ctx.canPrompt && !options.withKey;
  // A first login at a terminal: what the questions ask for, and where a key comes from.
  if (asking && Object.keys(doc.profiles).length === 0) {
    if (!ctx.flags.apiKey) ctx.err(FIRST_LOGIN.key);
    if (!baseUrl) ctx.err(FIRST_LOGIN.baseUrl);
  }
  if (!baseUrl && asking) {
    baseUrl = await ctx.prompter().text('Base URL of the service', {
      default: saved.base_url ?? DOCUMENTED_BASE_URL,
      validate: validateWith(checkBaseUrl),
    });
  }
  baseUrl ??= saved.base_url;
  if (!baseUrl)
    throw new UsageError('no base URL to log in to', ['Pass --base-url URL or set SVC_BASE_URL.']);
  baseUrl = checkBaseUrl(baseUrl);

  let apiKey: string;
  if (options.withKey) {
    apiKey = await secretFromStdin(ctx.io.stdin, '--with-key');
  } else if (ctx.flags.apiKey) {
    apiKey = checkKeySize(ctx.flags.apiKey, 'the API key given with --api-key');
    ctx.warn('--api-key is visible to other users of this machine; prefer --with-key');
  } else if (ctx.canPrompt) {
    // A base URL from the environment may be a leftover: the question says where it came from.
    const origin = ctx.flags.baseUrl
      ? ''
      : readEnv(ctx.io.env, 'SVC_BASE_URL')
        ? ' (from SVC_BASE_URL)'
        : '';
    const prompter = ctx.prompter();
    const typed = await prompter.secret(`API key for ${baseUrl}${origin}`, (value) =>
      value.trim() ? true : 'The key is empty.',
    );
    apiKey = checkKeySize(typed, 'the API key typed');
  } else {
    throw new UsageError(
      `no API key to save, and svc cannot ask for one: ${noPromptReason(ctx.io)}`,
      ['Pipe it in: printf %s "$SVC_API_KEY" | svc login --with-key'],
    );
  }
  if (/\s/.test(apiKey)) throw new UsageError('the API key must not contain white space');

  const client = await ctx.config.clientFor(baseUrl, apiKey);
  const spinner = await ctx.spinner('Checking the key…');
  let plan: string | undefined;
  try {
    // Any success accepts the key, whatever the reply's shape (docs/reference/output.md, "Reading
    // replies").
    const call = target(ENDPOINTS.usage);
    const reply = await client.request(call);
    const { readReply, UsageReply } = await import('../../api/replies/usage.js');
    plan = readReply(new ReplyReading(call.what), UsageReply, reply.body)?.plan;
  } catch (error) {
    if (error instanceof ApiError && error.exitCode === EXIT.auth) {
      throw new CliError(
        `the service rejected the key (${error.envelope.error_code}); nothing was saved`,
        EXIT.auth,
      );
    }
    throw error;
  } finally {
    spinner.stop();
  }

  // The key goes to the OS keyring when one answers (and --insecure-storage does not ask for the
  // file); else to config.json, and stderr says why.
  const hadKeyring = saved.api_key_in === 'keyring' && sameBaseUrl(saved.base_url, baseUrl);
  const kept = await keepKey(
    ctx,
    await ctx.config.keyringEntry(profile, baseUrl),
    apiKey,
    options.insecureStorage === true,
    hadKeyring,
  );
  const movedOut = kept.keyring !== undefined && saved.api_key !== undefined;

  let wasActive = '';
  let active = '';
  await store.update((d) => {
    const current = currentProfileName(d);
    const hadActive = profileOf(d, current) !== undefined;
    wasActive = hadActive ? current : '';
    // The file's current profile stays active, unless --use or there is none yet (or one that is
    // gone): then the one saved now becomes it.
    active = options.use || !hadActive ? profile : current;
    const { api_key: _inFile, api_key_in: _inKeyring, ...rest } = profileOf(d, profile) ?? {};
    d.profiles[profile] = kept.keyring
      ? { ...rest, base_url: baseUrl, api_key_in: 'keyring' }
      : { ...rest, base_url: baseUrl, api_key: apiKey };
    if (active === profile || d.current_profile !== undefined) d.current_profile = active;
  });
  const mode = keyMode(apiKey);
  const onPlan = plan ? ` (plan ${shownText(plan, ctx.secrets)})` : '';
  ctx.err(
    `✓ Logged in to ${baseUrl} with ${mode === 'unknown' ? 'a' : `a ${mode}`} key ${maskKey(apiKey)}${onPlan}`,
  );
  if (kept.keyring) {
    ctx.err(
      `  Saved in profile "${profile}" of ${store.file}, the key in ${kept.keyring} (${kept.entry})`,
    );
    if (movedOut) ctx.err(`  The key it held in ${store.file} was moved to ${kept.keyring}`);
  } else {
    ctx.err(`  Saved in profile "${profile}" of ${store.file}`);
  }
  if (active !== profile) {
    ctx.err(
      `  The active profile is still "${active}": pass --profile ${profile} to use this one, or switch with \`svc config use ${profile}\``,
    );
  } else if (wasActive !== profile && (wasActive !== '' || profile !== 'default')) {
    // Said unless this is the first login of all, to the profile every command uses by default.
    ctx.err(
      `  "${profile}" is now the active profile` + (wasActive ? ` (it was "${wasActive}")` : ''),
    );
  }
}

/**
 * Puts the key in the OS keyring, if one answers and the file was not asked for: `keyring` names
 * it then, and `entry` the key's entry in it. Otherwise the key goes to the config file, and
 * (unless --insecure-storage asked for it) one line on stderr says so and why, so the key is never
 * where the user does not know. `hadKeyring`: the keyring kept the profile's previous key for this
 * same base URL, and keeps it no longer (an entry of another base URL may be another config
 * folder's: it stays).
 */
async function keepKey(
  ctx: Context,
  entry: KeyringEntry,
  apiKey: string,
  fileAskedFor: boolean,
  hadKeyring: boolean,
): Promise<{ keyring?: string; entry?: string }> {
  const keyring = fileAskedFor && !hadKeyring ? undefined : await ctx.config.keyring();
  let why: string | undefined;
  if (keyring && !fileAskedFor) {
    why = await keyring.unavailable();
    if (why === undefined) {
      try {
        await keyring.write(entry, apiKey);
        return { keyring: keyring.name, entry: keyring.describe(entry) };
      } catch (error) {
        if (error instanceof InterruptedError) throw error;
        why = (error as Error).message;
      }
    }
    ctx.warn(
      `no OS keyring to keep the key in (${why}); it is saved in the config file (mode 0600) instead`,
    );
  }
  // A key the keyring kept for this profile before is not left behind there.
  if (keyring && hadKeyring && (await keyring.unavailable()) === undefined) {
    await keyring.remove(entry).catch((error: Error) => {
      if (error instanceof InterruptedError) throw error;
      ctx.warn(`the profile's previous key is still in ${keyring.name}: ${error.message}`);
    });
  }
  return {};
}
