// `svc merchants resolve` as the built binary against `svc mock`: a round trip against the mock's
// merchant directory and its billing, the mock's own limits, and what needs a real process: Ctrl-C,
// calls starting while a pipe is still being written, a reader of stdout going away. Every other
// check of the command runs in-process: test/commands/merchants.test.ts.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import merchantsJson from '../../src/mock/fixtures/merchants.json' with { type: 'json' };
import { baseEnv, inTerminal, intoHead, ROOT, SVC, svcCommand, useWorld } from './harness.js';

const world = useWorld();
const RESOLVE = '/v1/merchants/resolve';
const directory = merchantsJson as {
  merchants: { merchant: string; mcc: string; city: string; terminals: string[] }[];
};
const TERMINAL = directory.merchants[0]!.terminals[0]!;
const MERCHANT = directory.merchants[0]!;
const UNKNOWN = '1000000000000007';

/**
 * 2,500 distinct lookups (known and unknown terminals, names as statements write them), with
 * 400 repeats mixed in: the input order is the order of first appearance.
 */
function lookupLines(): { lines: string[]; distinct: string[] } {
  const distinct: string[] = [];
  const known = directory.merchants.flatMap((m) => m.terminals).slice(0, 2000);
  const names = directory.merchants
    .slice(0, 200)
    .map((m, i) => (i % 2 ? `${m.merchant.toUpperCase()} PVT. LTD.` : `M/S ${m.merchant} Traders`));
  for (let i = 0; distinct.length < 2500; i++) {
    if (i % 8 === 3 && names.length) distinct.push(names.shift()!);
    else if (i % 7 === 5) distinct.push(String(1_000_000_000_000_000n + BigInt(i)));
    else if (known.length) distinct.push(known.shift()!);
    else distinct.push(String(2_000_000_000_000_000n + BigInt(i)));
  }
  const lines: string[] = [];
  distinct.forEach((value, i) => {
    lines.push(i % 3 === 0 ? `  ${value} ` : value);
    if (i % 6 === 5) lines.push(distinct[i - 4]!, '');
  });
  return { lines, distinct };
}

let files: string;
let input: ReturnType<typeof lookupLines>;
let lookupFile: string;

beforeAll(() => {
  files = world.tempDir('svc-merchants-');
  input = lookupLines();
  lookupFile = join(files, 'lookups.txt');
  writeFileSync(lookupFile, input.lines.join('\r\n') + '\r\n');
});

async function resolveCalls(): Promise<{ terminals?: string[]; names?: string[] }[]> {
  const requests = (await world.requests()).filter(
    (r) => r.method === 'POST' && r.path === RESOLVE,
  );
  return requests.map((r) => JSON.parse(r.body ?? 'null'));
}

