// Settings resolution, one rule for all: flag > environment > active profile > default.
import { type CalendarName, calendarNamed, CALENDARS } from '../core/calendar/calendar.js';
import { EXIT, UsageError } from '../core/errors.js';
import { secureUrl, shownUrl } from '../core/urls.js';
import { type Env } from '../core/variables.js';
import { readEnv } from '../service/environment.js';
import { ApiError, type KeyRefused, MissingKeyError } from '../service/errors.js';
import { checkKeySize } from '../service/keys.js';
import type { ConfigDoc, Profile } from './store.js';

export type Source = 'flag' | 'env' | 'profile' | 'default' | 'none';

/** Where a profile's key is kept. */
export type KeyStore = 'file' | 'keyring';

/**
 * Where the key of a profile is kept, if it has one: the file's `api_key` wins over the keyring.
 */
export function keyStoreOf(profile: Profile | undefined): KeyStore | undefined {
  if (profile?.api_key !== undefined) return 'file';
  if (profile?.api_key_in === 'keyring') return 'keyring';
  return undefined;
}

export interface SettingFlags {
  apiKey?: string;
  baseUrl?: string;
  profile?: string;
}

export interface Settings {
  profile: string;
  profileSource: Source;
  baseUrl?: string;
  baseUrlSource: Source;
  apiKey?: string;
  apiKeySource: Source;
  /**
   * Where the profile's key in force is kept, when the key is the profile's: config.json, or the
   * OS keyring, whose key is read only when a command uses it (Context.config.apiKey): `apiKey`
   * is then undefined until it is read.
   */
  keyStore?: KeyStore;
  /** The profile's own base URL (config.json), which a key it keeps in the keyring is kept for. */
  profileBaseUrl?: string;
  /**
   * The profile holds a key that is not used: it was saved for another base URL than the one in
   * force (from --base-url or SVC_BASE_URL). `savedFor` is the profile's base URL, if it has one.
   */
  withheldKey?: { savedFor?: string };
}

function pick(
  flag: string | undefined,
  env: string | undefined,
  profile: string | undefined,
): [string | undefined, Source] {
  if (flag) return [flag, 'flag'];
  if (env) return [env, 'env'];
  if (profile) return [profile, 'profile'];
  return [undefined, 'none'];
}

/** The profile of that name, if the document has one: never a property every object has. */
export function profileOf(doc: ConfigDoc, name: string): Profile | undefined {
  return Object.hasOwn(doc.profiles, name) ? doc.profiles[name] : undefined;
}

/** The file's current profile, or "default" when the file names none (it may not exist). */
export function currentProfileName(doc: ConfigDoc): string {
  return doc.current_profile ?? 'default';
}

/** The profile in force: a named one must exist, the file's current one may still be empty. */
export function activeProfile(
  flags: SettingFlags,
  env: Env,
  doc: ConfigDoc,
): { name: string; source: Source } {
  const [named, source] = pick(flags.profile, readEnv(env, 'SVC_PROFILE'), undefined);
  if (named !== undefined) {
    refuseReservedName(named);
    if (!profileOf(doc, named)) throw unknownProfile(named, doc);
    return { name: named, source };
  }
  if (doc.current_profile) return { name: doc.current_profile, source: 'profile' };
  return { name: 'default', source: 'default' };
}

const PROFILE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Names JavaScript objects give a meaning of their own: a profile so named would be saved nowhere.
 */
const RESERVED_PROFILE_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

export function refuseReservedName(name: string): void {
  if (RESERVED_PROFILE_NAMES.has(name))
    throw new UsageError(`"${name}" is reserved and cannot name a profile; choose another name`);
}

/**
 * The profile a write goes to (login, config set): named ones may be new, so only the name is
 * checked.
 */
export function profileToWrite(flags: SettingFlags, env: Env, doc: ConfigDoc): string {
  const name = flags.profile ?? readEnv(env, 'SVC_PROFILE') ?? currentProfileName(doc);
  if (!PROFILE_NAME.test(name))
    throw new UsageError(
      `a profile name is 1 to 64 letters, digits, '.', '_' or '-', not "${name}"`,
    );
  refuseReservedName(name);
  return name;
}

