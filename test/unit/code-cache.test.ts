// The launcher's code cache (src/launch/code-cache.ts): written once, used after, refused where
// another user could have put it, and never the code of another program.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { beforeEach, describe, expect, it } from 'vitest';

import { loadProgram } from '../../src/launch/code-cache.js';

let dir: string;
let file: string;
let cache: string;
const env = () => ({ SVC_CACHE_DIR: cache });
const codeFiles = () => (existsSync(join(cache, 'code')) ? readdirSync(join(cache, 'code')) : []);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-code-cache-'));
  file = join(dir, 'cli.cjs');
  cache = join(dir, 'cache');
  writeFileSync(
    file,
    'exports.run = async (argv) => argv.length + helper();\nfunction helper() { return 40; }\n',
  );
});

async function runOnce(
  id = 'abc',
  environment: Record<string, string> = env(),
  command = 'svc a',
  part?: string,
): Promise<number> {
  const { program, keepCode } = loadProgram({ file, id, env: environment, part });
  const code = await program.run(['a', 'b']);
  keepCode(command);
  return code;
}

/**
 * The header line of a cache file (the first): `svc-code` and the commands it learned, padded with
 * spaces so that V8's data after it starts at a multiple of 8 bytes (V8 copies it otherwise).
 */
const header = (name = codeFiles()[0]!) => {
  const bytes = readFileSync(join(cache, 'code', name));
  const end = bytes.indexOf(0x0a);
  expect((end + 1) % 8).toBe(0);
  return bytes.subarray(0, end).toString('latin1').trimEnd().split('\t');
};