function ndjson(text: string): Record<string, unknown>[] {
  return text
    .trimEnd()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

describe('merchants resolve against the mock', () => {
  it('takes arguments and --name, and --unmatched shows only what matched nothing', async () => {
    const args = [
      'merchants',
      'resolve',
      TERMINAL,
      UNKNOWN,
      '--name',
      `${MERCHANT.merchant.toLowerCase()} pvt ltd`,
      '--name',
      'Nowhere Known Shop',
    ];
    const all = await world.svc([...args, '-o', 'ndjson']);
    expect(all.code, all.stderr).toBe(0);
    expect(ndjson(all.stdout)).toEqual([
      {
        input: TERMINAL,
        type: 'terminal',
        matched: true,
        merchant: MERCHANT.merchant,
        mcc: MERCHANT.mcc,
        category: expect.any(String),
        city: MERCHANT.city,
        terminal: TERMINAL,
      },
      { input: UNKNOWN, type: 'terminal', matched: false },
      expect.objectContaining({ type: 'name', matched: true, merchant: MERCHANT.merchant }),
      { input: 'Nowhere Known Shop', type: 'name', matched: false },
    ]);
    expect(await resolveCalls()).toEqual([
      {
        terminals: [TERMINAL, UNKNOWN],
        names: [`${MERCHANT.merchant.toLowerCase()} pvt ltd`, 'Nowhere Known Shop'],
      },
    ]);

    const unmatched = await world.svc([...args, '--unmatched', '--json']);
    expect(unmatched.code, unmatched.stderr).toBe(0);
    expect(JSON.parse(unmatched.stdout).data).toEqual({
      results: [
        { input: UNKNOWN, type: 'terminal', matched: false },
        { input: 'Nowhere Known Shop', type: 'name', matched: false },
      ],
      count: 2,
      matched: 0,
    });
    expect(JSON.parse(unmatched.stdout).meta.source).toMatch(/merchant directory/);
  });

  it('charges one billing unit a call, shown by svc usage', async () => {
    const used = async () => {
      const r = await world.svc(['usage', '--json']);
      // The mock's own counter, after the documented (parse) ones: no document shows how lookups
      // are counted.
      return (JSON.parse(r.stdout) as { merchant_resolve: { used: number } }).merchant_resolve.used;
    };
    const before = await used();
    expect(
      (await world.svc(['merchants', 'resolve', '--file', lookupFile, '-o', 'csv'])).code,
    ).toBe(0);
    expect(await used()).toBe(before + 3);
    expect((await world.svc(['usage'])).stdout).toMatch(
      new RegExp(`^merchant_resolve\\.used\\t${before + 3}$`, 'm'),
    );
  });

  it('the mock refuses more than 1000 lookups in one call, and a bad body, with 400', async () => {
    const post = (body: string) =>
      fetch(`${world.mock.url}${RESOLVE}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${world.key().key}`, 'content-type': 'application/json' },
        body,
      });
    const tooMany = await post(
      JSON.stringify({
        terminals: Array.from({ length: 600 }, () => TERMINAL),
        names: Array.from({ length: 401 }, () => 'x'),
      }),
    );
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({
      error_code: 'INVALID_REQUEST',
      error_message: expect.stringMatching(/at most 1000 lookups; this one has 1001/),
    });
    for (const body of [
      'not json',
      '[]',
      '{}',
      '{"terminals": []}',
      '{"terminals": [1]}',
      '{"names": "Cafe"}',
      '{"names": [" "]}',
    ]) {
      const reply = await post(body);
      expect(reply.status, body).toBe(400);
    }
    const exactly = await post(
      JSON.stringify({ terminals: Array.from({ length: 1000 }, () => TERMINAL) }),
    );
    expect(exactly.status).toBe(200);
  });
});

