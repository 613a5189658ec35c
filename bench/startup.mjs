// Benchmark of start-up and request overhead (a script, not a test), side by side in one run:
//   - `svc --version` and `svc --help` against `node -e 0`;
//   - `svc reports list --json` vs a minimal script doing the same request with node:http and
//     printing the body (Node 20's fetch costs ~100 ms at its first request, which would flatter
//     svc), as CommonJS (the target, as svc is CommonJS) and as an ES module (for information);
//   - `svc data series … --json --no-cache` over 10 years of monthly data vs the same script;
//   - both against a minimal script using fetch, for information.
// The requests go to a server that answers in a millisecond or two (bench/support/fast-server.mjs)
// with the replies `svc mock` gave once at the start: the mock's own time per request would
// dilute the ratio.
// Runs in pairs after a warm-up, svc and its baseline one after the other (each first in half of
// the pairs): the ratio is the median of the pairs'
// ratios, which a machine whose speed drifts during the run moves less than a ratio of medians;
// the quartiles of the pairs' ratios show the spread. The ratio of the CPU time the runs used (the
// median of the pairs', all threads) has the same target: a busy machine delays a run much more
// than it makes it work. Ratios are what count (absolute times on a
// shared machine are noise). The warm-up runs also leave svc's code cache in place, as any run
// after the first finds it (src/launch/code-cache.ts).
//
//   node bench/startup.mjs [--runs N]      (default 11; at least 7)
//
// Targets, in wall and CPU time: --version and --help at most 1.1x `node -e 0`; a request command
// at most 1.2x the minimal CommonJS node:http script. Exit code 1 when one is missed.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SVC = join(ROOT, 'bin', 'svc.cjs');
const WARM_UP = 2;
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .flatMap((arg, i, all) => (arg.startsWith('--') ? [[arg.slice(2), all[i + 1]]] : [])),
);
const RUNS = Math.max(7, Number(args.runs ?? 11));
const SERIES = '/v1/data/cbank/cpi/series?indicator=PCPI_IX&from=2016-01&to=2026-11';

const home = mkdtempSync(join(tmpdir(), 'svc-bench-startup-'));

/** The first line a child prints, as JSON. */
const firstLine = (child) =>
  new Promise((resolve) =>
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line))),
  );

/** A reply of the server at `url`, as the fast server gives it back: status, headers, body. */
function fetchReply(url, key) {
  return new Promise((resolve, reject) => {
    get(url, { headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        const headers = Object.fromEntries(
          Object.entries(res.headers).filter(
            ([name]) =>
              !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(
                name,
              ),
          ),
        );
        resolve({ status: res.statusCode, headers, body: Buffer.concat(chunks).toString('utf8') });
      });
    }).on('error', reject);
  });
}