describe.skipIf(process.getuid?.() === undefined)('the code cache', () => {
  it('is written after the first run, 0600 in a 0700 folder, and used as it is by the next', async () => {
    expect(await runOnce()).toBe(42);
    const [name] = codeFiles();
    expect(name).toMatch(
      new RegExp(`^cli-abc-[0-9a-z]+-${process.version}-${process.arch}-for-other\\.bin$`),
    );
    const path = join(cache, 'code', name!);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(cache, 'code')).mode & 0o777).toBe(0o700);
    const before = statSync(path);
    expect(await runOnce()).toBe(42);
    // Accepted by V8: not written again.
    expect(statSync(path).ino).toBe(before.ino);
    expect(statSync(path).mtimeMs).toBe(before.mtimeMs);
  });

  it('learns each command once: a command not in it yet writes it anew, naming it; the same again, or no command, writes nothing', async () => {
    await runOnce('abc', env(), 'svc a');
    expect(header()).toEqual(['svc-code', 'svc a']);
    const path = join(cache, 'code', codeFiles()[0]!);
    const first = statSync(path);
    await runOnce('abc', env(), 'svc a');
    await runOnce('abc', env(), '');
    expect(statSync(path).ino).toBe(first.ino);
    await runOnce('abc', env(), 'svc b');
    expect(header()).toEqual(['svc-code', 'svc a', 'svc b']);
    expect(statSync(path).ino).not.toBe(first.ino);
    // Still V8's data after the header: accepted, so not written again.
    const second = statSync(path);
    expect(await runOnce('abc', env(), 'svc b')).toBe(42);
    expect(statSync(path).ino).toBe(second.ino);
  });

  it('keeps a cache for each command, which a new program removes with its own', async () => {
    await runOnce('abc', env(), 'svc reports list', 'reports.list');
    await runOnce('abc', env(), 'svc data series', 'data.series');
    await runOnce('abc', env(), 'svc reports get', 'reports.get');
    expect(codeFiles().map((name) => name.replace(/^cli-abc-.*-for-/, ''))).toEqual([
      'data.series.bin',
      'reports.get.bin',
      'reports.list.bin',
    ]);
    expect(header(codeFiles()[1])).toEqual(['svc-code', 'svc reports get']);
    expect(header(codeFiles()[2])).toEqual(['svc-code', 'svc reports list']);
    await runOnce('def', env(), 'svc usage', 'usage');
    expect(codeFiles()).toEqual([expect.stringMatching(/^cli-def-.*-for-usage\.bin$/)]);
  });

  it('learns at most 12 commands: each makes it larger, and it is read at every start', async () => {
    for (let i = 0; i < 14; i++) await runOnce('abc', env(), `svc c${i}`);
    expect(header()).toEqual(['svc-code', ...Array.from({ length: 12 }, (_, i) => `svc c${i}`)]);
  });

  it('a file without its header line is not used, and is replaced', async () => {
    await runOnce();
    const path = join(cache, 'code', codeFiles()[0]!);
    const data = readFileSync(path);
    writeFileSync(path, data.subarray(data.indexOf(0x0a) + 1), { mode: 0o600 });
    expect(await runOnce()).toBe(42);
    expect(header()).toEqual(['svc-code', 'svc a']);
  });

  it.each([1, 4])(
    'a file of %i GiB is not read whole: the program runs, and the file is replaced by a cache',
    async (gib) => {
      await runOnce();
      const path = join(cache, 'code', codeFiles()[0]!);
      // Its header line, then nothing (a sparse file takes no disk): read whole, 1 GiB would take 1
      // GiB of memory (4 GiB is past what Node reads at once).
      writeFileSync(path, 'svc-code\tsvc a\n', { mode: 0o600 });
      truncateSync(path, gib * 1024 ** 3);
      const peak = process.resourceUsage().maxRSS;
      expect(await runOnce()).toBe(42);
      // KiB: far less than the file.
      expect(process.resourceUsage().maxRSS - peak).toBeLessThan(256 * 1024);
      expect(statSync(path).size).toBeLessThan(1024 ** 2);
      expect(header()).toEqual(['svc-code', 'svc a']);
    },
  );

  it('a cache V8 refuses (made from other code) is replaced, and the program still runs', async () => {
    const built = new Date('2026-11-23T10:00:00Z');
    utimesSync(file, built, built);
    await runOnce();
    const path = join(cache, 'code', codeFiles()[0]!);
    const before = readFileSync(path);
    // Other code under the same name: edited, and its time set back.
    writeFileSync(
      file,
      'exports.run = async (argv) => argv.length + helper();\nfunction helper() { return 41; } // edited\n',
    );
    utimesSync(file, built, built);
    expect(await runOnce()).toBe(43);
    expect(readFileSync(path).equals(before)).toBe(false);
  });

  it('a new program gets a cache of its own, and the old one is removed', async () => {
    await runOnce('abc');
    await runOnce('def');
    expect(codeFiles()).toEqual([expect.stringMatching(/^cli-def-/)]);
  });

  it('keeps the caches of the other bundles of its build, and removes those of an older build', async () => {
    const bundle = (id: string, command: string, kept: string[]) =>
      loadProgram({ file, id, env: env(), kept }).keepCode(command);
    bundle('old', 'svc a', ['old', 'older']);
    bundle('abc', 'svc reports list', ['abc', 'def']);
    bundle('def', 'svc data series', ['abc', 'def']);
    expect(
      codeFiles()
        .map((name) => name.slice(0, 'cli-abc'.length))
        .sort(),
    ).toEqual(['cli-abc', 'cli-def']);
  });

  it('a program edited since its build gets a cache of its own', async () => {
    await runOnce();
    const [before] = codeFiles();
    writeFileSync(
      file,
      'exports.run = async (argv) => argv.length + helper();\nfunction helper() { return 42; }\n',
    );
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(await runOnce()).toBe(44);
    expect(codeFiles()).toEqual([expect.not.stringMatching(before!)]);
  });

  it('is not used in a folder other users can write in, and nothing is written there', async () => {
    mkdirSync(join(cache, 'code'), { recursive: true, mode: 0o700 });
    chmodSync(join(cache, 'code'), 0o777);
    expect(await runOnce()).toBe(42);
    expect(codeFiles()).toEqual([]);
  });

  it('is not read through a link: the linked file is left alone and the link replaced', async () => {
    mkdirSync(join(cache, 'code'), { recursive: true, mode: 0o700 });
    const elsewhere = join(dir, 'elsewhere.bin');
    writeFileSync(elsewhere, 'not code');
    await runOnce();
    const name = codeFiles()[0]!;
    rmSync(join(cache, 'code', name));
    symlinkSync(elsewhere, join(cache, 'code', name));
    expect(await runOnce()).toBe(42);
    expect(readFileSync(elsewhere, 'utf8')).toBe('not code');
    expect(statSync(join(cache, 'code', codeFiles()[0]!)).isFile()).toBe(true);
  });

  it('is off under CI, where every cache is', async () => {
    expect(await runOnce('abc', { ...env(), CI: 'true' })).toBe(42);
    expect(existsSync(join(cache, 'code'))).toBe(false);
  });
});
