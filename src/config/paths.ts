// Where svc keeps its files: SVC_CONFIG_DIR / SVC_CACHE_DIR / SVC_DATA_DIR, else the platform's own folders.
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readEnv, type Env } from '../core/environment.js';

export function configDir(env: Env, platform: NodeJS.Platform = process.platform): string {
  return folder(env, platform, {
    configured: readEnv(env, 'SVC_CONFIG_DIR'),
    mac: 'Preferences',
    windows: { base: readEnv(env, 'APPDATA'), belowHome: ['AppData', 'Roaming'], sub: 'Config' },
    xdg: { base: readEnv(env, 'XDG_CONFIG_HOME'), belowHome: ['.config'] },
  });
}

/**
 * Whether the config folder in force is the platform's own: SVC_CONFIG_DIR unset, or naming that
 * same folder. A key an earlier svc kept in the OS keyring with no base URL was saved from there,
 * and is used from there only: any repository's .envrc can set SVC_CONFIG_DIR.
 */
export function isDefaultConfigDir(env: Env, platform: NodeJS.Platform = process.platform): boolean {
  const named = readEnv(env, 'SVC_CONFIG_DIR');
  if (!named) return true;
  try {
    return realpathSync(named) === realpathSync(configDir({ ...env, SVC_CONFIG_DIR: undefined }, platform));
  } catch {
    // A folder that is not there holds no profile whose key could be meant.
    return false;
  }
}

export function cacheDir(env: Env, platform: NodeJS.Platform = process.platform): string {
  return folder(env, platform, {
    configured: readEnv(env, 'SVC_CACHE_DIR'),
    mac: 'Caches',
    windows: { base: readEnv(env, 'LOCALAPPDATA'), belowHome: ['AppData', 'Local'], sub: 'Cache' },
    xdg: { base: readEnv(env, 'XDG_CACHE_HOME'), belowHome: ['.cache'] },
  });
}

/** Files svc keeps that are neither settings nor a cache: `svc mock`'s demo keys. */
export function dataDir(env: Env, platform: NodeJS.Platform = process.platform): string {
  return folder(env, platform, {
    configured: readEnv(env, 'SVC_DATA_DIR'),
    mac: 'Application Support',
    windows: { base: readEnv(env, 'LOCALAPPDATA'), belowHome: ['AppData', 'Local'], sub: 'Data' },
    xdg: { base: readEnv(env, 'XDG_DATA_HOME'), belowHome: ['.local', 'share'] },
  });
}

/** Where one kind of file may be kept (the variables already read: an empty one counts as unset). */
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

function folder(env: Env, platform: NodeJS.Platform, places: Places): string {
  if (places.configured) return places.configured;
  const home = readEnv(env, 'HOME') || homedir();
  if (platform === 'darwin') return join(home, 'Library', places.mac, 'svc');
  if (platform === 'win32') return join(places.windows.base || join(home, ...places.windows.belowHome), 'svc', places.windows.sub);
  return join(places.xdg.base || join(home, ...places.xdg.belowHome), 'svc');
}
