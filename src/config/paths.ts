// Where svc keeps its files: SVC_CONFIG_DIR / SVC_CACHE_DIR, else the platform's own folders.
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

export function configFile(env: Env): string {
  return join(configDir(env), 'config.json');
}
