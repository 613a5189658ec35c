// A user with no home folder: a container run as a bare uid, HOME unset and no entry in
// /etc/passwd, so that os.homedir() throws. A command that keeps no file of its own runs on
// SVC_API_KEY and SVC_BASE_URL; one that must keep a file (svc login, the config commands) says so
// in one line naming SVC_CONFIG_DIR, SVC_CACHE_DIR and SVC_DATA_DIR (exit 2); the reply cache and
// svc mock's kept keys do without. The real process, run as such a uid, is in
// test/e2e/no-home.test.ts.
import { describe, expect, it } from 'vitest';

import { NO_HOME } from '../../src/config/paths.js';
import {
  FakeService,
  type InProcessOptions,
  KEY,
  MODES,
  plain,
  STACK,
  svc,
  unwrapped,
} from '../support/in-process.js';

/** os.homedir as it fails for a uid the user database does not list. */
function noEntry(): string {
  throw Object.assign(
    new Error('A system error occurred: uv_os_homedir returned ENOENT (no such file or directory)'),
    { code: 'ERR_SYSTEM_ERROR' },
  );
}

/**
 * No HOME, no SVC_…_DIR, and no home folder the system knows of; the key and base URL in the
 * environment.
 */
const homeless = (options: InProcessOptions = {}): InProcessOptions => ({
  ...options,
  systemHome: noEntry,
  env: {
    HOME: undefined,
    SVC_CONFIG_DIR: undefined,
    SVC_CACHE_DIR: undefined,
    SVC_DATA_DIR: undefined,
    ...options.env,
  },
});

const EMPTY_LIST = { data: [], has_more: false };

describe.each(MODES)('no home folder, for $mode', ({ tty }) => {
  it('a GET with SVC_API_KEY and SVC_BASE_URL runs: exit 0, the request sent with the key, nothing on stderr', async () => {
    const service = new FakeService().expect('GET', '/v1/reports', { body: EMPTY_LIST });
    const result = await svc(['reports', 'list', '--json'], homeless({ tty, service }));
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(plain(result.stdout))).toEqual(EMPTY_LIST);
    expect(result.stderr).toBe('');
    expect(result.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  for (const argv of [
    ['login', '--with-key'],
    ['config', 'list'],
    ['config', 'path'],
    ['config', 'set', 'base_url', 'https://svc.test'],
  ]) {
    it(`svc ${argv.join(' ')}, which keeps the config file: exit 2, one line naming the three folders, nothing sent`, async () => {
      const result = await svc(argv, homeless({ tty, stdin: `${KEY}\n` }));
      expect(result.code, result.stderr).toBe(2);
      expect(result.stdout).toBe('');
      expect(unwrapped(result.stderr)).toBe(`error: ${NO_HOME}\n`);
      expect(result.stderr).toMatch(/SVC_CONFIG_DIR, SVC_CACHE_DIR and SVC_DATA_DIR/);
      expect(result.stderr).not.toMatch(STACK);
      expect(result.requests).toEqual([]);
    });
  }

  it('with SVC_CONFIG_DIR alone set, svc config path runs: no home folder is needed for it', async () => {
    const result = await svc(
      ['config', 'path'],
      homeless({ tty, env: { SVC_CONFIG_DIR: '/nowhere/config' } }),
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('/nowhere/config/config.json\n');
  });

  it('a dataset read goes without the reply cache (--debug says why), and is fetched each time', async () => {
    const body = { data: [], meta: { as_of: '2026-05-01' } };
    const answering = () =>
      new FakeService().expect('GET', '/v1/data/cbank/trade/latest', { body });
    const first = await svc(
      ['data', 'latest', 'trade', '--json', '--debug'],
      homeless({ tty, service: answering(), cache: 'disk' }),
    );
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(`debug: reply cache not used: ${NO_HOME}\n`);
    expect(first.stderr).not.toMatch(/^error:/m);
    // Nothing was kept: the same read asks again (the harness fails the run if it does not).
    const second = await svc(
      ['data', 'latest', 'trade', '--json'],
      homeless({ tty, service: answering(), cache: 'disk' }),
    );
    expect(second.code, second.stderr).toBe(0);
  });
});

describe('svc mock with no home folder', () => {
  it('serves with keys made for this run, saying so in one warning line', async () => {
    const stop = new AbortController();
    let shown!: () => void;
    const started = new Promise<void>((resolve) => (shown = resolve));
    const run = svc(
      ['mock', '--port', '0', '--quiet', '--json'],
      homeless({ signal: stop.signal, onStdout: () => shown() }),
    );
    await Promise.race([started, run]);
    stop.abort();
    const result = await run;
    expect(result.code, result.stderr).toBe(0);
    const { url, keys } = JSON.parse(result.stdout.split('\n')[0]!) as {
      url: string;
      keys: unknown[];
    };
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(keys).toHaveLength(8);
    expect(result.stderr.split('\n').filter((line) => line.startsWith('warning:'))).toEqual([
      `warning: ${NO_HOME}; the demo keys are made for this run only`,
    ]);
    expect(result.stderr).not.toMatch(STACK);
  });
});
