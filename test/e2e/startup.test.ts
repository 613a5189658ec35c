// What each kind of start loads, so that start-up stays near bare Node (bench/startup.mjs measures
// it; this suite only checks what is loaded, never a time). Packages are bundled into dist/, so
// "loads commander" means "loads a dist file built from commander".
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { describe, expect, it } from 'vitest';

import { baseEnv, run, SVC, useWorld } from './harness.js';
import { traceRun } from './trace.js';

const world = useWorld();
const RAM = 'rpt_e8699f830adc84b8';

/** svc against the mock with a test key; output to a pipe, so no colour and no boxed tables. */
async function trace(args: string[], env: Record<string, string> = {}) {
  const home = world.tempDir();
  const result = await traceRun(
    args,
    { ...baseEnv(home), SVC_BASE_URL: world.mock.url, SVC_API_KEY: world.key().key, ...env },
    home,
  );
  expect(result.status, result.stderr).not.toBeNull();
  return result;
}

/**
 * What every run of the program loads: commander, and the table of East Asian wide characters
 * that measures text for a terminal (src/core/output/width.ts), a few kilobytes.
 */
const PROGRAM = ['commander', 'get-east-asian-width'];

/** Node's HTTP client as fetch brings it, and what only some requests need. */
const FETCH = 'internal/deps/undici/undici';

describe('the launcher alone', () => {
  it.each([['--version'], ['--help']])('svc %s loads nothing but the launcher', async (flag) => {
    const result = await trace([flag]);
    expect(result.status).toBe(0);
    expect(result.files).toEqual(['bin/svc.cjs']);
    expect(result.packages).toEqual([]);
  });

  it('svc --help into /dev/null asks no terminal (node:tty loads network streams)', async () => {
    const home = world.tempDir();
    const result = await traceRun(['--help'], baseEnv(home), home, { stdout: 'null' });
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.files).toEqual(['bin/svc.cjs']);
    expect(result.builtins).not.toContain('tty');
  });
});

describe('the program', () => {
  it('help of a command loads the program alone: no config store, HTTP, prompts or spinners', async () => {
    const result = await trace(['reports', '--help']);
    expect(result.status).toBe(0);
    expect(result.packages).toEqual(PROGRAM);
    for (const builtin of ['http', 'https', 'crypto', FETCH])
      expect(result.builtins).not.toContain(builtin);
  });

  it('a GET with --json: the program alone (replies are read without a schema library); node:http, not fetch, not node:crypto', async () => {
    const result = await trace(['reports', 'list', '--json']);
    expect(result.status, result.stderr).toBe(0);
    // Not the emulator: it is a bundle of its own, for `svc mock` alone.
    expect(result.files).not.toContain('dist/mock.cjs');
    expect(result.files).not.toContain('dist/bs-calendar.cjs');
    expect(result.packages).toEqual(PROGRAM);
    expect(result.builtins).toContain('http');
    for (const builtin of ['https', 'tls', 'crypto', 'zlib', FETCH])
      expect(result.builtins).not.toContain(builtin);
  });

  it('a table into a pipe: no chalk (it is for terminals)', async () => {
    const result = await trace(['reports', 'list']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.packages).toEqual(PROGRAM);
  });

  it('a table without --calendar bs does not read the Bikram Sambat table (dist/bs-calendar.cjs); with it, it does', async () => {
    const ad = await trace(['reports', 'transactions', RAM, '-o', 'csv']);
    expect(ad.status, ad.stderr).toBe(0);
    expect(ad.files).not.toContain('dist/bs-calendar.cjs');
    const bs = await trace(['reports', 'transactions', RAM, '--calendar', 'bs']);
    expect(bs.status, bs.stderr).toBe(0);
    expect(bs.files).toContain('dist/bs-calendar.cjs');
    expect(bs.stdout.split('\n')[0]).toMatch(/^DATE \(BS\)\t/);
  });

  it('colour forced into a pipe runs chalk: the trace sees a bundled package that ran', async () => {
    const result = await trace(['reports', 'list'], { FORCE_COLOR: '1' });
    expect(result.status, result.stderr).toBe(0);
    expect(result.packages).toEqual(['chalk', ...PROGRAM]);
  });

  it('a POST: node:crypto for its idempotency key, and still no fetch', async () => {
    const result = await trace(['match', RAM, '--name', 'Ram Bahadur Shrestha', '--json']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.packages).toEqual(PROGRAM);
    expect(result.builtins).toContain('crypto');
    expect(result.builtins).not.toContain(FETCH);
  });

  it('svc mock loads the emulator, a bundle of its own (dist/mock.cjs)', async () => {
    // A port in use (the world's mock): the emulator is loaded, then refused the port (exit 2).
    const result = await trace(['mock', '--port', new URL(world.mock.url).port, '--quiet']);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/port \d+ is in use/);
    expect(result.files).toContain('dist/mock.cjs');
  });

  it('a proxy variable brings in undici for its proxy agent', async () => {
    // A port where nothing listens: the request fails (exit 9), after undici was loaded.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    // A loopback base URL never goes through a proxy: the service is named by a remote address.
    const result = await trace(['reports', 'list', '--retries', '0'], {
      HTTP_PROXY: `http://127.0.0.1:${port}`,
      HTTPS_PROXY: `http://127.0.0.1:${port}`,
      SVC_BASE_URL: 'https://svc.example.test',
    });
    expect(result.status, result.stderr).toBe(9);
    expect(result.packages).toContain('undici');
  });
});