describe('in a real process: a signal, a pipe still being written, a reader going away', () => {
  it('Ctrl-C: exit 130, the lookups not resolved in the unresolved file', async () => {
    const cwd = world.tempDir('svc-run-');
    await world.fault({ method: 'POST', path: RESOLVE, delay_ms: 20_000 });
    const env = {
      ...baseEnv(world.dir),
      SVC_BASE_URL: world.mock.url,
      SVC_API_KEY: world.key().key,
    };
    const child = spawn(
      process.execPath,
      [SVC, 'merchants', 'resolve', '--file', lookupFile, '--concurrency', '1'],
      { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    try {
      for (let i = 0; i < 200 && (await resolveCalls()).length === 0; i++)
        await new Promise((r) => setTimeout(r, 50));
      child.kill('SIGINT');
      expect(await closed).toBe(130);
    } finally {
      clearTimeout(killer);
    }
    expect(stdout).toBe('');
    const [saved] = readdirSync(cwd);
    expect(stderr).toContain(
      `2,500 of 2,500 lookups were not resolved; they are listed in ${join(cwd, saved!)}`,
    );
    expect(stderr).toMatch(/^error: interrupted$/m);
    expect(readFileSync(join(cwd, saved!), 'utf8').trimEnd().split('\n')).toEqual(input.distinct);
  });

  it('calls start while stdin is still being read', async () => {
    const env = {
      ...baseEnv(world.dir),
      SVC_BASE_URL: world.mock.url,
      SVC_API_KEY: world.key().key,
    };
    const child = spawn(
      process.execPath,
      [SVC, 'merchants', 'resolve', '--file', '-', '-o', 'ndjson'],
      { env, cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    try {
      child.stdin.write(input.distinct.slice(0, 1200).join('\n') + '\n');
      for (let i = 0; i < 200 && (await resolveCalls()).length === 0; i++)
        await new Promise((r) => setTimeout(r, 50));
      // The first 1000 went out while the rest of the input had not even been written yet.
      expect(await resolveCalls()).toHaveLength(1);
      child.stdin.end(input.distinct.slice(1200).join('\n') + '\n');
      expect(await closed).toBe(0);
    } finally {
      clearTimeout(killer);
    }
    expect(ndjson(stdout).map((x) => x.input)).toEqual(input.distinct);
    expect(await resolveCalls()).toHaveLength(3);
  });

  it('a long pipe is read only as fast as the calls take it: what svc holds does not grow with its input', async () => {
    // The first calls are held by the mock; 100,000 lookups (1.7 MB) wait to be written to svc.
    await world.fault({ method: 'POST', path: RESOLVE, delay_ms: 1500, times: 4 });
    const env = {
      ...baseEnv(world.dir),
      SVC_BASE_URL: world.mock.url,
      SVC_API_KEY: world.key().key,
    };
    const cwd = world.tempDir('svc-run-');
    const child = spawn(
      process.execPath,
      [SVC, 'merchants', 'resolve', '--file', '-', '-o', 'ndjson'],
      { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let lines = 0;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (lines += d.split('\n').length - 1));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const lookups = Array.from({ length: 100_000 }, (_, i) =>
      String(3_000_000_000_000_000n + BigInt(i)),
    );
    try {
      child.stdin.write(lookups.join('\n') + '\n');
      for (let i = 0; i < 200 && (await resolveCalls()).length < 4; i++)
        await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 300));
      // Four calls out and the next waiting: svc has taken a few calls' worth (with what the
      // kernel buffers between the two processes, a few hundred KB), the rest is still here.
      expect(await resolveCalls()).toHaveLength(4);
      expect(child.stdin.writableLength).toBeGreaterThan(1_000_000);
      child.stdin.end();
      expect(await closed).toBe(0);
    } finally {
      clearTimeout(killer);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    expect(lines).toBe(100_000);
    expect(await resolveCalls()).toHaveLength(100);
  });

  it('a person at a terminal: the table ends with one line that sums the run up; standard input is counted, then read again', async () => {
    const env = { SVC_BASE_URL: world.mock.url, SVC_API_KEY: world.key().key, COLUMNS: '80' };
    const fromFile = await inTerminal(
      `${svcCommand} merchants resolve --file ${JSON.stringify(lookupFile)}`,
      { configDir: world.dir, env },
    );
    expect(fromFile.code, fromFile.stderr).toBe(0);
    // What the terminal shows: colour and line clearing gone, each line as its last \r left it.
    const shown = (text: string) =>
      text
        .replace(/\u001b\[[0-9;]*[mK]/g, '')
        .trimEnd()
        .split(/\r?\n/)
        .map((line) => line.split('\r').at(-1)!);
    const screen = shown(fromFile.stdout);
    const summary = screen.at(-1)!;
    expect(summary).toMatch(
      /^2,500 lookups, [\d,]+ matched, [\d,]+ not found, 416 duplicates, 3 calls in [\d.ms]+$/,
    );
    for (const line of screen) expect([...line].length, line).toBeLessThanOrEqual(80);
    const fromStdin = await inTerminal(
      `${svcCommand} merchants resolve --file - < ${JSON.stringify(lookupFile)}`,
      { configDir: world.dir, env },
    );
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    // The same run, but for the time it took.
    const untimed = (line: string) => line.replace(/ in [\d.ms]+$/, '');
    expect(untimed(shown(fromStdin.stdout).at(-1)!)).toBe(untimed(summary));
    expect(await resolveCalls()).toHaveLength(6);
  });

  it('a closed stdout (| head -c 1) ends the run quietly with exit 0', async () => {
    const env = {
      ...baseEnv(world.dir),
      SVC_BASE_URL: world.mock.url,
      SVC_API_KEY: world.key().key,
    };
    const result = await intoHead(['merchants', 'resolve', '--file', lookupFile, '--json'], env);
    expect(result.stdout.trim()).toBe('0');
    expect(result.stderr).toBe('');
    // A reader going away is no failure: no unresolved file.
    expect(readdirSync(ROOT).filter((name) => name.startsWith('svc-unresolved-'))).toEqual([]);
  });

  it('so does one closed while --each-line writes its records', async () => {
    const env = {
      ...baseEnv(world.dir),
      SVC_BASE_URL: world.mock.url,
      SVC_API_KEY: world.key().key,
    };
    for (const format of [['-o', 'ndjson'], []]) {
      const result = await intoHead(
        ['merchants', 'resolve', '--file', lookupFile, '--each-line', ...format],
        env,
      );
      expect(result.stdout.trim()).toBe('0');
      expect(result.stderr).toBe('');
    }
    expect(readdirSync(ROOT).filter((name) => name.startsWith('svc-unresolved-'))).toEqual([]);
  });
});
