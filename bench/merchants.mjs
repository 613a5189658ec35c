// Benchmark of `svc merchants resolve` at scale (a script, not a test): lookups from a file through
// `svc mock`, side by side with a minimal node:http script doing the same batching (one keep-alive
// http.Agent, 1000 lookups a call, 4 calls at once, output in input order, the same output formats:
// --json, -o ndjson, -o csv). The minimal script reads its whole file first and keeps it; svc reads
// as the calls go. Both send what docs/reference/reliability.md asks of every POST (an
// Idempotency-Key on each POST), so the mock does the same work for each and the difference is the
// client's own; each run has a fresh mock of its own, so every run starts from the same state.
// Reports the median wall time of each over interleaved runs, their ratio, svc's peak RSS, and how
// much that peak grows from the smallest to the largest size (the memory that grows with the input:
// svc keeps 8 bytes a distinct lookup).
//
//   node bench/merchants.mjs [--runs N (default 5)] [--large-runs N (default 3)]
//                            [--sizes 200000,1000000] [--formats json[,ndjson,csv]] [--json out.json]
//                            [--each-line-sizes 100000,1000000] [--each-line-runs N (default 3)]
//                            [--only compare|each-line]
//
// --runs applies to sizes under 1,000,000 lookups and --large-runs to the larger ones (a run of a
// million lookups takes 4 to 10 s on a shared 2-core machine); the default run takes 1.5 to 3
// minutes there. Peak RSS moves by a few MiB from run to run (V8 sizes its young generation by what
// survives, and glibc keeps per-thread arenas): the growth is the highest peak of the largest size
// less the highest of the smallest. Targets (issue: merchants at a million lookups): wall time at
// most 1.10x the minimal script at 200,000 lookups and more; svc's peak RSS grows at most 16 MiB
// from the smallest to the largest size. Exit code 1 when a target is missed.
//
// Then --each-line (a record for each input line, -o csv), svc alone: input lines of two kinds,
// "duplicates" (a statement's terminals: every lookup on 30 lines, so a thirtieth of the lines are
// distinct) and "distinct" (every line a new lookup), at each of --each-line-sizes, beside the same
// input without --each-line. Target: what --each-line adds to the peak RSS stays at most 32 MiB
// plus 24 bytes a distinct lookup, at every size: nothing grows with the lines themselves; what
// grows is the index that tells each line where its result is (about 21 bytes a distinct lookup),
// the results waiting in a temporary file. (The peak RSS of svc without --each-line itself moves by
// some 30 MiB from 100,000 to 1,000,000 lines: V8 sizes its heap by the rate of allocation; so the
// target is the difference, not the growth.)
import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { mulberry32 } from '../scripts/mulberry32.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SVC = join(ROOT, 'bin', 'svc.cjs');
const TARGET_RATIO = 1.1;
const RATIO_FROM_SIZE = 200_000;
const TARGET_RSS_GROWTH_MIB = 16;
const LARGE = 1_000_000;

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .flatMap((arg, i, all) => (arg.startsWith('--') ? [[arg.slice(2), all[i + 1]]] : [])),
);
const RUNS = Number(args.runs ?? 5);
const LARGE_RUNS = Number(args['large-runs'] ?? 3);
const SIZES = (args.sizes ?? '200000,1000000')
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
const EACH_LINE_SIZES = (args['each-line-sizes'] ?? '100000,1000000')
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
const ONLY = args.only;
const EACH_LINE_FIXED_MIB = 32;
const EACH_LINE_BYTES_A_LOOKUP = 24;
const EACH_LINE_RUNS = Number(args['each-line-runs'] ?? 3);
const FORMATS = (args.formats ?? 'json').split(',');
const runsFor = (size) => (size >= LARGE ? LARGE_RUNS : RUNS);

if (!existsSync(join(ROOT, 'dist', 'cli.cjs'))) {
  console.error('dist/ is missing: run `npm run build` first (npm run bench does).');
  process.exit(2);
}

// --- input files: deterministic, distinct lookups ---

/**
 * `size` distinct lookups: every fixture terminal, random 16-digit numbers (mostly unknown to
 * the directory), and 2% merchant-name strings written as statements write them.
 */
