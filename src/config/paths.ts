// Where svc keeps its files: SVC_CONFIG_DIR / SVC_CACHE_DIR / SVC_DATA_DIR, else the platform's own
// folders.
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

import { type Env } from '../core/variables.js';
//
// A user may have no home folder: a container run as a bare uid, with HOME unset and no entry in
// /etc/passwd. A folder no variable names then has no place (undefined), and each caller decides:
// a command that must keep a file there fails with NO_HOME, one that can do without does without.
import { readEnv } from '../service/environment.js';

/**
 * The home folder as the system knows it (os.homedir), which throws for a user it has no entry for.
 */
export type SystemHome = () => string;

/**
 * Why no folder of svc's could be placed (an error as it stands: exit 2, missing configuration).
 */
export const NO_HOME =
  'there is no home folder for this user (HOME is unset, and the system has none): set SVC_CONFIG_DIR, SVC_CACHE_DIR and SVC_DATA_DIR to folders of your own';

export function configDir(
  env: Env,
  platform: NodeJS.Platform = process.platform,
  systemHome: SystemHome = homedir,
): string | undefined {
  return folder(env, platform, systemHome, {
    configured: readEnv(env, 'SVC_CONFIG_DIR'),
    mac: 'Preferences',
    windows: { base: readEnv(env, 'APPDATA'), belowHome: ['AppData', 'Roaming'], sub: 'Config' },
    xdg: { base: readEnv(env, 'XDG_CONFIG_HOME'), belowHome: ['.config'] },
  });
}

/**
 * Whether the config folder in force is the platform's own: SVC_CONFIG_DIR unset, or naming that
 * same folder. A legacy key in the OS keyring, kept with no base URL, was saved from there, and
 * is used from there only: any repository's .envrc can set SVC_CONFIG_DIR.
 */
export function isDefaultConfigDir(
  env: Env,
  platform: NodeJS.Platform = process.platform,
  systemHome: SystemHome = homedir,
): boolean {
  const named = readEnv(env, 'SVC_CONFIG_DIR');
  if (!named) return true;
  const own = configDir({ ...env, SVC_CONFIG_DIR: undefined }, platform, systemHome);
  if (own === undefined) return false;
  try {
    return realpathSync(named) === realpathSync(own);
  } catch {
    // A folder that is not there holds no profile whose key could be meant.
    return false;
  }
}

export function cacheDir(
  env: Env,
  platform: NodeJS.Platform = process.platform,
  systemHome: SystemHome = homedir,
): string | undefined {
  return folder(env, platform, systemHome, {
    configured: readEnv(env, 'SVC_CACHE_DIR'),
    mac: 'Caches',
    windows: { base: readEnv(env, 'LOCALAPPDATA'), belowHome: ['AppData', 'Local'], sub: 'Cache' },
    xdg: { base: readEnv(env, 'XDG_CACHE_HOME'), belowHome: ['.cache'] },
  });
}

/** Files svc keeps that are neither settings nor a cache: `svc mock`'s demo keys. */
export function dataDir(
  env: Env,
  platform: NodeJS.Platform = process.platform,
  systemHome: SystemHome = homedir,
): string | undefined {
  return folder(env, platform, systemHome, {
    configured: readEnv(env, 'SVC_DATA_DIR'),
    mac: 'Application Support',
    windows: { base: readEnv(env, 'LOCALAPPDATA'), belowHome: ['AppData', 'Local'], sub: 'Data' },
    xdg: { base: readEnv(env, 'XDG_DATA_HOME'), belowHome: ['.local', 'share'] },
  });
}

/** The user's home folder: HOME, else the system's; undefined when neither names one. */
export function homeFolder(env: Env, systemHome: SystemHome = homedir): string | undefined {
  const home = readEnv(env, 'HOME');
  if (home) return home;
  try {
    return systemHome() || undefined;
  } catch {
    return undefined; // ENOENT: no entry for this uid in the user database
  }
}

/**
 * Where one kind of file may be kept (the variables already read: an empty one counts as unset).
 */
interface Places {
  /** SVC_…_DIR: the folder the user names. */
  configured: string | undefined;
  /** macOS: ~/Library/<mac>/svc. */
  mac: string;
  /** Windows: <base, else the home folder's belowHome>\svc\<sub>. */
  windows: { base: string | undefined; belowHome: string[]; sub: string };
  /** Elsewhere: <the XDG folder, else the home folder's belowHome>/svc. */
  xdg: { base: string | undefined; belowHome: string[] };
}

/** The folder, or undefined when it lies under a home folder there is none of. */
function folder(
  env: Env,
  platform: NodeJS.Platform,
  systemHome: SystemHome,
  places: Places,
): string | undefined {
  if (places.configured) return places.configured;
  const base =
    platform === 'darwin'
      ? undefined
      : platform === 'win32'
        ? places.windows.base
        : places.xdg.base;
  const sub = platform === 'win32' ? ['svc', places.windows.sub] : ['svc'];
  if (base) return join(base, ...sub);
  // Looked up only here: an XDG or Windows folder named in the environment does without it.
  const home = homeFolder(env, systemHome);
  if (home === undefined) return undefined;
  const belowHome =
    platform === 'darwin'
      ? ['Library', places.mac]
      : platform === 'win32'
        ? places.windows.belowHome
        : places.xdg.belowHome;
  return join(home, ...belowHome, ...sub);
}
