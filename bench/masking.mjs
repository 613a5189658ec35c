// Benchmark of the masking of echoed secrets (a script, not a test): `svc api` prints replies of
// growing size from a local server that echoes near-misses of the key in use, the hardest text for
// the masking (each near-miss reads like the key up to its last character), split by what the
// masking looks past: U+200B, ESC[0m, JSON escapes; and, beside them, the same size of ordinary
// JSON. Every reply goes through the masking of stdout whole, in one write.
//
//   node bench/masking.mjs [--runs N (default 3)] [--sizes 1,4,16 (MiB)]
//
// Target: time linear in the reply's size. Each kind's time per MiB added from the smallest to the
// largest size is at most 1.5x its time per MiB added between the two smallest (a quadratic cost
// would make it 4x from 4 to 16 MiB). Exit code 1 when a target is missed.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SVC = join(ROOT, 'bin', 'svc.cjs');
const TARGET_RATIO = 1.5;
const MIB = 1024 * 1024;

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .flatMap((arg, i, all) => (arg.startsWith('--') ? [[arg.slice(2), all[i + 1]]] : [])),
);
const RUNS = Number(args.runs ?? 3);
const SIZES = (args.sizes ?? '1,4,16')
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);

if (!existsSync(join(ROOT, 'dist', 'cli.cjs'))) {
  console.error('dist/ is missing: run `npm run build` first (npm run bench does).');
  process.exit(2);
}

const KEY = 'svc_sk_test_3c8600dbcb7d85349f2e1a0b7c6d5e4f';
const nearMiss = KEY.slice(0, -1);
/**
 * One piece of each kind of reply; a reply is pieces up to its size, as the items of a JSON list.
 */
const PIECES = {
  ordinary: JSON.stringify({
    merchant: 'Shrestha Kirana Pasal',
    terminal: '9000000000000001',
    note: 'paid "in full" \\ cash',
    city: 'Kathmandu',
  }),
  'near-miss, U+200B': JSON.stringify([...nearMiss].join('\u200b')),
  'near-miss, ESC[0m': JSON.stringify([...nearMiss].join('\u001b[0m')),
  'near-miss, escaped': JSON.stringify(nearMiss).replace(/_/g, '\\u005f'),
};

function body(kind, mib) {
  const piece = PIECES[kind];
  const count = Math.ceil((mib * MIB) / (piece.length + 1));
  return `[${Array(count).fill(piece).join(',')}]`;
}

const bodies = new Map();
const server = createServer((req, res) => {
  const [kind, mib] = decodeURIComponent(req.url.slice('/v1/'.length)).split('@');
  const key = `${kind}@${mib}`;
  if (!bodies.has(key)) bodies.set(key, body(kind, Number(mib)));
  res.writeHead(200, { 'content-type': 'application/json' }).end(bodies.get(key));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const home = mkdtempSync(join(tmpdir(), 'svc-bench-masking-'));
const env = {
  ...process.env,
  CI: '1',
  HOME: home,
  SVC_CONFIG_DIR: join(home, 'config'),
  SVC_CACHE_DIR: join(home, 'cache'),
  SVC_BASE_URL: `http://127.0.0.1:${server.address().port}`,
  SVC_API_KEY: KEY,
};

/** Wall time of `svc api` printing one reply into a pipe. */
function once(kind, mib) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, [SVC, 'api', encodeURIComponent(`${kind}@${mib}`)], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) =>
      code === 0
        ? resolve(Number(process.hrtime.bigint() - start) / 1e6)
        : reject(new Error(`svc api exited ${code}: ${stderr}`)),
    );
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

try {
  const kinds = Object.keys(PIECES);
  for (const kind of kinds) await once(kind, SIZES[0]);
  const times = new Map();
  // Interleaved, so that a slow moment of the machine hits every case alike.
  for (let run = 0; run < RUNS; run++) {
    for (const kind of kinds) {
      for (const mib of SIZES)
        times.set(`${kind}@${mib}`, [
          ...(times.get(`${kind}@${mib}`) ?? []),
          await once(kind, mib),
        ]);
    }
  }
  console.log(`node ${process.version}, ${RUNS} runs each, medians (svc api into a pipe):`);
  let missed = false;
  for (const kind of kinds) {
    const ms = SIZES.map((mib) => median(times.get(`${kind}@${mib}`)));
    const perMib = (from, to) => (ms[to] - ms[from]) / (SIZES[to] - SIZES[from]);
    const ratio = SIZES.length > 2 ? perMib(0, SIZES.length - 1) / perMib(0, 1) : 1;
    const verdict =
      SIZES.length > 2
        ? `  per MiB added ${ratio.toFixed(2)}x the first step's ${ratio <= TARGET_RATIO ? 'ok' : 'MISSED'} (target <= ${TARGET_RATIO}x)`
        : '';
    if (ratio > TARGET_RATIO) missed = true;
    console.log(
      `  ${kind.padEnd(20)} ${SIZES.map((mib, i) => `${mib} MiB ${ms[i].toFixed(0).padStart(6)} ms`).join('  ')}${verdict}`,
    );
  }
  process.exitCode = missed ? 1 : 0;
} finally {
  server.close();
  rmSync(home, { recursive: true, force: true });
}
