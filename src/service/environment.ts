// THE list of environment variables svc reads. Code reads a variable only through `readEnv`, whose
// name parameter is typed from this list (core's, core/variables.ts, takes the common variables
// only, each listed here: a test checks it), so a variable cannot be read without being listed
// here; `svc help environment` and the man page are printed from the same list.
import { type Env } from '../core/variables.js';

export interface EnvironmentVariable {
  readonly name: string;
  /** The same setting under another spelling (the lower-case proxy variables). */
  readonly alias?: string;
  readonly group: EnvironmentGroup;
  readonly description: string;
  /** Read by Node itself, not by svc: listed so that people find it. */
  readonly readByNode?: true;
}

export type EnvironmentGroup = 'settings' | 'output' | 'network' | 'folders';

export const ENVIRONMENT_GROUPS: readonly {
  readonly group: EnvironmentGroup;
  readonly title: string;
}[] = [
  { group: 'settings', title: 'Settings (flag > environment > active profile > default)' },
  { group: 'output', title: 'Output, colour and prompts' },
  { group: 'network', title: 'Network' },
  { group: 'folders', title: 'Folders' },
];

export const ENVIRONMENT = [
  {
    name: 'SVC_API_KEY',
    group: 'settings',
    description:
      "API key (svc_sk_live_… or svc_sk_test_…; sk_live_… and sk_test_… are read as live and test keys too). Overrides the profile's key; --api-key overrides it. Prefer it to --api-key, which other users can see in the process list.",
  },
  {
    name: 'SVC_BASE_URL',
    group: 'settings',
    description:
      'Address of the service, without /v1. http:// only to this machine (localhost, 127.0.0.0/8, ::1).',
  },
  {
    name: 'SVC_PROFILE',
    group: 'settings',
    description:
      "Profile of the config file to use, instead of the file's current profile (--profile overrides it).",
  },
  {
    name: 'SVC_CALENDAR',
    group: 'settings',
    description:
      "Calendar of the dates tables show and --since, --until take: ad (default) or bs, Bikram Sambat (svc help calendar). Overrides the profile's `calendar`; --calendar overrides it.",
  },
  {
    name: 'SVC_DEBUG',
    group: 'settings',
    description:
      'Set to 1: the same as --debug, one stderr line per HTTP request and reply, the key masked.',
  },
  {
    name: 'SVC_ACCESS_TOKEN',
    group: 'settings',
    description:
      'Access token of a Connect grant (from `svc connect exchange`), for `svc grants data`; --access-token overrides it. Sent in the X-Svc-Access-Token header, never in a URL, and masked in every output.',
  },
  {
    name: 'SVC_CONSENT_TOKEN',
    group: 'settings',
    description:
      'Consent token, for `svc consents data` (--token and --token-stdin override it). Sent as the token query parameter, and masked in every output.',
  },
  {
    name: 'DBUS_SESSION_BUS_ADDRESS',
    group: 'settings',
    description:
      'Linux: the session bus, where `svc login` looks for a Secret Service (GNOME Keyring, KWallet, KeePassXC) to keep keys in. Unset, or no Secret Service answering within 2 s: keys are kept in config.json, and svc login says so.',
  },
  {
    name: 'SVC_WEBHOOK_SECRET',
    group: 'settings',
    description:
      'Signing secret of webhook deliveries, for `svc webhooks listen` and `verify` (--secret overrides it).',
  },
  {
    name: 'NO_COLOR',
    group: 'output',
    description:
      'Set to anything but the empty string: never colour, whatever else says so (as --no-color).',
  },
  { name: 'CLICOLOR', group: 'output', description: 'Set to 0: no colour, even on a terminal.' },
  {
    name: 'FORCE_COLOR',
    group: 'output',
    description: 'Set, and not 0: colour even when stdout is not a terminal (NO_COLOR still wins).',
  },
  {
    name: 'CLICOLOR_FORCE',
    group: 'output',
    description: 'Set, and not 0: the same as FORCE_COLOR.',
  },
  { name: 'TERM', group: 'output', description: 'dumb: no colour on that terminal.' },
  {
    name: 'SVC_PAGER',
    group: 'output',
    description:
      "Pager of output taller than the terminal, when stdout is one: a command line, as `less -R`. Set to the empty string: no pager (as --no-pager). Overrides the profile's `pager`, which overrides PAGER.",
  },
  {
    name: 'PAGER',
    group: 'output',
    description:
      'Pager of every program, svc included when neither SVC_PAGER nor the profile names one (default: less -FRX). Empty: no pager.',
  },
  {
    name: 'LESS',
    group: 'output',
    description:
      'Options of less. When it is unset, svc runs its pager with LESS=FRX: colour passes through, and less quits at once when the output fits the screen.',
  },
  {
    name: 'TZ',
    group: 'output',
    description:
      "Time zone of the times tables show, as an IANA name (Asia/Kathmandu, UTC; default: the system's). --json, ndjson and csv keep the times as the service sent them.",
  },
  {
    name: 'CI',
    group: 'output',
    description:
      "Set, and not 0 or false: never prompt; a missing value is a usage error (exit 2) instead. Set at all, it also turns off Node's compile cache.",
  },
  {
    name: 'HTTPS_PROXY',
    alias: 'https_proxy',
    group: 'network',
    description: 'Proxy for https:// requests (the lower-case spelling is read first).',
  },
  {
    name: 'HTTP_PROXY',
    alias: 'http_proxy',
    group: 'network',
    description: 'Proxy for http:// requests (the lower-case spelling is read first).',
  },
  {
    name: 'NO_PROXY',
    alias: 'no_proxy',
    group: 'network',
    description:
      'Comma-separated hosts reached without the proxy (the lower-case spelling is read first).',
  },
  {
    name: 'NODE_EXTRA_CA_CERTS',
    group: 'network',
    readByNode: true,
    description:
      'Read by Node at start: a PEM file of extra certificate authorities to trust, for a proxy that intercepts TLS or a service with a private certificate.',
  },
  {
    name: 'SVC_CONFIG_DIR',
    group: 'folders',
    description: 'Folder of config.json (default: $XDG_CONFIG_HOME/svc, ~/.config/svc on Linux).',
  },
  {
    name: 'SVC_CACHE_DIR',
    group: 'folders',
    description:
      'Folder of the dataset reply cache and of the compiled program (default: $XDG_CACHE_HOME/svc, ~/.cache/svc on Linux).',
  },
  {
    name: 'SVC_DATA_DIR',
    group: 'folders',
    description:
      "Folder of `svc mock`'s demo keys, mock-keys.json, and of the signing secret svc's webhook listeners bring to it, webhook-secret (default: $XDG_DATA_HOME/svc, ~/.local/share/svc on Linux).",
  },
  {
    name: 'TMPDIR',
    group: 'folders',
    readByNode: true,
    description:
      'Where `merchants resolve` keeps, for one run, a private copy (0600, deleted at once) of lookups from standard input that it reads twice.',
  },
  {
    name: 'XDG_CONFIG_HOME',
    group: 'folders',
    description: 'Linux: the config folder is $XDG_CONFIG_HOME/svc when SVC_CONFIG_DIR is not set.',
  },
  {
    name: 'XDG_CACHE_HOME',
    group: 'folders',
    description: 'Linux: the cache folder is $XDG_CACHE_HOME/svc when SVC_CACHE_DIR is not set.',
  },
  {
    name: 'XDG_DATA_HOME',
    group: 'folders',
    description: 'Linux: the data folder is $XDG_DATA_HOME/svc when SVC_DATA_DIR is not set.',
  },
  { name: 'HOME', group: 'folders', description: 'Home folder, the base of the default folders.' },
  {
    name: 'APPDATA',
    group: 'folders',
    description: 'Windows: the config folder is %APPDATA%\\svc\\Config.',
  },
  {
    name: 'LOCALAPPDATA',
    group: 'folders',
    description:
      'Windows: the cache folder is %LOCALAPPDATA%\\svc\\Cache, the data folder %LOCALAPPDATA%\\svc\\Data.',
  },
] as const satisfies readonly EnvironmentVariable[];

type Listed = Exclude<(typeof ENVIRONMENT)[number], { readByNode: true }>;
export type VariableName = Listed['name'] | Extract<Listed, { alias: string }>['alias'];

/** The value of a listed variable, exactly as set (an empty string stays empty). */
export function readEnv(env: Env, name: VariableName): string | undefined {
  return env[name];
}

/** svc's own variables, set aside for a pager or a browser: keys, tokens and secrets among them. */
export function isOwnVariable(name: string): boolean {
  return name.toUpperCase().startsWith('SVC_');
}
