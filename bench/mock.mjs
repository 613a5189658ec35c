// Benchmark of `svc mock` under load (a script, not a test), side by side with a bare node:http
// server, in two parts:
//   - throughput: requests per second of `svc mock` and of two bare node:http servers for a
//     typical authenticated GET (GET /v1/reports with a test key) and for POST
//     /v1/merchants/resolve with 1000 lookups (sent as svc sends it, with an Idempotency-Key). Both
//     bare servers parse the URL, check the Authorization header and read the request body (and
//     parse it as JSON, as any server of a JSON API must). The "bytes" one then writes the mock's
//     reply, fetched first, as ready-made bytes; the "plain" one does the request's work in plain
//     code (see BARE_SERVER). A GET's floor is the bytes server: the mock's reply to it is a stored
//     list, which a server may keep ready. A resolve's floor is the plain server: its reply depends
//     on the lookups in the body, so no server can have it ready; the bytes figure is printed for
//     information, as what the work of resolving costs;
//   - memory: 250,000 requests to `svc mock` (GETs of reports, usage, a report, a transactions
//     page, a 404 and a 401; merchants resolve batches of 1000 and of 10 lookups with an
//     Idempotency-Key, as `svc merchants resolve` sends them; a few sandbox reports made) with the
//     mock's RSS (VmRSS of /proc/PID/status) read every 50,000 requests.
// The load comes from this process: a keep-alive http.Agent, N connections, a fixed number of
// requests, on loopback only. Each server is a process of its own, so both are measured the same
// way; their CPU time per request (utime + stime of /proc/PID/stat) is printed too, for
// information: on a shared 2-core machine it says what a server costs even when the load
// generator, not the server, is what runs out of CPU. After a warm-up the servers run in turn,
// each run starting with another; a ratio is the median of the ratios of runs made one after the
// other, which met the same load on the machine.
//
//   node bench/mock.mjs [--runs N (default 5, at least 3)] [--connections N (default 8)]
//                       [--soak N (default 250000, in steps of 50000)] [--parts throughput,memory]
//
// Targets (the issue on svc mock's memory and speed): the mock's requests per second at least
// 0.75x its floor's, for both requests; RSS growth from 50,000 to 250,000 requests at most
// 16 MiB. Exit code 1 when one is missed, 2 when the bench could not run.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { mulberry32 } from '../scripts/mulberry32.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SVC = join(ROOT, 'bin', 'svc.cjs');
const TARGET_RATIO = 0.75;
const TARGET_GROWTH_MIB = 16;
const SOAK_STEP = 50_000;
/**
 * No run of requests may take longer than this: a server that stalls fails the bench instead of
 * hanging it.
 */
const PART_TIMEOUT_MS = 90_000;

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .flatMap((arg, i, all) => (arg.startsWith('--') ? [[arg.slice(2), all[i + 1]]] : [])),
);
const RUNS = Math.max(3, Number(args.runs ?? 5));
const CONNECTIONS = Math.max(1, Number(args.connections ?? 8));
const SOAK = Math.max(2, Math.round(Number(args.soak ?? 250_000) / SOAK_STEP)) * SOAK_STEP;
const PARTS = new Set((args.parts ?? 'throughput,memory').split(','));

// --- the servers ---

/**
 * The bare servers: node:http and nothing else. BARE_MODE=bytes sends the mock's reply to each
 * `METHOD path` (given on stdin as JSON) as ready-made bytes. BARE_MODE=plain does each request's
 * work in plain code, as a small JSON server would: a GET's reply is kept as a value and serialised
 * for each request; a merchants resolve looks its lookups up in two Maps of the mock's directory
 * (terminals as given; names lower-cased, punctuation and the mock's noise words dropped) and
 * serialises the results with JSON.stringify. It does no fuzzy matching, which the bench's names
 * do not need: its reply is checked to be the mock's, byte for byte, before anything is measured.
 */
