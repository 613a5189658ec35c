// The environment list is THE list: the code reads variables only through readEnv (typed from it),
// every listed variable is read somewhere, and each read gives the value as set.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { HELP_TOPICS } from '../../src/commands/help/topics.js';
import { cacheDir, configDir, dataDir, homeFolder } from '../../src/config/paths.js';
import { activeProfile, resolveSettings } from '../../src/config/resolve.js';
import { canPrompt, colorEnabled, type IO } from '../../src/core/io.js';
import { renderText } from '../../src/core/program/document.js';
import { buildProgram } from '../../src/main.js';
import { ENVIRONMENT, readEnv } from '../../src/service/environment.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function sources(dir: string): { path: string; code: string }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return { path: relative(SRC, path), code: readFileSync(path, 'utf8') };
    });
}

const names: string[] = ENVIRONMENT.flatMap((v) => ('alias' in v ? [v.name, v.alias] : [v.name]));

describe('the environment list', () => {
  const files = sources(SRC).filter(
    (file) =>
      ![join('service', 'environment.ts'), join('core', 'variables.ts')].includes(file.path),
  );

  it('is the only way the code reads a variable', () => {
    const direct = files.flatMap(({ path, code }) =>
      [
        ...code.matchAll(/\benv\s*(?:\?\.|\.)\s*[A-Za-z_]\w*|\benv\s*\[|process\.env\s*(?:\.|\[)/g),
      ].map((match) => `${path}: ${match[0]}`),
    );
    expect(direct).toEqual([]);
  });

  it('lists every variable the code reads, and the code reads every variable it lists (but those Node reads)', () => {
    const read = new Set(
      files.flatMap(({ code }) =>
        [...code.matchAll(/readEnv\([^,]+,\s*'(\w+)'\)/g)].map((match) => match[1]!),
      ),
    );
    expect([...read].filter((name) => !names.includes(name))).toEqual([]);
    const readByNode = new Set<string>(
      ENVIRONMENT.filter((v) => 'readByNode' in v).map((v) => v.name),
    );
    expect(names.filter((name) => !read.has(name) && !readByNode.has(name))).toEqual([]);
  });

  it('has one entry per name, each with a description', () => {
    expect(new Set(names).size).toBe(names.length);
    for (const variable of ENVIRONMENT) expect(variable.description.length).toBeGreaterThan(10);
  });

  it('is what `svc help environment` prints', () => {
    const topic = HELP_TOPICS.find((t) => t.name === 'environment')!;
    const text = renderText(
      topic.body(buildProgram({ action: () => async () => {} }, ioWith({}))),
      100,
    );
    for (const name of names) expect(text).toContain(name);
  });

  it('readEnv gives the value as set, an empty string included', () => {
    expect(readEnv({ SVC_PROFILE: 'staging' }, 'SVC_PROFILE')).toBe('staging');
    expect(readEnv({ NO_COLOR: '' }, 'NO_COLOR')).toBe('');
    expect(readEnv({}, 'CI')).toBeUndefined();
  });
});

function ioWith(env: Record<string, string>, tty = true): IO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    stdinIsTTY: tty,
    env,
    columns: 80,
  };
}

