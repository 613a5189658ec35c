// Benchmark of replies whose rows each bring a field of their own (a script, not a test): a list of
// N rows, each with the same few fields and one key no other row has, served by a minimal node:http
// server and written by `svc` as a table (into a file: a pipe's table), CSV and NDJSON, beside
// `--json` (the reply printed as received: the floor), for two commands: one with a designed table
// and extra columns for unknown fields (`reports transactions`), and one whose reply shape is not
// shown, drawn by the generic view (`consents list`). Each run is timed from spawn to exit, with
// its exit code and the size of what it wrote to stdout; then the table again, sent SIGTERM as soon
// as its output begins: how long svc takes to end. Every output must be linear in the reply: one
// that grows with rows × rows takes minutes at 30,000 rows. The table shows at most 24 columns
// beyond its design, and CSV past 1,000 columns is refused with exit 10 before writing.
//
//   node bench/wide-replies.mjs [--rows 30000[,300000]] [--runs N (default 3)] [--limit SECONDS (default 60)]
//
// A run that passes --limit is killed and reported as such. Targets: at 30,000 rows, every output
// ends within 10 s (a hang detector: quadratic code takes minutes), with exit 0, or 10 for CSV;
// SIGTERM ends the table within a second, exit 143. Exit code 1 when a target is missed.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SVC = join(ROOT, 'bin', 'svc.cjs');
const KEY = `svc_sk_test_${'0123456789abcdef'.repeat(2)}`;
const TARGET_ROWS = 30_000;
const TARGET_SECONDS = 10;
const TARGET_STOP_MS = 1000;
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .flatMap((arg, i, all) => (arg.startsWith('--') ? [[arg.slice(2), all[i + 1]]] : [])),
);
const SIZES = (args.rows ?? String(TARGET_ROWS)).split(',').map(Number);
const RUNS = Math.max(1, Number(args.runs ?? 3));
const LIMIT_MS = Number(args.limit ?? 60) * 1000;

/** A transaction of the documented shape, and one field that only this row has. */
function transaction(i) {
  const n = String(i).padStart(6, '0');
  return {
    id: `txn_${n}`,
    date: '2026-01-01',
    description: `PAYMENT ${n}`,
    debit: 100.5,
    balance: 1000 + i,
    [`note_${n}`]: 'x',
  };
}

/** A consent of a shape no document shows, and one field that only this row has. */
function consent(i) {
  const n = String(i).padStart(6, '0');
  return { id: `cns_${n}`, status: 'active', reads: i, [`grant_${n}`]: 'y' };
}

const bodies = new Map();
function bodyFor(path, rows) {
  const key = `${path} ${rows}`;
  if (!bodies.has(key)) {
    const items = Array.from({ length: rows }, (_, i) =>
      path.startsWith('/v1/consents') ? consent(i) : transaction(i),
    );
    bodies.set(
      key,
      Buffer.from(
        JSON.stringify(
          path.startsWith('/v1/consents') ? { data: items } : { count: rows, transactions: items },
        ),
      ),
    );
  }
  return bodies.get(key);
}