export function unknownProfile(name: string, doc: ConfigDoc): UsageError {
  const known = Object.keys(doc.profiles);
  return new UsageError(
    `unknown profile "${name}"` +
      (known.length ? ` (profiles: ${known.join(', ')})` : ' (no profiles are configured)'),
    [`Create it with \`svc login --profile ${name}\`.`],
  );
}

/**
 * The calendar in force (docs/reference/dates.md): --calendar > SVC_CALENDAR > the active profile's
 * `calendar` > ad. A value svc does not know, in the environment or the file, is a usage error
 * naming where it is.
 */
export function resolveCalendar(
  flags: SettingFlags & { calendar?: CalendarName },
  env: Env,
  doc: ConfigDoc,
): CalendarName {
  if (flags.calendar) return flags.calendar;
  const fromEnv = readEnv(env, 'SVC_CALENDAR');
  if (fromEnv) {
    const name = calendarNamed(fromEnv);
    if (!name)
      throw new UsageError(`SVC_CALENDAR takes ${CALENDARS.join(' or ')}, not "${fromEnv}"`);
    return name;
  }
  const { name: profile } = activeProfile(flags, env, doc);
  const saved = profileOf(doc, profile)?.calendar;
  if (saved === undefined) return 'ad';
  const name = calendarNamed(saved);
  if (!name)
    throw new UsageError(
      `the calendar of profile "${profile}" is "${saved}", which svc does not know`,
      [`Run \`svc config set calendar ${CALENDARS.join('|')}\`.`],
    );
  return name;
}

/** The pager when none is named, as gh's and git's. */
const DEFAULT_PAGER = 'less -FRX';

/**
 * The pager's command line (docs/reference/output.md, "Pager"), undefined for none: --no-pager >
 * SVC_PAGER > the active profile's `pager` > PAGER > less -FRX. An empty value (or `cat`, which
 * would only copy) is none.
 */
export function resolvePager(
  flags: SettingFlags & { pager?: boolean },
  env: Env,
  doc: ConfigDoc,
): string | undefined {
  if (flags.pager === false) return undefined;
  // A profile named but missing is the command's to refuse, not the pager's: it names no pager.
  const profile = profileOf(
    doc,
    flags.profile ?? readEnv(env, 'SVC_PROFILE') ?? currentProfileName(doc),
  );
  const named =
    readEnv(env, 'SVC_PAGER') ?? profile?.pager ?? readEnv(env, 'PAGER') ?? DEFAULT_PAGER;
  return named.trim() === '' || named.trim() === 'cat' ? undefined : named;
}

export function resolveSettings(flags: SettingFlags, env: Env, doc: ConfigDoc): Settings {
  const { name, source } = activeProfile(flags, env, doc);
  const profile: Profile = profileOf(doc, name) ?? {};
  const [baseUrl, baseUrlSource] = pick(
    flags.baseUrl,
    readEnv(env, 'SVC_BASE_URL'),
    profile.base_url,
  );
  // A profile's key goes only to the base URL it was saved with (as gh binds a token to its host):
  // a leftover SVC_BASE_URL must not hand a live key to whatever listens there.
  const store = keyStoreOf(profile);
  const keyTravels =
    store !== undefined &&
    (baseUrlSource === 'profile' ||
      baseUrlSource === 'none' ||
      sameBaseUrl(baseUrl, profile.base_url));
  const [apiKey, picked] = pick(
    flags.apiKey,
    readEnv(env, 'SVC_API_KEY'),
    keyTravels ? profile.api_key : undefined,
  );
  if (apiKey !== undefined)
    checkKeySize(
      apiKey,
      picked === 'flag'
        ? 'the API key given with --api-key'
        : picked === 'env'
          ? 'the API key in SVC_API_KEY'
          : `the API key of profile "${name}" in the config file`,
    );
  // A key in the keyring is the profile's too; it is read when a command uses it, not here.
  const fromKeyring = picked === 'none' && keyTravels && store === 'keyring';
  const apiKeySource: Source = fromKeyring ? 'profile' : picked;
  const settings: Settings = {
    profile: name,
    profileSource: source,
    baseUrl,
    baseUrlSource,
    apiKey,
    apiKeySource,
    profileBaseUrl: profile.base_url,
  };
  if (apiKeySource === 'profile') settings.keyStore = store;
  if (apiKeySource === 'none' && store !== undefined && !keyTravels)
    settings.withheldKey = { savedFor: profile.base_url };
  return settings;
}

