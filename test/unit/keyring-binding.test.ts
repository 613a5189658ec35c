// Which native keyring binary svc asks for: the package of macOS or Windows for this machine, and
// none elsewhere (Linux and the BSDs reach the Secret Service in TypeScript,
// src/config/keyring/secret-service.ts).
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { importKeyring, KEYRING_BINDINGS } from '../../src/core/external.js';

describe('the keyring binding', () => {
  it('is asked for on macOS and Windows only, and never found where svc has no binary for the machine', async () => {
    await expect(importKeyring('linux', 'x64')).rejects.toThrow('no keyring binding for linux-x64');
    await expect(importKeyring('freebsd', 'x64')).rejects.toThrow(
      'no keyring binding for freebsd-x64',
    );
    expect(Object.keys(KEYRING_BINDINGS).every((machine) => /^(darwin|win32)-/.test(machine))).toBe(
      true,
    );
  });

  it('names exactly the optional dependencies of the package, at the version of the binding the types come from', () => {
    const manifest = JSON.parse(
      readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
    ) as {
      dependencies: Record<string, string>;
      optionalDependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(Object.keys(manifest.optionalDependencies).sort()).toEqual(
      Object.values(KEYRING_BINDINGS).sort(),
    );
    for (const version of Object.values(manifest.optionalDependencies))
      expect(version).toBe(manifest.devDependencies['@napi-rs/keyring']);
    expect(Object.keys(manifest.dependencies)).not.toContain('@napi-rs/keyring');
  });
});
