// Benchmark of `svc merchants resolve` at scale (a script, not a test): lookups from a file
// through `svc mock`, side by side with a minimal script doing the same batching with fetch.
// Reports the median wall time of each, their ratio, and the CLI's peak RSS, for 20,000 and
// 200,000 lookups with --json, -o ndjson and -o csv.
//
//   node bench/merchants.mjs [--runs N (default 7)] [--sizes 20000,200000] [--formats json,ndjson,csv]
//
// Targets (issue 3): wall time within 1.15x of the minimal script; peak RSS under 150 MB and flat
// as the input grows. Exit code 1 when a target is missed.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../scripts/mulberry32.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SVC = join(ROOT, 'bin', 'svc.cjs');
const TARGET_RATIO = 1.15;
const TARGET_RSS_MB = 150;

const args = Object.fromEntries(
  process.argv.slice(2).flatMap((arg, i, all) => (arg.startsWith('--') ? [[arg.slice(2), all[i + 1]]] : [])),
);
const RUNS = Number(args.runs ?? 7);
const SIZES = (args.sizes ?? '20000,200000').split(',').map(Number);
const FORMATS = (args.formats ?? 'json,ndjson,csv').split(',');

if (!existsSync(join(ROOT, 'dist', 'cli.js'))) {
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
  const { merchants } = JSON.parse(readFileSync(join(ROOT, 'src/mock/fixtures/merchants.json'), 'utf8'));
  const known = merchants.flatMap((m) => m.terminals);
  const variants = merchants.flatMap((m) => [m.merchant.toUpperCase(), `${m.merchant} Pvt. Ltd.`, `M/S ${m.merchant}`, `${m.merchant.toLowerCase()} traders`]);
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
  for (let i = 0; i < names && i < variants.length; i++) add(variants[Math.floor(random() * variants.length)]);
  while (lines.length < size) add(String(1 + Math.floor(random() * 9)) + String(Math.floor(random() * 1e15)).padStart(15, '0'));
  // Shuffle so terminals and names mix in every call.
  for (let i = lines.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [lines[i], lines[j]] = [lines[j], lines[i]];
  }
  const path = join(dir, `lookups-${size}.txt`);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

// --- the minimal script: the same batching with fetch, nothing else ---

const MINIMAL = String.raw`
import { readFileSync } from 'node:fs';
const [file, format] = process.argv.slice(2);
const { SVC_BASE_URL: base, SVC_API_KEY: key } = process.env;
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
    const reply = await fetch(base + '/v1/merchants/resolve', {
      method: 'POST',
      headers: { authorization: 'Bearer ' + key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!reply.ok) throw new Error('HTTP ' + reply.status);
    const json = await reply.json();
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
`;

// --- running and measuring ---

const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** Runs a node script with stdout to /dev/null; wall time in ms and peak RSS in MB. */
function measure(nodeArgs, env) {
  return new Promise((resolve, reject) => {
    const devNull = openSync('/dev/null', 'w');
    const [command, commandArgs] = TIME ? [TIME, ['-f', '%M', process.execPath, ...nodeArgs]] : [process.execPath, nodeArgs];
    const started = performance.now();
    const child = spawn(command, commandArgs, { env, cwd: ROOT, stdio: ['ignore', devNull, 'pipe'] });
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
      if (code !== 0) return reject(new Error(`${nodeArgs.join(' ')} exited ${code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`));
      if (TIME) peakKb = Number(stderr.trim().split('\n').at(-1));
      resolve({ ms, rssMb: peakKb / 1024 });
    });
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function startMock() {
  const mock = spawn(process.execPath, [SVC, 'mock', '--port', '0', '--json', '--quiet'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise((resolve, reject) => {
    mock.once('exit', (code) => reject(new Error(`svc mock exited with ${code}`)));
    createInterface({ input: mock.stdout }).once('line', resolve);
  });
  const { url, keys } = JSON.parse(line);
  return { mock, url, key: keys.find((k) => k.mode === 'test' && k.scope === 'FULL').key };
}

const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
const { mock, url, key } = await startMock();
const env = { PATH: process.env.PATH, HOME: dir, SVC_CONFIG_DIR: join(dir, 'config'), SVC_BASE_URL: url, SVC_API_KEY: key };
const minimal = join(dir, 'minimal.mjs');
writeFileSync(minimal, MINIMAL);

const rows = [];
let missed = false;
try {
  for (const size of SIZES) {
    const file = lookupFile(size, dir);
    for (const format of FORMATS) {
      const flag = format === 'json' ? ['--json'] : ['-o', format];
      const cli = [];
      const base = [];
      // One warm-up of each, then alternate so both see the same machine conditions.
      await measure([SVC, 'merchants', 'resolve', '--file', file, ...flag], env);
      await measure([minimal, file, format], env);
      for (let run = 0; run < RUNS; run++) {
        cli.push(await measure([SVC, 'merchants', 'resolve', '--file', file, ...flag], env));
        base.push(await measure([minimal, file, format], env));
      }
      const row = {
        lookups: size,
        format,
        cliMs: median(cli.map((r) => r.ms)),
        minimalMs: median(base.map((r) => r.ms)),
        cliRssMb: Math.max(...cli.map((r) => r.rssMb)),
        minimalRssMb: Math.max(...base.map((r) => r.rssMb)),
      };
      row.ratio = row.cliMs / row.minimalMs;
      rows.push(row);
      // The issue sets the wall-time target at 200,000 lookups (at 20,000 the start-up of each
      // process weighs more than the work); the memory target holds at every size.
      if ((size >= 200_000 && row.ratio > TARGET_RATIO) || row.cliRssMb > TARGET_RSS_MB) missed = true;
      console.log(
        `${String(size).padStart(7)} lookups  ${format.padEnd(6)}  svc ${row.cliMs.toFixed(0).padStart(5)} ms  minimal ${row.minimalMs.toFixed(0).padStart(5)} ms  ` +
          `ratio ${row.ratio.toFixed(2)}  svc peak RSS ${row.cliRssMb.toFixed(1)} MB (minimal ${row.minimalRssMb.toFixed(1)} MB)`,
      );
    }
  }
} finally {
  mock.kill('SIGINT');
  rmSync(dir, { recursive: true, force: true });
}

console.log(`\nmedians of ${RUNS} runs each; peak RSS is the highest of those runs (${TIME ? 'GNU time %M' : '/proc VmHWM'}).`);
for (const format of FORMATS) {
  const [small, large] = [Math.min(...SIZES), Math.max(...SIZES)].map((size) => rows.find((r) => r.lookups === size && r.format === format));
  if (small && large && small !== large) {
    console.log(`${format}: svc peak RSS grows ${(large.cliRssMb - small.cliRssMb).toFixed(1)} MB from ${small.lookups} to ${large.lookups} lookups`);
  }
}
console.log(`targets: ratio <= ${TARGET_RATIO} at 200,000 lookups, svc peak RSS < ${TARGET_RSS_MB} MB: ${missed ? 'MISSED' : 'met'}`);
if (args.json) writeFileSync(args.json, JSON.stringify(rows, null, 2) + '\n');
process.exitCode = missed ? 1 : 0;