const BARE_SERVER = String.raw`
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
const bytes = process.env.BARE_MODE === 'bytes';
let input = '';
for await (const chunk of process.stdin) input += chunk;
const replies = new Map(Object.entries(JSON.parse(input)).map(([route, text]) => [route, bytes ? Buffer.from(text) : JSON.parse(text)]));
const expected = 'Bearer ' + process.env.BARE_KEY;

const directory = JSON.parse(readFileSync(process.env.BARE_DIRECTORY, 'utf8'));
const NOISE = new Set(process.env.BARE_NOISE_WORDS.split(','));
const normalise = (name) => {
  const words = name.toLowerCase().replace(/^m\/s\b/, ' ').replace(/[^a-z0-9]+/g, ' ').trim().split(' ');
  const kept = words.filter((word) => !NOISE.has(word));
  return (kept.length > 0 ? kept : words).join(' ');
};
const byTerminal = new Map();
const byName = new Map();
for (const m of directory.merchants) {
  for (const terminal of m.terminals) byTerminal.set(terminal, [m, terminal]);
  byName.set(normalise(m.merchant), [m, m.terminals[0]]);
}
function resolve({ terminals = [], names = [] }) {
  const result = (input, type, found) =>
    found ? { input, type, matched: true, merchant: found[0].merchant, mcc: found[0].mcc, category: found[0].category, city: found[0].city, terminal: found[1] } : { input, type, matched: false };
  const results = [...terminals.map((t) => result(t, 'terminal', byTerminal.get(t))), ...names.map((n) => result(n, 'name', byName.get(normalise(n))))];
  return { data: { count: results.length, matched: results.filter((r) => r.matched).length, results }, meta: { source: directory.source } };
}

function answer(res, status, reply) {
  const body = Buffer.isBuffer(reply) ? reply : JSON.stringify(reply);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1');
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = req.method === 'POST' ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    if (req.headers.authorization !== expected) return answer(res, 401, { error_code: 'INVALID_API_KEY' });
    const route = req.method + ' ' + url.pathname;
    if (!bytes && route === 'POST /v1/merchants/resolve') return answer(res, 200, resolve(body));
    const reply = replies.get(route);
    if (!reply) return answer(res, 404, { error_code: 'NOT_FOUND' });
    answer(res, 200, reply);
  });
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ url: 'http://127.0.0.1:' + server.address().port })));
`;

/**
 * The mock's noise words, read from its source: the plain server drops the same words from names.
 */
function noiseWords() {
  const source = readFileSync(join(ROOT, 'src/mock/merchants/normalise.ts'), 'utf8');
  const list = /const NOISE_WORDS = new Set\(\[([^\]]*)\]\)/.exec(source);
  if (!list) throw new Error('NOISE_WORDS not found in src/mock/merchants/normalise.ts');
  return [...list[1].matchAll(/'([a-z]+)'/g)].map((m) => m[1]).join(',');
}

const children = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill();
    process.exit(130);
  });
}

/**
 * Starts a server process and reads the JSON line it prints first; its stderr is shown only if it
 * fails to start.
 */