describe("the code cache (V8's code of the program, kept after a run)", () => {
  const codeFiles = (home: string) => {
    try {
      return readdirSync(join(home, 'cache', 'code'));
    } catch {
      return [];
    }
  };

  it('is written by a command and used by the next; each command has its own, which learns each command run with it once', async () => {
    const home = world.tempDir();
    const env = { ...baseEnv(home), SVC_BASE_URL: world.mock.url, SVC_API_KEY: world.key().key };
    const ran = async (...args: string[]) =>
      expect((await run([...args, '--json'], { configDir: home, env })).code).toBe(0);
    const path = (part: string) =>
      join(
        home,
        'cache',
        'code',
        codeFiles(home).find((name) => name.endsWith(`-for-${part}.bin`))!,
      );
    // The header line, padded so that V8's data starts at a multiple of 8 bytes.
    const learned = (part: string) => {
      const header = readFileSync(path(part)).toString('latin1').split('\n', 1)[0]!;
      expect((header.length + 1) % 8).toBe(0);
      return header.trimEnd().split('\t');
    };
    await ran('reports', 'list');
    expect(codeFiles(home)).toEqual([
      expect.stringMatching(/^cli-[0-9a-f]{16}-.*-for-reports\.list\.bin$/),
    ]);
    expect(learned('reports.list')).toEqual(['svc-code', 'svc reports list']);
    const first = statSync(path('reports.list'));
    await ran('reports', 'list');
    expect(statSync(path('reports.list')).mtimeMs).toBe(first.mtimeMs);
    // Another command of the same noun: a cache of its own, the first left as it is.
    await ran('reports', 'get', RAM);
    expect(learned('reports.get')).toEqual(['svc-code', 'svc reports get']);
    await ran('usage');
    expect(learned('usage')).toEqual(['svc-code', 'svc usage']);
    // A line whose command is not certain before the parse uses its noun's, which learns each
    // command run with it.
    await ran('reports', '--json', 'list');
    await ran('reports', '--json', 'get', RAM);
    expect(learned('reports')).toEqual(['svc-code', 'svc reports list', 'svc reports get']);
    await ran('reports', 'list');
    expect(statSync(path('reports.list')).mtimeMs).toBe(first.mtimeMs);
  });

  it('is not written by a server (svc mock): its code would only slow every later start', async () => {
    const home = world.tempDir();
    const child = spawn(process.execPath, [SVC, 'mock', '--port', '0', '--json', '--quiet'], {
      env: baseEnv(home),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await new Promise((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
    child.kill('SIGINT');
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(0);
    expect(codeFiles(home)).toEqual([]);
  });

  it('is not written under CI', async () => {
    const home = world.tempDir();
    const env = {
      ...baseEnv(home),
      SVC_BASE_URL: world.mock.url,
      SVC_API_KEY: world.key().key,
      CI: 'true',
    };
    expect((await run(['reports', 'list', '--json'], { configDir: home, env })).code).toBe(0);
    expect(existsSync(join(home, 'cache', 'code'))).toBe(false);
  });
});
