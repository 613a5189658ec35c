// Benchmark of replies made of many small numbers (a script, not a test): the memory and time they
// take, first through the lossless reader alone (exact-json.ts, bundled from src/ with esbuild),
// then through `svc` against a minimal node:http server, in each output format. Each run is a
// process of its own: the reader's figure is what it holds once done (the heap after a full GC,
// beside the reply and its JSON.parse), svc's the peak RSS of its process (getrusage).
//
// Replies of --size MiB: `[1.10,1.10,…]` (every number one JSON.parse would write 1.1, so kept as
// its text), `[100000.10,100001.10,…]` (as many different numbers) and, for comparison, a list of
// records `{"id":"txn_…","amount":125000.50,"balance":…}`. svc's figures are beside those of a
// reply of one number: what svc takes for any request.
//
//   node bench/number-replies.mjs [--size MiB (default 16)] [--shapes repeated,distinct,records]
//
// Target (a reader that makes an object and a string for each number takes 750-860 MB for a
// 16 MiB reply of `1.10,`): the reader keeps at most 4 times a reply of `1.10,`.
// svc's figures are for information: its peak also counts garbage the GC has not yet taken, which
// differs between Node majors, and JSON.parse's own. Exit code 1 when the target is missed.
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SVC = join(ROOT, 'bin', 'svc.cjs');
const KEY = `svc_sk_test_${'0123456789abcdef'.repeat(2)}`;
const MIB = 1024 * 1024;
const TARGET_RATIO = 4;
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .flatMap((arg, i, all) => (arg.startsWith('--') ? [[arg.slice(2), all[i + 1]]] : [])),
);
const SIZE = Number(args.size ?? 16) * MIB;
const SHAPES = (args.shapes ?? 'repeated,distinct,records').split(',');

/**
 * The reply's JSON text of about SIZE bytes; written by the child itself too (the same function, as
 * source).
 */
function replyOf(shape, size) {
  const items = [];
  let length = 1;
  for (let i = 0; length < size; i++) {
    const item =
      shape === 'repeated'
        ? '1.10'
        : shape === 'distinct'
          ? `${100000 + i}.10`
          : `{"id":"txn_${String(i).padStart(8, '0')}","amount":125000.50,"balance":${1000000 + i}.25}`;
    items.push(item);
    length += item.length + 1;
  }
  return `[${items.join(',')}]`;
}

