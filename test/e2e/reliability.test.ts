// Reliability under faults a user meets: racing writers, and a machine with other people on it.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useWorld } from './harness.js';

const world = useWorld();

describe('the config file under concurrent writers', () => {
  it('loses no write and keeps its modes when many `svc config set` race', async () => {
    const configDir = join(world.tempDir('svc-race-'), 'svc');
    const writers = Array.from({ length: 12 }, (_, i) =>
      world.bare(['config', 'set', 'base_url', `https://api${i}.example.com`, '--profile', `p${i}`], { env: { SVC_CONFIG_DIR: configDir } }),
    );
    const results = await Promise.all(writers);
    for (const r of results) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^✓ Set base_url of profile "p\d+"/);
    }
    const list = await world.bare(['config', 'list', '--json'], { env: { SVC_CONFIG_DIR: configDir } });
    expect(list.code, list.stderr).toBe(0);
    const { profiles } = JSON.parse(list.stdout) as { profiles: Record<string, { base_url: string }> };
    // No write is lost, and each holds the URL its writer set.
    expect(Object.keys(profiles).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `p${i}`).sort());
    for (const [name, profile] of Object.entries(profiles)) {
      expect(profile.base_url).toBe(`https://api${name.slice(1)}.example.com`);
    }
    expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(configDir).mode & 0o777).toBe(0o700);
  });
});