let rowsServed = SIZES[0];
const server = createServer((request, response) => {
  const body = bodyFor(request.url ?? '/', rowsServed);
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  response.end(body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}`;

const home = mkdtempSync(join(tmpdir(), 'svc-bench-wide-'));
const env = {
  ...process.env,
  CI: 'true',
  HOME: home,
  SVC_CONFIG_DIR: join(home, 'config'),
  SVC_CACHE_DIR: join(home, 'cache'),
  SVC_BASE_URL: url,
  SVC_API_KEY: KEY,
};

/** One run: wall time, exit code (or 'killed'), bytes written to stdout. */
function runOnce(argv) {
  const out = join(home, 'out');
  const fd = openSync(out, 'w');
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [SVC, ...argv], { env, stdio: ['ignore', fd, 'ignore'] });
  closeSync(fd);
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    child.kill('SIGKILL');
  }, LIMIT_MS);
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({
        ms: Number(process.hrtime.bigint() - started) / 1e6,
        code: killed ? 'killed' : code,
        bytes: statSync(out).size,
      });
    });
  });
}

/**
 * One run of the table sent SIGTERM as soon as its output begins: how long svc takes to end after
 * it.
 */
function stopOnce(argv) {
  const child = spawn(process.execPath, [SVC, ...argv], {
    env,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let sentAt;
  child.stdout.once('data', () => {
    sentAt = process.hrtime.bigint();
    child.kill('SIGTERM');
  });
  child.stdout.resume();
  const timer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({
        ms: sentAt === undefined ? undefined : Number(process.hrtime.bigint() - sentAt) / 1e6,
        code: code ?? signal,
      });
    });
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

const COMMANDS = [
  {
    name: 'reports transactions',
    argv: ['reports', 'transactions', 'rpt_0123456789abcdef'],
    path: '/v1/reports/x/transactions',
  },
  { name: 'consents list', argv: ['consents', 'list'], path: '/v1/consents' },
];
const FORMATS = [
  { name: '--json', flags: ['--json'], exit: 0 },
  { name: 'table', flags: [], exit: 0 },
  { name: 'csv', flags: ['-o', 'csv'], exit: 10 },
  { name: 'ndjson', flags: ['-o', 'ndjson'], exit: 0 },
];

let missed = 0;
try {
  for (const rows of SIZES) {
    rowsServed = rows;
    console.log(
      `\n${rows.toLocaleString('en')} rows, one unique key each (reply of ${mib(bodyFor('/v1/reports/x/transactions', rows).length)} and ${mib(bodyFor('/v1/consents', rows).length)})`,
    );
    console.log(
      `${'command'.padEnd(22)} ${'format'.padEnd(7)} ${'median'.padStart(9)}  ${'÷ --json'.padStart(8)}  exit  stdout`,
    );
    for (const command of COMMANDS) {
      let floor;
      for (const format of FORMATS) {
        const results = [];
        for (let i = 0; i < RUNS; i++) {
          const result = await runOnce([...command.argv, ...format.flags]);
          results.push(result);
          // A run that hit the limit says enough: the others would too.
          if (result.code === 'killed') break;
        }
        const ms = median(results.map((r) => r.ms));
        const last = results.at(-1);
        floor ??= ms;
        const killed = last.code === 'killed';
        const shown = killed
          ? `> ${(LIMIT_MS / 1000).toFixed(0)} s`
          : `${(ms / 1000).toFixed(2)} s`;
        const ratio = killed ? '' : (ms / floor).toFixed(1);
        const ok = last.code === format.exit && (rows > TARGET_ROWS || ms <= TARGET_SECONDS * 1000);
        if (!ok) missed++;
        console.log(
          `${command.name.padEnd(22)} ${format.name.padEnd(7)} ${shown.padStart(9)}  ${ratio.padStart(8)}  ${String(last.code).padEnd(4)}  ${mib(last.bytes)}${ok ? '' : '  (target missed)'}`,
        );
      }
      const stops = [];
      for (let i = 0; i < RUNS; i++) stops.push(await stopOnce(command.argv));
      const heard = stops.filter((r) => r.ms !== undefined);
      const ms = heard.length ? median(heard.map((r) => r.ms)) : undefined;
      const ok =
        stops.every((r) => r.code === 143) &&
        (rows > TARGET_ROWS || (ms !== undefined && ms <= TARGET_STOP_MS));
      if (!ok) missed++;
      const shown = ms === undefined ? 'no output' : `${(ms / 1000).toFixed(2)} s`;
      console.log(
        `${command.name.padEnd(22)} ${'table, SIGTERM once its output began: ended'} ${shown} after it, exit ${stops.map((r) => r.code).join(', ')}${ok ? '' : '  (target missed)'}`,
      );
    }
  }
} finally {
  server.close();
  rmSync(home, { recursive: true, force: true });
}
if (missed > 0)
  console.log(
    `\n${missed} target(s) missed: every output of ${TARGET_ROWS.toLocaleString('en')} rows within ${TARGET_SECONDS} s, CSV refused with exit 10, SIGTERM heard within 1 s.`,
  );
process.exit(missed > 0 ? 1 : 0);