/** Whether two base URLs name the same service once written the one way (`checkBaseUrl`). */
export function sameBaseUrl(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  const normal = (value: string) => {
    try {
      return checkBaseUrl(value);
    } catch {
      return undefined;
    }
  };
  const [x, y] = [normal(a), normal(b)];
  return x !== undefined && x === y;
}

/**
 * Checks a base URL and returns it without a trailing slash. `http://` is for loopback only: a key
 * never travels in clear text.
 */
export function checkBaseUrl(value: string): string {
  const { url, problem } = secureUrl(value, 'https://api.example.com');
  const shown = shownUrl(value);
  if (!url)
    throw new UsageError(`the base URL "${shown}" ${problem}`, [
      'Over http the API key would travel in clear text.',
    ]);
  // The key is the one credential svc sends; a user name or password would be sent with it, and
  // shown.
  if (url.username || url.password)
    throw new UsageError(`the base URL "${shown}" must not carry a user name or password`);
  if (url.search || url.hash)
    throw new UsageError(`the base URL "${shown}" must not carry a query or fragment`);
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/v1$/.test(path))
    throw new UsageError(`the base URL must not end in /v1: use ${url.origin}${path.slice(0, -3)}`);
  return url.origin + path;
}

export function requireBaseUrl(settings: Settings): string {
  if (!settings.baseUrl) {
    throw new UsageError('no base URL configured', [
      'Run `svc login`, or set SVC_BASE_URL (or pass --base-url).',
    ]);
  }
  return checkBaseUrl(settings.baseUrl);
}

export function requireApiKey(settings: Settings): string {
  if (!settings.apiKey && settings.withheldKey)
    throw withheldKeyError(settings, settings.withheldKey.savedFor);
  if (!settings.apiKey) {
    throw new MissingKeyError('no API key configured', [
      'Run `svc login`, or set SVC_API_KEY (or pass --api-key).',
    ]);
  }
  return settings.apiKey;
}

function withheldKeyError(settings: Settings, savedFor: string | undefined): MissingKeyError {
  const origin = settings.baseUrlSource === 'flag' ? '--base-url' : 'SVC_BASE_URL';
  const target = shownUrl(settings.baseUrl ?? '');
  const kept =
    savedFor === undefined ? 'was saved with no base URL' : `was saved for ${shownUrl(savedFor)}`;
  return new MissingKeyError(
    `the key of profile "${settings.profile}" ${kept}; it is not sent to ${target} (from ${origin})`,
    [
      `Pass that service's key with --api-key or SVC_API_KEY, or ${origin === '--base-url' ? 'drop --base-url' : 'unset SVC_BASE_URL'} to use the profile's own.`,
    ],
  );
}

/** Where the key in force came from, for a message about it (the key itself is never named). */
export function keySource(settings: Settings): KeyRefused {
  const source =
    settings.apiKeySource === 'flag' || settings.apiKeySource === 'env'
      ? settings.apiKeySource
      : 'profile';
  return { kind: 'key-refused', source, profile: settings.profile };
}

/**
 * An authentication failure that is about the API key: INVALID_API_KEY and its kin, not a refused
 * consent or access token (INVALID_CONSENT_TOKEN, INVALID_ACCESS_TOKEN), which the key did not
 * cause.
 */
export function refusesKey(error: unknown): error is ApiError {
  return error instanceof ApiError && error.exitCode === EXIT.auth && !refusesToken(error);
}

/** The other authentication failures: a consent or access token refused (INVALID_ACCESS_TOKEN…). */
export function refusesToken(error: unknown): error is ApiError {
  return (
    error instanceof ApiError &&
    error.exitCode === EXIT.auth &&
    /TOKEN/i.test(error.envelope.error_code)
  );
}
