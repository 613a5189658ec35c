// `svc __complete SOURCE [FAMILY] [--profile P] [--base-url URL]`: the values a completion script
// cannot know in advance, read from this machine only: profile names from the config file, series
// selectors and scenario names from replies in the on-disk cache. Never a request, never a prompt:
// whatever cannot be read is simply not offered.
import { ENDPOINTS, requestUrl } from '../api/endpoints.js';
import { DATA_FAMILIES, latestPath } from '../commands/data/families.js';
import { itemListOf, selectorsOf } from '../commands/data/items.js';
import { DOCUMENTED_SCENARIOS, scenarioNames } from '../commands/sandbox/scenario-names.js';
import { cacheDir, configDir } from '../config/paths.js';
import { checkBaseUrl, resolveSettings } from '../config/resolve.js';
import { type ConfigDoc, ConfigStore, profileMap } from '../config/store.js';
import {
  DYNAMIC_SOURCES,
  type DynamicSource,
  isDynamicSource,
} from '../core/completion/sources.js';
import { oneLine } from '../core/output/format.js';
import type { Env } from '../core/variables.js';
import { ReplyCache } from '../service/cache.js';

export interface DynamicRequest {
  source: DynamicSource;
  /** data-selectors: the family whose selectors are wanted. */
  family?: string;
  /** --profile and --base-url as typed on the command line being completed. */
  profile?: string;
  baseUrl?: string;
}

/** One value to offer and a few words about it. */
export interface Candidate {
  value: string;
  description: string;
}

/**
 * A value a script may put on the command line as it is: bash inserts a completion unquoted, so
 * a cached reply offering `ov$(touch x)` would run it once the user presses Enter. Values outside
 * this set are not offered at all (none of the documented selectors or scenarios is).
 */
const INSERTABLE = /^[A-Za-z0-9._:@%+,/=-]+$/;

export function dynamicValues(request: DynamicRequest, env: Env): Candidate[] {
  return candidatesOf(request, env).filter((candidate) => INSERTABLE.test(candidate.value));
}

function candidatesOf(request: DynamicRequest, env: Env): Candidate[] {
  const doc = readConfig(env);
  if (!doc) return [];
  switch (request.source) {
    case 'profiles':
      return Object.entries(doc.profiles).map(([name, profile]) => ({
        value: name,
        description: [
          profile.base_url ?? '(no base URL)',
          name === doc.current_profile ? '(current)' : '',
        ]
          .join(' ')
          .trim(),
      }));
    case 'data-selectors': {
      const family = DATA_FAMILIES.find((f) => f.name === request.family);
      if (!family) return [];
      const selectors = selectorsOf(
        itemListOf(cachedBody(request, env, doc, latestPath(family)), family.selector),
      );
      return selectors.map((s) => ({
        value: s.value,
        description: [s.label, s.unit ? `(${s.unit})` : ''].filter(Boolean).join(' '),
      }));
    }
    case 'scenarios': {
      // A list fetched before, in whatever form; the documented names until there is one.
      const cached = cachedBody(request, env, doc, ENDPOINTS.sandboxScenarios.path);
      const names = cached === undefined ? [] : scenarioNames(cached);
      return names.length ? names : [...DOCUMENTED_SCENARIOS];
    }
  }
}

/** Runs `svc __complete …`: candidates on stdout, one `value<TAB>description` a line. */
export function completeCommand(
  argv: readonly string[],
  env: Env,
  out: (text: string) => void,
  err: (text: string) => void,
): number {
  const request = parseRequest(argv);
  if (typeof request === 'string') {
    err(`error: ${request}\n`);
    return 2;
  }
  const lines = dynamicValues(request, env).map(
    (c) => `${oneLine(c.value)}\t${oneLine(c.description)}\n`,
  );
  out(lines.join(''));
  return 0;
}

function parseRequest(argv: readonly string[]): DynamicRequest | string {
  const [source, ...rest] = argv;
  if (!isDynamicSource(source))
    return `usage: svc __complete ${Object.keys(DYNAMIC_SOURCES).join('|')} [FAMILY] [--profile P] [--base-url URL]`;
  const request: DynamicRequest = { source };
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i]!;
    const [flag, inline] =
      word.startsWith('--') && word.includes('=')
        ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]
        : [word, undefined];
    if (flag === '--profile' || flag === '--base-url') {
      const value = inline ?? rest[++i];
      if (flag === '--profile') request.profile = value;
      else request.baseUrl = value;
    } else if (request.family === undefined) request.family = word;
  }
  return request;
}

function readConfig(env: Env): ConfigDoc | undefined {
  const dir = configDir(env);
  if (dir === undefined) return { profiles: profileMap() }; // no home folder: no config file, as the commands read it
  try {
    return new ConfigStore(dir).read();
  } catch {
    return undefined; // a damaged config file: the command itself will say so
  }
}

/** The body of a cached GET of `path` for the profile and base URL in force, whatever its age. */
function cachedBody(request: DynamicRequest, env: Env, doc: ConfigDoc, path: string): unknown {
  try {
    const settings = resolveSettings(
      { profile: request.profile || undefined, baseUrl: request.baseUrl || undefined },
      env,
      doc,
    );
    const root = cacheDir(env);
    if (!settings.baseUrl || root === undefined) return undefined;
    const url = requestUrl(checkBaseUrl(settings.baseUrl), path).toString();
    const entry = new ReplyCache(root, settings.profile).read(url);
    return entry ? (JSON.parse(entry.raw) as unknown) : undefined;
  } catch {
    return undefined; // an unknown profile, a bad base URL, a damaged entry: nothing to offer
  }
}
