// Where svc keeps its files: SVC_CONFIG_DIR / SVC_CACHE_DIR, else the platform's own folders.
import { homedir } from 'node:os';
import { join } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

export function configDir(env: Env, platform: NodeJS.Platform = process.platform): string {
  if (env.SVC_CONFIG_DIR) return env.SVC_CONFIG_DIR;
  const home = env.HOME || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', 'svc');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'svc', 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'svc');
}

export function cacheDir(env: Env, platform: NodeJS.Platform = process.platform): string {
  if (env.SVC_CACHE_DIR) return env.SVC_CACHE_DIR;
  const home = env.HOME || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'svc');
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'svc', 'Cache');
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'svc');
}

export function configFile(env: Env): string {
  return join(configDir(env), 'config.json');
}
