// Where svc keeps its files: SVC_CONFIG_DIR / SVC_CACHE_DIR / SVC_DATA_DIR, else the platform's own folders.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readEnv, type Env } from '../core/environment.js';

export function configDir(env: Env, platform: NodeJS.Platform = process.platform): string {
  const configured = readEnv(env, 'SVC_CONFIG_DIR');
  if (configured) return configured;
  const home = readEnv(env, 'HOME') || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', 'svc');
  if (platform === 'win32') return join(readEnv(env, 'APPDATA') || join(home, 'AppData', 'Roaming'), 'svc', 'Config');
  return join(readEnv(env, 'XDG_CONFIG_HOME') || join(home, '.config'), 'svc');
}

export function cacheDir(env: Env, platform: NodeJS.Platform = process.platform): string {
  const configured = readEnv(env, 'SVC_CACHE_DIR');
  if (configured) return configured;
  const home = readEnv(env, 'HOME') || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'svc');
  if (platform === 'win32') return join(readEnv(env, 'LOCALAPPDATA') || join(home, 'AppData', 'Local'), 'svc', 'Cache');
  return join(readEnv(env, 'XDG_CACHE_HOME') || join(home, '.cache'), 'svc');
}

/** Files svc keeps that are neither settings nor a cache: `svc mock`'s demo keys. */
export function dataDir(env: Env, platform: NodeJS.Platform = process.platform): string {
  const configured = readEnv(env, 'SVC_DATA_DIR');
  if (configured) return configured;
  const home = readEnv(env, 'HOME') || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'svc');
  if (platform === 'win32') return join(readEnv(env, 'LOCALAPPDATA') || join(home, 'AppData', 'Local'), 'svc', 'Data');
  return join(readEnv(env, 'XDG_DATA_HOME') || join(home, '.local', 'share'), 'svc');
}