const dir = mkdtempSync(join(tmpdir(), 'svc-bench-numbers-'));
const mib = (bytes) => `${(bytes / MIB).toFixed(0)} MiB`;
let missed = 0;
try {
  // --- the reader alone ---
  await build({
    entryPoints: [join(ROOT, 'src', 'core', 'json', 'exact-json.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile: join(dir, 'exact-json.mjs'),
    logLevel: 'warning',
  });
  const child = join(dir, 'reader.mjs');
  writeFileSync(
    child,
    `import { exactBody } from './exact-json.mjs';
${replyOf.toString()}
const raw = replyOf(process.argv[2], Number(process.argv[3]));
const parsed = JSON.parse(raw);
globalThis.gc();
const heapBefore = process.memoryUsage().heapUsed;
const started = process.hrtime.bigint();
const body = exactBody(raw, parsed);
const ms = Number(process.hrtime.bigint() - started) / 1e6;
globalThis.gc();
const kept = process.memoryUsage().heapUsed - heapBefore;
console.log(JSON.stringify({ bytes: raw.length, items: body.length, ms, kept }));
`,
  );
  console.log(
    `Node ${process.versions.node}\n\nthe reader alone (exactBody of a reply already parsed)`,
  );
  console.log(
    `${'reply'.padEnd(10)} ${'size'.padStart(7)} ${'numbers'.padStart(9)} ${'kept'.padStart(8)} ${'÷ size'.padStart(6)} ${'time'.padStart(8)}`,
  );
  for (const shape of SHAPES) {
    const run = spawnSync(process.execPath, ['--expose-gc', child, shape, String(SIZE)], {
      encoding: 'utf8',
    });
    if (run.status !== 0) {
      console.log(
        `${shape}: the reader failed (exit ${run.status ?? run.signal}): ${run.stderr.trim().split('\n').at(-1)}`,
      );
      missed++;
      continue;
    }
    const r = JSON.parse(run.stdout);
    const ratio = r.kept / r.bytes;
    const ok = shape !== 'repeated' || ratio <= TARGET_RATIO;
    if (!ok) missed++;
    console.log(
      `${shape.padEnd(10)} ${mib(r.bytes).padStart(7)} ${String(r.items).padStart(9)} ${mib(r.kept).padStart(8)} ${ratio.toFixed(1).padStart(6)} ${`${(r.ms / 1000).toFixed(2)} s`.padStart(8)}${ok ? '' : '  (target missed)'}`,
    );
  }

  // --- svc, each format ---
  let body = Buffer.from('[1.10]');
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    response.end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const peakFile = join(dir, 'peak');
  const preload = join(dir, 'peak.cjs');
  // The peak RSS of the svc process itself, written as it exits.
  writeFileSync(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(peakFile)}, String(process.resourceUsage().maxRSS * 1024)));\n`,
  );
  const home = join(dir, 'home');
  const env = {
    ...process.env,
    CI: 'true',
    HOME: home,
    SVC_CONFIG_DIR: join(home, 'config'),
    SVC_CACHE_DIR: join(home, 'cache'),
    SVC_BASE_URL: `http://127.0.0.1:${server.address().port}`,
    SVC_API_KEY: KEY,
  };
  const runSvc = (argv) => {
    const out = join(dir, 'out');
    const fd = openSync(out, 'w');
    const started = process.hrtime.bigint();
    const svc = spawn(process.execPath, ['--require', preload, SVC, ...argv], {
      env,
      stdio: ['ignore', fd, 'ignore'],
    });
    closeSync(fd);
    return new Promise((resolve) =>
      svc.on('exit', (code) =>
        resolve({
          code,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
          peak: Number(readFileSync(peakFile, 'utf8')),
          bytes: statSync(out).size,
        }),
      ),
    );
  };
  const COMMANDS = [
    ['consents list --json', ['consents', 'list', '--json']],
    ['consents list -o ndjson', ['consents', 'list', '-o', 'ndjson']],
    ['consents list -o csv', ['consents', 'list', '-o', 'csv']],
    ['consents list (table)', ['consents', 'list']],
    ['api GET', ['api', 'GET', '/v1/consents']],
  ];
  try {
    const floor = await runSvc(COMMANDS[0][1]);
    console.log(
      `\nsvc: peak RSS of the process (${mib(floor.peak)} for a reply of one number), and what the reply adds to it`,
    );
    console.log(
      `${'reply'.padEnd(10)} ${'command'.padEnd(24)} ${'peak'.padStart(8)} ${'added'.padStart(8)} ${'÷ size'.padStart(6)} ${'time'.padStart(8)}  exit  stdout`,
    );
    for (const shape of SHAPES) {
      body = Buffer.from(replyOf(shape, SIZE));
      for (const [name, argv] of COMMANDS) {
        const r = await runSvc(argv);
        const added = r.peak - floor.peak;
        console.log(
          `${shape.padEnd(10)} ${name.padEnd(24)} ${mib(r.peak).padStart(8)} ${mib(added).padStart(8)} ${(added / body.length).toFixed(1).padStart(6)} ${`${(r.ms / 1000).toFixed(2)} s`.padStart(8)}  ${String(r.code).padEnd(4)}  ${mib(r.bytes)}`,
        );
      }
    }
  } finally {
    server.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (missed > 0)
  console.log(
    `\nTarget missed: the reader keeps at most ${TARGET_RATIO} times a reply of \`1.10,\`.`,
  );
process.exit(missed > 0 ? 1 : 0);