function lookupFile(size, dir) {
  const random = mulberry32(size);
  const { merchants } = JSON.parse(
    readFileSync(join(ROOT, 'src/mock/fixtures/merchants.json'), 'utf8'),
  );
  const known = merchants.flatMap((m) => m.terminals);
  const variants = merchants.flatMap((m) => [
    m.merchant.toUpperCase(),
    `${m.merchant} Pvt. Ltd.`,
    `M/S ${m.merchant}`,
    `${m.merchant.toLowerCase()} traders`,
  ]);
  const seen = new Set();
  const lines = [];
  const add = (value) => {
    if (!seen.has(value)) {
      seen.add(value);
      lines.push(value);
    }
  };
  for (const terminal of known.slice(0, Math.floor(size * 0.05))) add(terminal);
  const names = Math.floor(size * 0.02);
  for (let i = 0; i < names && i < variants.length; i++)
    add(variants[Math.floor(random() * variants.length)]);
  while (lines.length < size)
    add(
      String(1 + Math.floor(random() * 9)) + String(Math.floor(random() * 1e15)).padStart(15, '0'),
    );
  // Shuffle so terminals and names mix in every call.
  for (let i = lines.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [lines[i], lines[j]] = [lines[j], lines[i]];
  }
  const path = join(dir, `lookups-${size}.txt`);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

// --- the minimal script: the same batching with node:http, nothing else ---

const MINIMAL = String.raw`
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { randomUUID } from 'node:crypto';
const [file, format] = process.argv.slice(2);
const { SVC_BASE_URL: base, SVC_API_KEY: key } = process.env;
const url = new URL('/v1/merchants/resolve', base);
const agent = new Agent({ keepAlive: true, maxSockets: 4 });
const seen = new Set();
for (const line of readFileSync(file, 'utf8').split('\n')) {
  const value = line.trim();
  if (value) seen.add((/^\d{16,}$/.test(value) ? 't' : 'n') + value);
}
const all = [...seen];
const batches = [];
for (let i = 0; i < all.length; i += 1000) batches.push(all.slice(i, i + 1000));
const results = new Array(batches.length);
let next = 0, written = 0, count = 0, matched = 0, meta;
const out = (text) => new Promise((resolve) => (process.stdout.write(text) ? resolve() : process.stdout.once('drain', resolve)));
const keys = ['input', 'type', 'matched', 'terminal', 'merchant', 'mcc', 'category', 'city'];
const csv = (v) => (/[",\r\n]/.test(v) ? '"' + v.replaceAll('"', '""') + '"' : v);
function post(body) {
  return new Promise((resolve, reject) => {
    const headers = { authorization: 'Bearer ' + key, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'idempotency-key': randomUUID() };
    const req = request(url, { method: 'POST', agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))) : reject(new Error('HTTP ' + res.statusCode))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
async function flush() {
  while (results[written]) {
    let text = '';
    for (const r of results[written]) {
      if (format === 'ndjson') text += JSON.stringify(r) + '\n';
      else if (format === 'csv') text += keys.map((k) => csv(r[k] == null ? '' : String(r[k]))).join(',') + '\r\n';
      else text += (count ? ',\n      ' : '\n      ') + JSON.stringify(r, null, 2).replace(/\n/g, '\n      ');
      count++;
      if (r.matched) matched++;
    }
    results[written++] = null;
    await out(text);
  }
}
async function worker() {
  while (next < batches.length) {
    const i = next++;
    const body = { terminals: [], names: [] };
    for (const k of batches[i]) (k[0] === 't' ? body.terminals : body.names).push(k.slice(1));
    const json = await post(JSON.stringify(body));
    meta ??= json.meta;
    const byInput = new Map(json.data.results.map((r) => [r.input, r]));
    results[i] = batches[i].map((k) => byInput.get(k.slice(1)));
    await flush();
  }
}
if (format === 'json') await out('{\n  "data": {\n    "results": [');
if (format === 'csv') await out(keys.join(',') + '\r\n');
await Promise.all(Array.from({ length: 4 }, worker));
if (format === 'json') await out('\n    ],\n    "count": ' + count + ',\n    "matched": ' + matched + '\n  },\n  "meta": ' + JSON.stringify(meta, null, 2).replace(/\n/g, '\n  ') + '\n}\n');
agent.destroy();
`;

// --- running and measuring ---

const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/**
 * `lines` input lines over `lines / repeats` distinct lookups (every fixture terminal among them),
 * each on `repeats` lines, the lines in random order.
 */
function repeatedLookupFile(lines, repeats, dir) {
  const random = mulberry32(lines + repeats);
  const distinct = readFileSync(lookupFile(Math.max(1, Math.floor(lines / repeats)), dir), 'utf8')
    .trimEnd()
    .split('\n');
  const order = Array.from({ length: lines }, (_, i) => distinct[i % distinct.length]);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const path = join(dir, `lines-${lines}-${repeats}.txt`);
  writeFileSync(path, order.join('\n') + '\n');
  return path;
}

/** Runs a node script with stdout to /dev/null; wall time in ms and peak RSS in MiB. */
function measure(nodeArgs, env) {
  return new Promise((resolve, reject) => {
    const devNull = openSync('/dev/null', 'w');
    const [command, commandArgs] = TIME
      ? [TIME, ['-f', '%M', process.execPath, ...nodeArgs]]
      : [process.execPath, nodeArgs];
    const started = performance.now();
    const child = spawn(command, commandArgs, {
      env,
      cwd: ROOT,
      stdio: ['ignore', devNull, 'pipe'],
    });
    closeSync(devNull);
    let stderr = '';
    let peakKb = 0;
    // Without GNU time: the high-water mark the kernel keeps for the process, read while it runs.
    const poll = TIME
      ? undefined
      : setInterval(() => {
          try {
            const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
            if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
          } catch {
            // gone already
          }
        }, 5);
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (poll) clearInterval(poll);
      if (code !== 0)
        return reject(
          new Error(
            `${nodeArgs.join(' ')} exited ${code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`,
          ),
        );
      if (TIME) peakKb = Number(stderr.trim().split('\n').at(-1));
      resolve({ ms, rssMiB: peakKb / 1024 });
    });
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function startMock() {
  // Its keys in the bench's folder, not in the data folder of the user's own `svc mock`.
  const mock = spawn(process.execPath, [SVC, 'mock', '--port', '0', '--json', '--quiet'], {
    cwd: ROOT,
    env: { ...process.env, SVC_DATA_DIR: join(dir, 'data') },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const line = await new Promise((resolve, reject) => {
    mock.once('exit', (code) => reject(new Error(`svc mock exited with ${code}`)));
    createInterface({ input: mock.stdout }).once('line', resolve);
  });
  const { url, keys } = JSON.parse(line);
  return { mock, url, key: keys.find((k) => k.mode === 'test' && k.scope === 'FULL').key };
}

/**
 * Runs `program` (node arguments, given the mock's address and key) against a mock of its own,
 * started fresh and stopped after: a mock shared by every run would meet each with the
 * Idempotency-Keys (up to 16 MiB of replies) of the runs before it, and no two runs would start
 * alike.
 */
async function againstFreshMock(program) {
  const { mock, url, key } = await startMock();
  try {
    const env = {
      PATH: process.env.PATH,
      HOME: dir,
      SVC_CONFIG_DIR: join(dir, 'config'),
      SVC_BASE_URL: url,
      SVC_API_KEY: key,
    };
    return await measure(program, env);
  } finally {
    const exited = new Promise((resolve) => mock.once('exit', resolve));
    mock.kill('SIGINT');
    await exited;
  }
}

const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
const minimal = join(dir, 'minimal.mjs');
writeFileSync(minimal, MINIMAL);

const rows = [];
const misses = [];
try {
  for (const [s, size] of (ONLY === 'each-line' ? [] : SIZES).entries()) {
    const file = lookupFile(size, dir);
    for (const format of FORMATS) {
      const flag = format === 'json' ? ['--json'] : ['-o', format];
      const svcRun = () => againstFreshMock([SVC, 'merchants', 'resolve', '--file', file, ...flag]);
      const minimalRun = () => againstFreshMock([minimal, file, format]);
      const cli = [];
      const base = [];
      // One warm-up of each at the first size (disk cache, compile cache); then they alternate,
      // so that both see the same machine conditions.
      if (s === 0) {
        await svcRun();
        await minimalRun();
      }
      const runs = runsFor(size);
      for (let run = 0; run < runs; run++) {
        // Which goes first alternates too: neither always runs right after the other.
        if (run % 2 === 0) {
          cli.push(await svcRun());
          base.push(await minimalRun());
        } else {
          base.push(await minimalRun());
          cli.push(await svcRun());
        }
      }
      const row = {
        lookups: size,
        format,
        runs,
        cliMs: median(cli.map((r) => r.ms)),
        minimalMs: median(base.map((r) => r.ms)),
        cliRssMiB: Math.max(...cli.map((r) => r.rssMiB)),
        minimalRssMiB: Math.max(...base.map((r) => r.rssMiB)),
      };
      row.ratio = row.cliMs / row.minimalMs;
      rows.push(row);
      // At fewer lookups the start-up of each process weighs more than the work: no ratio target.
      if (size >= RATIO_FROM_SIZE && row.ratio > TARGET_RATIO)
        misses.push(`${format} at ${size}: ratio ${row.ratio.toFixed(2)} > ${TARGET_RATIO}`);
      console.log(
        `${String(size).padStart(7)} lookups  ${format.padEnd(6)}  svc ${row.cliMs.toFixed(0).padStart(6)} ms  minimal ${row.minimalMs.toFixed(0).padStart(6)} ms  ` +
          `ratio ${row.ratio.toFixed(2)}  svc peak RSS ${row.cliRssMiB.toFixed(1)} MiB (minimal ${row.minimalRssMiB.toFixed(1)} MiB)  ${runs} runs`,
      );
    }
  }
  if (ONLY !== 'compare') await eachLine();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * --each-line at each size, with duplicates and with every line distinct: wall time and peak RSS,
 * beside a run without it.
 */
async function eachLine() {
  console.log(
    `\n--each-line -o csv (median time and highest peak RSS of ${EACH_LINE_RUNS} runs; peak RSS by ${TIME ? 'GNU time %M' : '/proc VmHWM'})`,
  );
  for (const size of EACH_LINE_SIZES) {
    for (const [kind, repeats] of [
      ['duplicates', 30],
      ['distinct', 1],
    ]) {
      const file = repeats === 1 ? lookupFile(size, dir) : repeatedLookupFile(size, repeats, dir);
      const plainRuns = [];
      const lineRuns = [];
      for (let run = 0; run < EACH_LINE_RUNS; run++) {
        plainRuns.push(
          await againstFreshMock([SVC, 'merchants', 'resolve', '--file', file, '-o', 'csv']),
        );
        lineRuns.push(
          await againstFreshMock([
            SVC,
            'merchants',
            'resolve',
            '--file',
            file,
            '-o',
            'csv',
            '--each-line',
          ]),
        );
      }
      const summary = (runs) => ({
        ms: median(runs.map((r) => r.ms)),
        rssMiB: Math.max(...runs.map((r) => r.rssMiB)),
      });
      const [plain, lines] = [summary(plainRuns), summary(lineRuns)];
      const distinct = Math.floor(size / repeats);
      const added = lines.rssMiB - plain.rssMiB;
      const allowed = EACH_LINE_FIXED_MIB + (EACH_LINE_BYTES_A_LOOKUP * distinct) / 2 ** 20;
      rows.push({
        eachLine: true,
        lines: size,
        kind,
        distinct,
        ms: lines.ms,
        rssMiB: lines.rssMiB,
        withoutMs: plain.ms,
        withoutRssMiB: plain.rssMiB,
      });
      console.log(
        `${String(size).padStart(8)} lines  ${kind.padEnd(10)} (${String(distinct).padStart(7)} distinct)  ` +
          `--each-line ${lines.ms.toFixed(0).padStart(6)} ms, peak RSS ${lines.rssMiB.toFixed(1)} MiB;  without it ${plain.ms.toFixed(0).padStart(6)} ms, ${plain.rssMiB.toFixed(1)} MiB;  ` +
          `added ${added.toFixed(1)} MiB (target <= ${allowed.toFixed(1)})`,
      );
      if (added > allowed)
        misses.push(
          `--each-line ${kind} at ${size} lines adds ${added.toFixed(1)} MiB > ${allowed.toFixed(1)} MiB`,
        );
    }
  }
}

console.log(
  `\nmedians of interleaved runs; peak RSS is the highest of a size's runs (${TIME ? 'GNU time %M' : '/proc VmHWM'}).`,
);
const [smallest, largest] = [SIZES[0], SIZES.at(-1)];
for (const format of ONLY === 'each-line' ? [] : FORMATS) {
  const [small, large] = [smallest, largest].map((size) =>
    rows.find((r) => r.lookups === size && r.format === format),
  );
  if (!small || !large || small === large) continue;
  const growth = large.cliRssMiB - small.cliRssMiB;
  console.log(
    `${format}: svc peak RSS grows ${growth.toFixed(1)} MiB from ${small.lookups} to ${large.lookups} lookups`,
  );
  if (growth > TARGET_RSS_GROWTH_MIB)
    misses.push(
      `${format}: peak RSS grows ${growth.toFixed(1)} MiB > ${TARGET_RSS_GROWTH_MIB} MiB`,
    );
}
console.log(
  `targets: ratio <= ${TARGET_RATIO.toFixed(2)} at ${RATIO_FROM_SIZE.toLocaleString('en-US')} lookups and more, svc peak RSS growth <= ${TARGET_RSS_GROWTH_MIB} MiB, --each-line as above: ` +
    (misses.length ? `MISSED (${misses.join('; ')})` : 'met'),
);
if (args.json) writeFileSync(args.json, JSON.stringify(rows, null, 2) + '\n');
process.exitCode = misses.length ? 1 : 0;