describe('the reads behave as before', () => {
  it.each([
    [{}, true, false, true],
    [{}, false, false, false],
    [{ NO_COLOR: '1', FORCE_COLOR: '1' }, true, false, false],
    [{ NO_COLOR: '' }, true, false, true],
    [{ FORCE_COLOR: '1' }, false, false, true],
    [{ FORCE_COLOR: '0' }, false, false, false],
    [{ CLICOLOR_FORCE: '1' }, false, false, true],
    [{ CLICOLOR: '0' }, true, false, false],
    [{ TERM: 'dumb' }, true, false, false],
    [{ FORCE_COLOR: '1' }, true, true, false],
  ] as const)('colour with %j, tty %s, --no-color %s: %s', (env, tty, noColor, expected) => {
    expect(colorEnabled(env, tty, noColor)).toBe(expected);
  });

  it.each([
    [{}, true],
    [{ CI: 'true' }, false],
    [{ CI: '1' }, false],
    [{ CI: 'false' }, true],
    [{ CI: 'FALSE' }, true],
    [{ CI: '0' }, true],
    [{ CI: '' }, true],
  ] as const)('prompts with %j: %s', (env, expected) => {
    expect(canPrompt(ioWith(env))).toBe(expected);
  });

  it('folders: SVC_*_DIR, else XDG, else HOME (an empty value counts as unset)', () => {
    expect(configDir({ SVC_CONFIG_DIR: '/c', HOME: '/h' }, 'linux')).toBe('/c');
    expect(configDir({ SVC_CONFIG_DIR: '', XDG_CONFIG_HOME: '/x', HOME: '/h' }, 'linux')).toBe(
      join('/x', 'svc'),
    );
    expect(configDir({ HOME: '/h' }, 'linux')).toBe(join('/h', '.config', 'svc'));
    expect(configDir({ HOME: '/h' }, 'darwin')).toBe(join('/h', 'Library', 'Preferences', 'svc'));
    expect(configDir({ HOME: '/h', APPDATA: 'A' }, 'win32')).toBe(join('A', 'svc', 'Config'));
    expect(cacheDir({ SVC_CACHE_DIR: '/k' }, 'linux')).toBe('/k');
    expect(cacheDir({ XDG_CACHE_HOME: '/x', HOME: '/h' }, 'linux')).toBe(join('/x', 'svc'));
    expect(cacheDir({ HOME: '/h', LOCALAPPDATA: 'L' }, 'win32')).toBe(join('L', 'svc', 'Cache'));
    expect(dataDir({ SVC_DATA_DIR: '/d', XDG_DATA_HOME: '/x', HOME: '/h' }, 'linux')).toBe('/d');
    expect(dataDir({ SVC_DATA_DIR: '', XDG_DATA_HOME: '/x', HOME: '/h' }, 'linux')).toBe(
      join('/x', 'svc'),
    );
    expect(dataDir({ HOME: '/h' }, 'linux')).toBe(join('/h', '.local', 'share', 'svc'));
    expect(dataDir({ HOME: '/h' }, 'darwin')).toBe(
      join('/h', 'Library', 'Application Support', 'svc'),
    );
    expect(dataDir({ HOME: '/h', LOCALAPPDATA: 'L' }, 'win32')).toBe(join('L', 'svc', 'Data'));
    // Every folder on every platform, the Windows ones without their variable too.
    expect(cacheDir({ HOME: '/h' }, 'linux')).toBe(join('/h', '.cache', 'svc'));
    expect(cacheDir({ HOME: '/h' }, 'darwin')).toBe(join('/h', 'Library', 'Caches', 'svc'));
    expect(configDir({ HOME: '/h', APPDATA: '' }, 'win32')).toBe(
      join('/h', 'AppData', 'Roaming', 'svc', 'Config'),
    );
    expect(cacheDir({ HOME: '/h' }, 'win32')).toBe(join('/h', 'AppData', 'Local', 'svc', 'Cache'));
    expect(dataDir({ HOME: '/h' }, 'win32')).toBe(join('/h', 'AppData', 'Local', 'svc', 'Data'));
    expect(dataDir({ SVC_DATA_DIR: '/d' }, 'win32')).toBe('/d');
  });

  describe('folders for a user with no home folder (HOME unset, no entry in the user database)', () => {
    /** os.homedir as it fails for a uid /etc/passwd does not list. */
    const noEntry = () => {
      throw Object.assign(
        new Error(
          'A system error occurred: uv_os_homedir returned ENOENT (no such file or directory)',
        ),
        { code: 'ERR_SYSTEM_ERROR' },
      );
    };

    it('a folder under the home folder has no place: undefined, not a throw', () => {
      for (const platform of ['linux', 'darwin', 'win32'] as const) {
        expect(configDir({}, platform, noEntry)).toBeUndefined();
        expect(cacheDir({ HOME: '' }, platform, noEntry)).toBeUndefined();
        expect(dataDir({}, platform, noEntry)).toBeUndefined();
      }
      expect(homeFolder({}, noEntry)).toBeUndefined();
      expect(homeFolder({}, () => '')).toBeUndefined();
    });

    it('a folder a variable names needs no home folder: the home folder is not even asked for', () => {
      const asked: string[] = [];
      const home = () => {
        asked.push('home');
        return noEntry();
      };
      expect(configDir({ SVC_CONFIG_DIR: '/c' }, 'linux', home)).toBe('/c');
      expect(cacheDir({ XDG_CACHE_HOME: '/x' }, 'linux', home)).toBe(join('/x', 'svc'));
      expect(dataDir({ LOCALAPPDATA: 'L' }, 'win32', home)).toBe(join('L', 'svc', 'Data'));
      expect(asked).toEqual([]);
    });

    it("HOME unset, the system's home folder is used; HOME wins over it", () => {
      expect(configDir({}, 'linux', () => '/sys-home')).toBe(join('/sys-home', '.config', 'svc'));
      expect(homeFolder({ HOME: '/h' }, () => '/sys-home')).toBe('/h');
    });
  });

  it('settings: flag > environment > profile', () => {
    const doc = {
      current_profile: 'a',
      profiles: { a: { base_url: 'https://a', api_key: 'ka' }, b: { base_url: 'https://b' } },
    };
    expect(
      resolveSettings({}, { SVC_BASE_URL: 'https://env', SVC_API_KEY: 'kenv' }, doc),
    ).toMatchObject({ profile: 'a', baseUrl: 'https://env', apiKey: 'kenv' });
    expect(
      resolveSettings({ baseUrl: 'https://flag' }, { SVC_BASE_URL: 'https://env' }, doc),
    ).toMatchObject({ baseUrl: 'https://flag', baseUrlSource: 'flag' });
    expect(activeProfile({}, { SVC_PROFILE: 'b' }, doc)).toEqual({ name: 'b', source: 'env' });
    expect(resolveSettings({}, {}, doc)).toMatchObject({
      baseUrl: 'https://a',
      baseUrlSource: 'profile',
      apiKey: 'ka',
    });
  });
});