// The replies, once from `svc mock`; then the mock is stopped and the fast server gives them.
const mock = spawn(process.execPath, [SVC, 'mock', '--port', '0', '--json', '--quiet'], {
  env: { ...process.env, SVC_DATA_DIR: join(home, 'data') },
  stdio: ['ignore', 'pipe', 'ignore'],
});
const started = await firstLine(mock);
const key = started.keys.find((k) => k.mode === 'test' && k.scope === 'FULL').key;
const replies = {};
try {
  for (const path of ['/v1/reports', SERIES])
    replies[path] = await fetchReply(started.url + path, key);
} finally {
  mock.kill('SIGINT');
}
const repliesFile = join(home, 'replies.json');
writeFileSync(repliesFile, JSON.stringify(replies));
const server = spawn(
  process.execPath,
  [join(ROOT, 'bench', 'support', 'fast-server.mjs'), repliesFile],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const { url } = await firstLine(server);
// CI is unset so that svc uses the compile cache as a person's shell would.
const env = {
  ...process.env,
  CI: '',
  HOME: home,
  SVC_CONFIG_DIR: join(home, 'config'),
  SVC_CACHE_DIR: join(home, 'cache'),
  SVC_BASE_URL: url,
  SVC_API_KEY: key,
};

const minimal = join(home, 'minimal.mjs');
writeFileSync(
  minimal,
  `const r = await fetch(process.env.SVC_BASE_URL + process.argv[2], { headers: { Authorization: 'Bearer ' + process.env.SVC_API_KEY, Accept: 'application/json' } });
process.stdout.write(await r.text());\n`,
);
// The floor the target is set against is CommonJS, as svc is. An ES module, as a minimal script is
// most often written, is shown for information: on Node 22 and 24 it costs about 200 M instructions
// more to load than a CommonJS file (on Node 20, 15 M).
const MINIMAL_HTTP = `get(process.env.SVC_BASE_URL + process.argv[2], { headers: { Authorization: 'Bearer ' + process.env.SVC_API_KEY, Accept: 'application/json' } }, (res) => {
  const chunks = [];
  res.on('data', (chunk) => chunks.push(chunk));
  res.on('end', () => process.stdout.write(Buffer.concat(chunks)));
});\n`;
const minimalHttp = join(home, 'minimal-http.cjs');
writeFileSync(minimalHttp, `const { get } = require('node:http');\n${MINIMAL_HTTP}`);
const minimalHttpModule = join(home, 'minimal-http.mjs');
writeFileSync(minimalHttpModule, `import { get } from 'node:http';\n${MINIMAL_HTTP}`);

const LIST_COMMAND = [SVC, 'reports', 'list', '--json'];
const SERIES_COMMAND = [
  SVC,
  'data',
  'series',
  'cpi',
  'PCPI_IX',
  '--from',
  '2016-01',
  '--to',
  '2026-11',
  '--json',
  '--no-cache',
];
const cases = [
  {
    name: '--version',
    command: [SVC, '--version'],
    baseline: ['-e', '0'],
    baselineName: 'node -e 0',
    target: 1.1,
  },
  {
    name: '--help',
    command: [SVC, '--help'],
    baseline: ['-e', '0'],
    baselineName: 'node -e 0',
    target: 1.1,
  },
  {
    name: 'reports list --json',
    command: LIST_COMMAND,
    baseline: [minimalHttp, '/v1/reports'],
    baselineName: 'minimal node:http (CommonJS)',
    target: 1.2,
  },
  {
    name: 'data series cpi PCPI_IX --json --no-cache (10 years)',
    command: SERIES_COMMAND,
    baseline: [minimalHttp, SERIES],
    baselineName: 'minimal node:http (CommonJS)',
    target: 1.2,
  },
  {
    name: 'reports list --json',
    command: LIST_COMMAND,
    baseline: [minimalHttpModule, '/v1/reports'],
    baselineName: 'minimal node:http (ES module)',
  },
  {
    name: 'data series cpi PCPI_IX --json --no-cache (10 years)',
    command: SERIES_COMMAND,
    baseline: [minimalHttpModule, SERIES],
    baselineName: 'minimal node:http (ES module)',
  },
  {
    name: 'reports list --json',
    command: LIST_COMMAND,
    baseline: [minimal, '/v1/reports'],
    baselineName: 'minimal fetch',
  },
  {
    name: 'data series cpi PCPI_IX --json --no-cache (10 years)',
    command: SERIES_COMMAND,
    baseline: [minimal, SERIES],
    baselineName: 'minimal fetch',
  },
];

// Each run also tells the processor time it used (user and system, all its threads) on fd 3 as it
// exits, through a module required before its own (the same for svc and the baselines).
const cpuReport = join(home, 'cpu-report.cjs');
writeFileSync(
  cpuReport,
  "process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').writeSync(3, `${(u.user + u.system) / 1000}\\n`); });\n",
);

/** One run: its wall time and CPU time, in ms. */
function time(argv) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, ['--require', cpuReport, ...argv], {
    env,
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  if (result.status !== 0)
    throw new Error(`${argv.join(' ')} exited ${result.status}: ${result.stderr}`);
  return {
    wall: Number(process.hrtime.bigint() - started) / 1e6,
    cpu: Number(result.output[3].toString()),
  };
}

/** The value a `share` of the way through the sorted values (0.5: the median). */
const quantile = (values, share) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * share)];
const median = (values) => quantile(values, 0.5);

let missed = 0;
try {
  console.log(
    `${RUNS} pairs of runs after ${WARM_UP} warm-up pairs; node ${process.version}; requests to a server answering ready-made replies`,
  );
  console.log(
    ['case', 'svc ms', 'baseline', 'baseline ms', 'ratio', 'quartiles', 'cpu ratio', 'target'].join(
      '\t',
    ),
  );
  for (const c of cases) {
    for (let i = 0; i < WARM_UP; i++) {
      time(c.command);
      time(c.baseline);
    }
    const ours = [];
    const theirs = [];
    for (let i = 0; i < RUNS; i++) {
      // Each goes first in half of the pairs: neither gains from following the other.
      if (i % 2 === 0) ours.push(time(c.command));
      theirs.push(time(c.baseline));
      if (i % 2 === 1) ours.push(time(c.command));
    }
    const ratios = ours.map((run, i) => run.wall / theirs[i].wall);
    const ratio = median(ratios);
    const cpuRatio = median(ours.map((run, i) => run.cpu / theirs[i].cpu));
    const miss = c.target !== undefined && (ratio > c.target || cpuRatio > c.target);
    if (miss) missed++;
    const target =
      c.target === undefined ? '(information)' : `≤ ${c.target}${miss ? '  MISSED' : ''}`;
    const quartiles = `${quantile(ratios, 0.25).toFixed(2)}–${quantile(ratios, 0.75).toFixed(2)}`;
    const ms = (runs) => median(runs.map((run) => run.wall)).toFixed(1);
    console.log(
      [
        c.name,
        ms(ours),
        c.baselineName,
        ms(theirs),
        ratio.toFixed(2),
        quartiles,
        cpuRatio.toFixed(2),
        target,
      ].join('\t'),
    );
  }
} finally {
  server.kill();
  rmSync(home, { recursive: true, force: true });
}
process.exit(missed > 0 ? 1 : 0);
