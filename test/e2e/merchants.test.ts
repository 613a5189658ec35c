// `svc merchants resolve` run as a script would, against `svc mock`: batching into calls of at
// most 1000, merging in input order, duplicates sent once, files, CSV columns and stdin, the
// outputs agreeing, a run that stops leaving an unresolved file that a second run finishes.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import merchantsJson from '../../src/mock/fixtures/merchants.json' with { type: 'json' };
import { baseEnv, inTerminal, intoHead, ROOT, STACK_LINE, SVC, svcCommand, useWorld } from './harness.js';

const world = useWorld();
const RESOLVE = '/v1/merchants/resolve';
const directory = merchantsJson as { merchants: { merchant: string; mcc: string; city: string; terminals: string[] }[] };
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
  const names = directory.merchants.slice(0, 200).map((m, i) => (i % 2 ? `${m.merchant.toUpperCase()} PVT. LTD.` : `M/S ${m.merchant} Traders`));
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
  const requests = (await world.requests()).filter((r) => r.method === 'POST' && r.path === RESOLVE);
  return requests.map((r) => JSON.parse(r.body ?? 'null'));
}

function ndjson(text: string): Record<string, unknown>[] {
  return text
    .trimEnd()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

describe('merchants resolve at scale', () => {
  it('sends 2,500 distinct lookups as 3 calls of at most 1000, each once, and merges the replies in input order', async () => {
    const r = await world.svc(['merchants', 'resolve', '--file', lookupFile, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const calls = await resolveCalls();
    expect(calls).toHaveLength(3);
    const sizes = calls.map((c) => (c.terminals?.length ?? 0) + (c.names?.length ?? 0)).sort((a, b) => b - a);
    expect(sizes).toEqual([1000, 1000, 500]);
    // Duplicates are sent once: every distinct lookup exactly once over all calls.
    const sent = calls.flatMap((c) => [...(c.terminals ?? []), ...(c.names ?? [])]);
    expect(sent.sort()).toEqual([...input.distinct].sort());
    const reply = JSON.parse(r.stdout);
    expect(reply.data.count).toBe(2500);
    expect(reply.data.results.map((x: { input: string }) => x.input)).toEqual(input.distinct);
    expect(reply.data.matched).toBe(reply.data.results.filter((x: { matched: boolean }) => x.matched).length);
    expect(reply.data.matched).toBeGreaterThan(2000);
    expect(reply.meta.source).toMatch(/merchant directory/);
    // A name as statements write it is resolved to the clean name.
    const name = reply.data.results.find((x: { type: string }) => x.type === 'name');
    expect(name).toMatchObject({ matched: true, merchant: expect.not.stringMatching(/PVT|Traders|M\/S/) });
  });

  it('reads stdin with --file -, and the table, ndjson, csv and --json agree', async () => {
    const text = input.lines.slice(0, 300).join('\n');
    const [json, nd, csv, table] = await Promise.all([
      world.svc(['merchants', 'resolve', '--file', '-', '--json'], { input: text }),
      world.svc(['merchants', 'resolve', '--file', '-', '-o', 'ndjson'], { input: text }),
      world.svc(['merchants', 'resolve', '--file', '-', '-o', 'csv'], { input: text }),
      world.svc(['merchants', 'resolve', '--file', '-'], { input: text }),
    ]);
    for (const r of [json, nd, csv, table]) expect(r.code, r.stderr).toBe(0);
    const results = JSON.parse(json.stdout).data.results as Record<string, unknown>[];
    expect(results.length).toBeGreaterThan(200);
    expect(ndjson(nd.stdout)).toEqual(results);
    const rows = parseCsv(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(rows).toEqual(
      results.map((x) => ({
        input: x.input,
        type: x.type,
        matched: String(x.matched),
        terminal: x.terminal ?? '',
        merchant: x.merchant ?? '',
        mcc: x.mcc ?? '',
        category: x.category ?? '',
        city: x.city ?? '',
      })),
    );
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('INPUT\tTERMINAL\tMERCHANT\tMCC\tCATEGORY\tCITY\tMATCHED');
    expect(lines.slice(1).map((line) => line.split('\t')[0])).toEqual(results.map((x) => x.input));
    expect(lines.slice(1).map((line) => line.split('\t')[6])).toEqual(results.map((x) => (x.matched ? 'yes' : 'no')));
  });

  it('takes arguments and --name, and --unmatched shows only what matched nothing', async () => {
    const args = ['merchants', 'resolve', TERMINAL, UNKNOWN, '--name', `${MERCHANT.merchant.toLowerCase()} pvt ltd`, '--name', 'Nowhere Known Shop'];
    const all = await world.svc([...args, '-o', 'ndjson']);
    expect(all.code, all.stderr).toBe(0);
    expect(ndjson(all.stdout)).toEqual([
      { input: TERMINAL, type: 'terminal', matched: true, merchant: MERCHANT.merchant, mcc: MERCHANT.mcc, category: expect.any(String), city: MERCHANT.city, terminal: TERMINAL },
      { input: UNKNOWN, type: 'terminal', matched: false },
      expect.objectContaining({ type: 'name', matched: true, merchant: MERCHANT.merchant }),
      { input: 'Nowhere Known Shop', type: 'name', matched: false },
    ]);
    expect(await resolveCalls()).toEqual([{ terminals: [TERMINAL, UNKNOWN], names: [`${MERCHANT.merchant.toLowerCase()} pvt ltd`, 'Nowhere Known Shop'] }]);

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
  });

  it('reads one column of a CSV file with a header', async () => {
    const csv = join(files, 'statement.csv');
    writeFileSync(csv, `date,narration,amount\n2026-10-01,"${MERCHANT.merchant}, Pvt. Ltd.",120\n2026-10-02,${TERMINAL},450\n`);
    const r = await world.svc(['merchants', 'resolve', '--file', csv, '--column', 'narration', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(ndjson(r.stdout).map((x) => [x.type, x.merchant])).toEqual([
      ['name', MERCHANT.merchant],
      ['terminal', MERCHANT.merchant],
    ]);
  });

  it('--dry-run prints the plan and sends nothing (no key needed)', async () => {
    const r = await world.bare(['merchants', 'resolve', '--file', lookupFile, '--dry-run', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      dry_run: true,
      lookups: 2500,
      terminals: 2300,
      names: 200,
      duplicates: input.lines.filter((l) => l.trim() !== '').length - 2500,
      calls: 3,
      units: 3,
      concurrency: 3,
    });
    const table = await world.svc(['merchants', 'resolve', '--file', lookupFile, '--dry-run']);
    expect(table.stdout).toMatch(/^calls\t3 of at most 1,000 lookups, 3 at a time$/m);
    expect(table.stdout).toMatch(/^units\t3$/m);
    expect(await world.requests()).toEqual([]);
  });

  it('charges one billing unit a call, shown by svc usage', async () => {
    const used = async () => {
      const r = await world.svc(['usage', '--json']);
      // The mock's own counter, after the documented (parse) ones: no document shows how lookups are counted.
      return (JSON.parse(r.stdout) as { merchant_resolve: { used: number } }).merchant_resolve.used;
    };
    const before = await used();
    expect((await world.svc(['merchants', 'resolve', '--file', lookupFile, '-o', 'csv'])).code).toBe(0);
    expect(await used()).toBe(before + 3);
    expect((await world.svc(['usage'])).stdout).toMatch(new RegExp(`^merchant_resolve\\.used\\t${before + 3}$`, 'm'));
  });
});

describe('merchants resolve refuses bad input before any request', () => {
  it.each([
    [['merchants', 'resolve'], /nothing to resolve/],
    [['merchants', 'resolve', '12345'], /"12345" is not a terminal number/],
    [['merchants', 'resolve', '--name', ' '], /--name is empty/],
    [['merchants', 'resolve', TERMINAL, '--concurrency', '17'], /--concurrency takes a whole number from 1 to 16/],
    [['merchants', 'resolve', TERMINAL, '--concurrency', '0'], /--concurrency/],
    [['merchants', 'resolve', TERMINAL, '--column', 'x'], /--column needs --file/],
    [['merchants', 'resolve', '--file', '/nonexistent/lookups.txt'], /cannot read --file .*: no such file/],
    [['merchants', 'resolve', TERMINAL, '--failed-out', '/nonexistent/dir/out.txt'], /--failed-out .*: the folder \/nonexistent\/dir does not exist/],
  ])('%j', async (args, message) => {
    const r = await world.svc(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr.split('\n')[0]).toMatch(/^error: /);
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(await world.requests()).toEqual([]);
  });

  it('a line longer than 1 KiB (a 20 MB one here) is refused with its number, exit 2', async () => {
    const long = join(files, 'long-line.txt');
    writeFileSync(long, `${TERMINAL}\nCafe\n${'x'.repeat(20_000_000)}\n`);
    const r = await world.svc(['merchants', 'resolve', '--file', long, '-o', 'csv']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`error: ${long}, line 3: more than 1024 bytes, the most a lookup (a terminal number or a merchant name) may have\n`);
    expect(await world.requests()).toEqual([]);
  });

  it('a file with only blank lines is nothing to resolve', async () => {
    const blank = join(files, 'blank.txt');
    writeFileSync(blank, '\n  \n\n');
    const r = await world.svc(['merchants', 'resolve', '--file', blank]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/holds no lookups/);
  });
});

describe('merchants resolve and the service saying no', () => {
  it('a READ_ONLY key: exit 4, nothing on stdout', async () => {
    const cwd = world.tempDir();
    const r = await world.svc(['merchants', 'resolve', TERMINAL], { env: { SVC_API_KEY: world.key(0, 'test', 'READ_ONLY').key }, cwd });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: INSUFFICIENT_SCOPE: /m);
    // Lookups from the command line need no unresolved file: the command line is the list.
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('the mock refuses more than 1000 lookups in one call, and a bad body, with 400', async () => {
    const post = (body: string) =>
      fetch(`${world.mock.url}${RESOLVE}`, { method: 'POST', headers: { authorization: `Bearer ${world.key().key}`, 'content-type': 'application/json' }, body });
    const tooMany = await post(JSON.stringify({ terminals: Array.from({ length: 600 }, () => TERMINAL), names: Array.from({ length: 401 }, () => 'x') }));
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({ error_code: 'INVALID_REQUEST', error_message: expect.stringMatching(/at most 1000 lookups; this one has 1001/) });
    for (const body of ['not json', '[]', '{}', '{"terminals": []}', '{"terminals": [1]}', '{"names": "Cafe"}', '{"names": [" "]}']) {
      const reply = await post(body);
      expect(reply.status, body).toBe(400);
    }
    const exactly = await post(JSON.stringify({ terminals: Array.from({ length: 1000 }, () => TERMINAL) }));
    expect(exactly.status).toBe(200);
  });
});

describe('a run that stops leaves nothing lost', () => {
  it('a call failing after its retries: results so far written, the rest in the unresolved file, exit 8; running that file finishes the job', async () => {
    const cwd = world.tempDir('svc-run-');
    // The first call goes through, the second fails (with --retries 0, at once).
    await world.fault({ method: 'POST', path: RESOLVE, delay_ms: 0 }, { method: 'POST', path: RESOLVE, status: 503, times: 1 });
    const first = await world.svc(['merchants', 'resolve', '--file', lookupFile, '-o', 'csv', '--retries', '0', '--concurrency', '1'], { cwd });
    expect(first.code).toBe(8);
    // The run stopped starting calls: the third was never sent.
    expect(await resolveCalls()).toHaveLength(2);
    const done = parseCsv(first.stdout, { columns: true }) as Record<string, string>[];
    expect(done.map((x) => x.input)).toEqual(input.distinct.slice(0, 1000));
    const [saved] = readdirSync(cwd).filter((name) => /^svc-unresolved-\d{8}-\d{6}\.txt$/.test(name));
    expect(saved).toBeDefined();
    const path = join(cwd, saved!);
    expect(first.stderr).toContain(`1,500 of 2,500 lookups were not resolved; they are listed in ${path}`);
    expect(first.stderr).toContain(`Run again with --file ${path} to finish the job.`);
    expect(first.stderr).toMatch(/^error: HTTP_503: /m);
    expect(first.stderr).not.toMatch(STACK_LINE);
    expect(readFileSync(path, 'utf8')).toBe(input.distinct.slice(1000).join('\n') + '\n');

    await world.reset();
    const second = await world.svc(['merchants', 'resolve', '--file', path, '-o', 'csv'], { cwd });
    expect(second.code, second.stderr).toBe(0);
    const rest = parseCsv(second.stdout, { columns: true }) as Record<string, string>[];
    expect([...done, ...rest].map((x) => x.input)).toEqual(input.distinct);
    expect(await resolveCalls()).toHaveLength(2);
  });

  it('with calls in parallel, every result the run has is written and --failed-out names the file', async () => {
    const cwd = world.tempDir('svc-run-');
    const out = join(cwd, 'left.txt');
    await world.fault({ method: 'POST', path: RESOLVE, status: 503, times: 1 });
    const r = await world.svc(['merchants', 'resolve', '--file', lookupFile, '--json', '--retries', '0', '--failed-out', out], { cwd });
    expect(r.code).toBe(8);
    const reply = JSON.parse(r.stdout);
    const left = readFileSync(out, 'utf8').trimEnd().split('\n');
    // Whichever call failed, what was written and what was left make up the whole input, in order.
    expect(reply.data.count).toBe(reply.data.results.length);
    expect(reply.data.results.length + left.length).toBe(2500);
    expect(reply.data.results.map((x: { input: string }) => x.input)).toEqual(input.distinct.filter((v) => !left.includes(v)));
    // Machine output: stderr lines are JSON, the file named in one of them.
    const lines = r.stderr.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(lines).toContainEqual({ unresolved: left.length, lookups: 2500, failed_out: out });
    expect(lines.at(-1)).toMatchObject({ error_code: expect.any(String) });
    expect(readdirSync(cwd)).toEqual(['left.txt']);
  });

  it('Ctrl-C: exit 130, the lookups not resolved in the unresolved file', async () => {
    const cwd = world.tempDir('svc-run-');
    await world.fault({ method: 'POST', path: RESOLVE, delay_ms: 20_000 });
    const env = { ...baseEnv(world.dir), SVC_BASE_URL: world.mock.url, SVC_API_KEY: world.key().key };
    const child = spawn(process.execPath, [SVC, 'merchants', 'resolve', '--file', lookupFile, '--concurrency', '1'], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    try {
      for (let i = 0; i < 200 && (await resolveCalls()).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      child.kill('SIGINT');
      expect(await closed).toBe(130);
    } finally {
      clearTimeout(killer);
    }
    expect(stdout).toBe('');
    const [saved] = readdirSync(cwd);
    expect(stderr).toContain(`2,500 of 2,500 lookups were not resolved; they are listed in ${join(cwd, saved!)}`);
    expect(stderr).toMatch(/^error: interrupted$/m);
    expect(readFileSync(join(cwd, saved!), 'utf8').trimEnd().split('\n')).toEqual(input.distinct);
  });

  it('reading a CSV column first, then failing: the same unresolved file', async () => {
    const cwd = world.tempDir('svc-run-');
    const csv = join(cwd, 'statement.csv');
    writeFileSync(csv, 'narration\n' + input.distinct.map((v) => `"${v}"`).join('\n') + '\n');
    await world.fault({ method: 'POST', path: RESOLVE, status: 429, times: 3 });
    const r = await world.svc(['merchants', 'resolve', '--file', csv, '--column', 'narration', '--retries', '0', '--concurrency', '1', '--failed-out', 'left.txt'], { cwd });
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`2,500 of 2,500 lookups were not resolved; they are listed in left.txt`);
    expect(readFileSync(join(cwd, 'left.txt'), 'utf8').trimEnd().split('\n')).toEqual(input.distinct);
  });

  it('calls start while stdin is still being read', async () => {
    const env = { ...baseEnv(world.dir), SVC_BASE_URL: world.mock.url, SVC_API_KEY: world.key().key };
    const child = spawn(process.execPath, [SVC, 'merchants', 'resolve', '--file', '-', '-o', 'ndjson'], { env, cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    try {
      child.stdin.write(input.distinct.slice(0, 1200).join('\n') + '\n');
      for (let i = 0; i < 200 && (await resolveCalls()).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
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

  it('a closed stdout (| head -c 1) ends the run quietly with exit 0', async () => {
    const env = { ...baseEnv(world.dir), SVC_BASE_URL: world.mock.url, SVC_API_KEY: world.key().key };
    const result = await intoHead(['merchants', 'resolve', '--file', lookupFile, '--json'], env);
    expect(result.stdout.trim()).toBe('0');
    expect(result.stderr).toBe('');
    // A reader going away is no failure: no unresolved file.
    expect(readdirSync(ROOT).filter((name) => name.startsWith('svc-unresolved-'))).toEqual([]);
  });
});

describe('merchants resolve at a terminal', () => {
  it('says how many billing units a run of more than 10 calls uses, and shows progress on stderr', async () => {
    const many = join(files, 'many.txt');
    writeFileSync(many, Array.from({ length: 10_500 }, (_, i) => String(3_000_000_000_000_000n + BigInt(i))).join('\n'));
    const r = await inTerminal(`${svcCommand} merchants resolve --file ${many} -o csv > ${join(files, 'many.csv')}`, {
      configDir: world.dir,
      env: { SVC_BASE_URL: world.mock.url, SVC_API_KEY: world.key().key },
    });
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain('Resolving 10,500 lookups in 11 calls: this uses 11 billing units.');
    expect(r.stdout).toMatch(/\/10,500 lookups · \d+\/11 calls/);
    expect(readFileSync(join(files, 'many.csv'), 'utf8').trimEnd().split('\r\n')).toHaveLength(10_501);
  });
});

describe('a full disk', () => {
  it('--failed-out on a device with no space left is one clear error, and the device stays a device', async () => {
    const dir = world.tempDir('svc-full-');
    const input = join(dir, 'lookups.txt');
    writeFileSync(input, ['1000000000000001', '1000000000000002', '1000000000000003'].join('\n') + '\n');
    await world.fault({ method: 'POST', path: '/v1/merchants/resolve', status: 503, times: 3 });
    const r = await world.svc(['merchants', 'resolve', '--file', input, '--retries', '0', '--failed-out', '/dev/full', '-o', 'csv']);
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/^error: could not save the 3 unresolved lookups to \/dev\/full: .*(no space|ENOSPC)/im);
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(statSync('/dev/full').isCharacterDevice()).toBe(true);
  });
});
