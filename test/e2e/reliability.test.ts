// Reliability under faults a user meets: racing writers, and a machine with other people on it.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { STACK_LINE, useWorld } from './harness.js';
import { useTerminal } from './terminal.js';

const world = useWorld();

describe('the config file under concurrent writers', () => {
  it('loses no write and keeps its modes when many `svc config set` race', async () => {
    const configDir = join(world.tempDir('svc-race-'), 'svc');
    const writers = Array.from({ length: 12 }, (_, i) =>
      world.bare(
        ['config', 'set', 'base_url', `https://api${i}.example.com`, '--profile', `p${i}`],
        { env: { SVC_CONFIG_DIR: configDir } },
      ),
    );
    const results = await Promise.all(writers);
    for (const r of results) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^✓ Set base_url of profile "p\d+"/);
    }
    const list = await world.bare(['config', 'list', '--json'], {
      env: { SVC_CONFIG_DIR: configDir },
    });
    expect(list.code, list.stderr).toBe(0);
    const { profiles } = JSON.parse(list.stdout) as {
      profiles: Record<string, { base_url: string }>;
    };
    // No write is lost, and each holds the URL its writer set.
    expect(Object.keys(profiles).sort()).toEqual(
      Array.from({ length: 12 }, (_, i) => `p${i}`).sort(),
    );
    for (const [name, profile] of Object.entries(profiles)) {
      expect(profile.base_url).toBe(`https://api${name.slice(1)}.example.com`);
    }
    expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(configDir).mode & 0o777).toBe(0o700);
  });
});

describe('Ctrl-C', () => {
  const terminal = useTerminal();

  it('at the key prompt of `svc login` exits 130, writes nothing and shows no stack trace', async () => {
    const configDir = join(world.tempDir('svc-interrupt-'), 'svc');
    const session = terminal.start(['login', '--base-url', world.mock.url], {
      SVC_CONFIG_DIR: configDir,
    });
    await terminal.waitFor(session, (t) => /\bkey\b/i.test(t), 'the key prompt');
    terminal.type(session, 'svc_sk_test_0123');
    terminal.press(session, 'C-c');
    const { code, screen } = await terminal.exit(session);
    expect(code, screen).toBe(130);
    expect(screen).not.toMatch(STACK_LINE);
    expect(existsSync(join(configDir, 'config.json'))).toBe(false);
    expect(await world.requests()).toEqual([]);
  });

  it('during a request at a terminal exits 130 and shows no stack trace', async () => {
    await world.fault({ method: 'GET', path: '/v1/reports', delay_ms: 5_000 });
    const session = terminal.start(['reports', 'list'], {
      SVC_BASE_URL: world.mock.url,
      SVC_API_KEY: world.key().key,
    });
    // Ctrl-C once the request has reached the service (bounded wait).
    for (let i = 0; i < 50 && (await world.requests()).length === 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await world.requests()).toHaveLength(1);
    terminal.press(session, 'C-c');
    const { code, screen } = await terminal.exit(session);
    expect(code, screen).toBe(130);
    expect(screen).not.toMatch(STACK_LINE);
  });
});