async function startServer(argv, { env = process.env, input } = {}) {
  const child = spawn(process.execPath, argv, {
    env,
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (input !== undefined) child.stdin.end(input);
  children.add(child);
  child.once('exit', () => children.delete(child));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  let failed;
  const firstLine = await new Promise((resolve, reject) => {
    failed = (code) =>
      reject(
        new Error(`${argv.slice(0, 3).join(' ')} exited ${code} before it listened:\n${stderr}`),
      );
    child.once('exit', failed);
    createInterface({ input: child.stdout }).once('line', resolve);
  });
  child.off('exit', failed);
  child.stdout.resume();
  const { url, keys } = JSON.parse(firstLine);
  return { child, pid: child.pid, port: Number(new URL(url).port), keys };
}

// --- the requests ---

/**
 * `size` distinct lookups as a statement export gives them: 5% known terminals, 2% shop names, the
 * rest unknown numbers.
 */
function lookups(size, seed) {
  const random = mulberry32(seed);
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
  const terminals = new Set(known.slice(0, Math.ceil(size * 0.05)));
  const names = new Set();
  while (names.size < Math.ceil(size * 0.02))
    names.add(variants[Math.floor(random() * variants.length)]);
  while (terminals.size + names.size < size)
    terminals.add(
      String(1 + Math.floor(random() * 9)) + String(Math.floor(random() * 1e15)).padStart(15, '0'),
    );
  return JSON.stringify({ terminals: [...terminals], names: [...names] });
}

const RESOLVE_1000 = lookups(1000, 1000);
const RESOLVE_10 = lookups(10, 10);

/**
 * Sends `total` requests over `connections` keep-alive connections, `next(i)` giving the i-th;
 * resolves with the time taken and the statuses seen.
 */
async function load(port, { total, connections, next }) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const statuses = new Map();
  let issued = 0;
  const started = process.hrtime.bigint();
  const deadline = Date.now() + PART_TIMEOUT_MS;
  const one = (spec) =>
    new Promise((resolve, reject) => {
      const req = request(
        {
          agent,
          host: '127.0.0.1',
          port,
          method: spec.method,
          path: spec.path,
          headers: spec.headers,
        },
        (res) => {
          res.on('data', () => {});
          res.on('end', () => {
            statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
            resolve();
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(spec.body);
    });
  const worker = async () => {
    while (issued < total) {
      if (Date.now() > deadline)
        throw new Error(
          `gave up after ${PART_TIMEOUT_MS / 1000} s with ${issued} of ${total} requests sent`,
        );
      await one(next(issued++));
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, worker));
  } finally {
    agent.destroy();
  }
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, statuses };
}

/** CPU seconds (user + system) a process has used. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

function rssMiB(pid) {
  const kib = Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
  return kib / 1024;
}

/** One measured run: requests per second and CPU microseconds per request of the server. */
async function measure(server, workload) {
  const cpuBefore = cpuSeconds(server.pid);
  const { seconds, statuses } = await load(server.port, {
    total: workload.requests,
    connections: CONNECTIONS,
    next: () => workload.request(server),
  });
  const others = [...statuses].filter(([status]) => status !== 200);
  if (others.length > 0)
    throw new Error(`${workload.name}: answers other than 200: ${JSON.stringify(others)}`);
  return {
    rps: workload.requests / seconds,
    cpuUs: ((cpuSeconds(server.pid) - cpuBefore) * 1e6) / workload.requests,
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const bearer = (server) => ({ authorization: `Bearer ${server.key}` });

const workloads = [
  {
    name: 'GET /v1/reports',
    floor: 'bytes',
    requests: 10_000,
    request: (server) => ({
      method: 'GET',
      path: '/v1/reports',
      headers: { ...bearer(server), accept: 'application/json' },
    }),
  },
  {
    name: 'POST /v1/merchants/resolve (1000 lookups)',
    floor: 'plain',
    requests: 400,
    request: (server) => ({
      method: 'POST',
      path: '/v1/merchants/resolve',
      headers: {
        ...bearer(server),
        accept: 'application/json',
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: RESOLVE_1000,
    }),
  },
];

/** A server's reply to a workload's request: the mock's is what the bytes server answers with. */
async function replyOf(server, workload) {
  const spec = workload.request(server);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        method: spec.method,
        path: spec.path,
        headers: spec.headers,
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(Buffer.concat(chunks))
            : reject(new Error(`${workload.name}: answered ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(spec.body);
  });
}

// --- the memory soak: what a long benchmark against the mock sends ---

/**
 * One request of the soak's mix, by its number: mostly reads, some resolve batches, a few reports
 * made.
 */
function soakRequest(mock, i) {
  const auth = bearer(mock);
  const post = (path, body) => ({
    method: 'POST',
    path,
    headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body,
  });
  const slot = i % 100;
  if (slot < 2) return post('/v1/merchants/resolve', RESOLVE_1000);
  if (slot < 10) return post('/v1/merchants/resolve', RESOLVE_10);
  if (slot === 10 && i % 1000 === 10) return post('/v1/sandbox/reports', '{"scenario":"salaried"}');
  if (slot < 40) return { method: 'GET', path: `/v1/reports?limit=${1 + (i % 20)}`, headers: auth };
  if (slot < 55) return { method: 'GET', path: '/v1/usage', headers: auth };
  if (slot < 70) return { method: 'GET', path: `/v1/reports/${mock.reportId}`, headers: auth };
  if (slot < 80)
    return {
      method: 'GET',
      path: `/v1/reports/${mock.reportId}/transactions?limit=50`,
      headers: auth,
    };
  if (slot < 90)
    return {
      method: 'GET',
      path: `/v1/reports/rpt_${i.toString(16).padStart(16, '0')}`,
      headers: auth,
    };
  if (slot < 95) return { method: 'GET', path: '/v1/nowhere', headers: auth };
  return {
    method: 'GET',
    path: '/v1/reports',
    headers: { authorization: `Bearer svc_sk_test_${i}` },
  };
}

async function firstCompleteReport(mock) {
  const spec = {
    method: 'GET',
    path: '/v1/reports?status=complete&limit=1',
    headers: bearer(mock),
  };
  const body = await new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: mock.port, ...spec }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve(JSON.parse(text)));
    });
    req.on('error', reject);
    req.end();
  });
  return body.data[0].report_id;
}

// --- the run ---

/**
 * Where the mocks keep their keys: a folder of the bench's, not the data folder of the user's own
 * `svc mock`.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-mock-'));

let missed = 0;
try {
  if (PARTS.has('throughput')) await throughput();
  if (PARTS.has('memory')) await memory();
} catch (error) {
  console.error(`bench/mock.mjs: ${error.stack ?? error}`);
  missed = -1;
} finally {
  for (const child of children) child.kill();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(missed < 0 ? 2 : missed > 0 ? 1 : 0);

async function startMock() {
  const mock = await startServer([SVC, 'mock', '--port', '0', '--json', '--quiet'], {
    env: { ...process.env, SVC_DATA_DIR: dataDir },
  });
  mock.key = mock.keys.find((k) => k.mode === 'test' && k.scope === 'FULL').key;
  return mock;
}

async function throughput() {
  const mock = await startMock();
  const replies = {};
  for (const workload of workloads) {
    const spec = workload.request(mock);
    replies[`${spec.method} ${spec.path}`] = (await replyOf(mock, workload)).toString('utf8');
  }
  const startBare = async (mode) => {
    const env = {
      ...process.env,
      BARE_MODE: mode,
      BARE_KEY: mock.key,
      BARE_DIRECTORY: join(ROOT, 'src/mock/fixtures/merchants.json'),
      BARE_NOISE_WORDS: noiseWords(),
    };
    const bare = await startServer(['--input-type=module', '-e', BARE_SERVER], {
      env,
      input: JSON.stringify(replies),
    });
    return Object.assign(bare, { key: mock.key });
  };
  const bare = { bytes: await startBare('bytes'), plain: await startBare('plain') };
  // A floor that answered otherwise would not have done the same work.
  for (const workload of workloads) {
    for (const [mode, server] of Object.entries(bare)) {
      const theirs = await replyOf(server, workload);
      const spec = workload.request(mock);
      const ours = Buffer.from(replies[`${spec.method} ${spec.path}`]);
      if (!theirs.equals(ours))
        throw new Error(`${workload.name}: the ${mode} server's reply is not the mock's`);
    }
  }
  const servers = [mock, bare.bytes, bare.plain];

  console.log(
    `throughput: ${RUNS} runs of each server in turn after a warm-up, ${CONNECTIONS} keep-alive connections; node ${process.version}`,
  );
  console.log(
    "  bytes: node:http sending the mock's reply ready made; plain: node:http doing the request's work in plain code",
  );
  console.log(
    [
      'request',
      'requests/run',
      'mock req/s',
      'floor',
      'floor req/s',
      'ratio',
      'target',
      'µs CPU/req mock, floor',
      'other req/s',
      'ratio to it',
      'its µs CPU/req',
    ].join('\t'),
  );
  for (const workload of workloads) {
    const warmUp = { ...workload, requests: Math.ceil(workload.requests / 4) };
    for (const server of servers) await measure(server, warmUp);
    const runs = servers.map(() => []);
    for (let run = 0; run < RUNS; run++) {
      // Each run starts with another server, so that none always runs first.
      for (let i = 0; i < servers.length; i++) {
        const which = (run + i) % servers.length;
        runs[which].push(await measure(servers[which], workload));
      }
    }
    const [ours, bytes, plain] = runs;
    const [floor, other] = workload.floor === 'bytes' ? [bytes, plain] : [plain, bytes];
    // The median of the ratios of runs made one after the other, which met the same load on the
    // machine.
    const ratioTo = (theirs) => median(ours.map((r, run) => r.rps / theirs[run].rps));
    const rps = (list) => median(list.map((r) => r.rps)).toFixed(0);
    const cpu = (list) => median(list.map((r) => r.cpuUs)).toFixed(0);
    const ratio = ratioTo(floor);
    const miss = ratio < TARGET_RATIO;
    if (miss) missed++;
    console.log(
      [
        workload.name,
        workload.requests,
        rps(ours),
        workload.floor,
        rps(floor),
        ratio.toFixed(2),
        `≥ ${TARGET_RATIO}${miss ? '  MISSED' : ''}`,
        `${cpu(ours)}, ${cpu(floor)}`,
        rps(other),
        ratioTo(other).toFixed(2),
        cpu(other),
      ].join('\t'),
    );
  }
  for (const server of servers) server.child.kill();
}

async function memory() {
  // A mock of its own, so the soak starts from what a user's `svc mock` holds at start.
  const mock = await startMock();
  mock.reportId = await firstCompleteReport(mock);
  console.log(
    `\nmemory: ${SOAK.toLocaleString('en')} requests to svc mock, ${CONNECTIONS} keep-alive connections; RSS at start ${rssMiB(mock.pid).toFixed(1)} MiB`,
  );
  console.log(['requests', 'RSS MiB', 'req/s of the step', 'statuses of the step'].join('\t'));
  const samples = new Map();
  for (let done = 0; done < SOAK; done += SOAK_STEP) {
    const offset = done;
    const { seconds, statuses } = await load(mock.port, {
      total: SOAK_STEP,
      connections: CONNECTIONS,
      next: (i) => soakRequest(mock, offset + i),
    });
    const rss = rssMiB(mock.pid);
    samples.set(done + SOAK_STEP, rss);
    const counts = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
    console.log(
      [
        (done + SOAK_STEP).toLocaleString('en'),
        rss.toFixed(1),
        (SOAK_STEP / seconds).toFixed(0),
        counts,
      ].join('\t'),
    );
  }
  const growth = samples.get(SOAK) - samples.get(SOAK_STEP);
  const miss = growth > TARGET_GROWTH_MIB;
  if (miss) missed++;
  console.log(
    `RSS growth from ${SOAK_STEP.toLocaleString('en')} to ${SOAK.toLocaleString('en')} requests: ${growth.toFixed(1)} MiB (target ≤ ${TARGET_GROWTH_MIB})${miss ? '  MISSED' : ''}`,
  );
  mock.child.kill();
}
