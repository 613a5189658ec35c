// A key is tens of characters: one over 16 KiB (a file pasted into SVC_API_KEY, a variable gone
// wrong) is refused where it is read, in one line and with exit 2, before any request; whether it
// comes from --api-key, SVC_API_KEY, config.json, the keyring, or is being saved. One of 16 KiB
// exactly still works, masked as any key is.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  BASE_URL,
  FakeService,
  type InProcessOptions,
  MemoryKeyring,
  MODES,
  scratchDir,
  STACK,
  svc,
  unwrapped,
} from '../support/in-process.js';

/** A test key of `bytes` bytes in all. */
const keyOf = (bytes: number) =>
  `svc_sk_test_${'a1b2'.repeat(bytes).slice(0, bytes - 'svc_sk_test_'.length)}`;
const OVERSIZED = keyOf(16 * 1024 + 1);
const LIMIT = /an API key is at most 16 KiB$/;

let dirs = 0;
/** A config folder whose default profile is for BASE_URL, with `profile`'s fields. */
function configWith(profile: Record<string, string>): string {
  const dir = join(scratchDir(), `oversized-${++dirs}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      current_profile: 'default',
      profiles: { default: { base_url: BASE_URL, ...profile } },
    }),
    { mode: 0o600 },
  );
  return dir;
}

function expectRefusedKey(
  result: { code: number; stdout: string; stderr: string },
  where: string,
): void {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stdout).toBe('');
  expect(unwrapped(result.stderr)).toMatch(
    new RegExp(`^error: ${where} is 16385 bytes long; an API key is at most 16 KiB\\n$`),
  );
  expect(result.stderr).not.toMatch(STACK);
}

describe.each(MODES)('a key over 16 KiB, for $mode', ({ tty }) => {
  const run = (argv: string[], options: InProcessOptions = {}) => svc(argv, { tty, ...options });

  it('in SVC_API_KEY: refused, nothing sent', async () => {
    expectRefusedKey(
      await run(['reports', 'list'], { env: { SVC_API_KEY: OVERSIZED } }),
      'the API key in SVC_API_KEY',
    );
  });

  it('given with --api-key: refused, nothing sent', async () => {
    expectRefusedKey(
      await run(['reports', 'list', '--api-key', OVERSIZED]),
      'the API key given with --api-key',
    );
  });

  it('in config.json: refused, nothing sent', async () => {
    const dir = configWith({ api_key: OVERSIZED });
    expectRefusedKey(
      await run(['usage'], {
        env: { SVC_API_KEY: undefined, SVC_BASE_URL: undefined, SVC_CONFIG_DIR: dir },
      }),
      'the API key of profile "default" in the config file',
    );
  });

  it('in the keyring: refused, nothing sent', async () => {
    const dir = configWith({ api_key_in: 'keyring' });
    const keyring = new MemoryKeyring();
    keyring.entries.set(MemoryKeyring.keyOf('default'), OVERSIZED);
    expectRefusedKey(
      await run(['usage'], {
        keyring,
        env: { SVC_API_KEY: undefined, SVC_BASE_URL: undefined, SVC_CONFIG_DIR: dir },
      }),
      'the key of profile "default" in the test keyring',
    );
  });

  it('to be saved by svc login --api-key or svc config set api_key: refused, nothing saved', async () => {
    const dir = configWith({});
    const env = { SVC_API_KEY: undefined, SVC_BASE_URL: undefined, SVC_CONFIG_DIR: dir };
    expectRefusedKey(
      await run(['login', '--base-url', BASE_URL, '--api-key', OVERSIZED], { env }),
      'the API key given with --api-key',
    );
    expectRefusedKey(await run(['config', 'set', 'api_key', OVERSIZED], { env }), 'the API key');
  });
});

describe('a key of 16 KiB exactly', () => {
  it('is sent, and masked where the service echoes it', async () => {
    const key = keyOf(16 * 1024);
    const service = new FakeService().expect(
      'GET',
      (r) => r.path === '/v1/reports/rpt_1' && r.headers.authorization === `Bearer ${key}`,
      {
        status: 401,
        body: {
          error_type: 'AUTHENTICATION_ERROR',
          error_code: 'INVALID_API_KEY',
          error_message: `Unknown key ${key}`,
        },
      },
    );
    const result = await svc(['reports', 'get', 'rpt_1'], {
      tty: true,
      env: { SVC_API_KEY: key },
      service,
    });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain(`Unknown key svc_sk_test_…${key.slice(-4)}`);
    expect(result.stderr).not.toContain(key.slice(12, 40));
    expect(result.stderr).not.toMatch(LIMIT);
  });
});
