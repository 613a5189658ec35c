// Benchmark of a completion call (a script, not a test): what one TAB costs when the completion
// script asks svc for values (`svc __complete profiles`, `svc __complete data-selectors cpi`),
// against a bare Node start (`node -e 0`). Medians of interleaved runs after a warm-up; for
// information also a whole bash completion, with and without a call to svc.
//
//   node bench/completion.mjs [--runs N]      (default 15; at least 7)
//
// Target: a completion call under 1.3x `node -e 0`. Exit code 1 when it is missed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SVC = join(ROOT, 'bin', 'svc.cjs');
const TARGET_RATIO = 1.3;
const WARM_UP = 3;

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .flatMap((arg, i, all) => (arg.startsWith('--') ? [[arg.slice(2), all[i + 1]]] : [])),
);
const RUNS = Math.max(7, Number(args.runs ?? 15));

if (!existsSync(join(ROOT, 'dist', 'complete.cjs'))) {
  console.error('dist/ is missing: run `npm run build` first (npm run bench does).');
  process.exit(2);
}

// A user's files: two profiles, and the cached `/latest` reply of cpi that `svc data keys cpi`
// leaves, made by running it against `svc mock`.
const home = mkdtempSync(join(tmpdir(), 'svc-bench-completion-'));
const env = {
  ...process.env,
  HOME: home,
  SVC_CONFIG_DIR: join(home, 'config'),
  SVC_CACHE_DIR: join(home, 'cache'),
  SVC_DATA_DIR: join(home, 'data'),
};
await fillCache();

async function fillCache() {
  const mock = spawn(process.execPath, [SVC, 'mock', '--port', '0', '--json', '--quiet'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  mock.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  try {
    const firstLine = await new Promise((resolve, reject) => {
      createInterface({ input: mock.stdout }).once('line', resolve);
      mock.once('exit', (code) =>
        reject(new Error(`svc mock exited ${code} before it listened: ${stderr}`)),
      );
    });
    const { url, keys } = JSON.parse(firstLine);
    mkdirSync(join(home, 'config'));
    const profiles = {
      default: { base_url: url },
      staging: { base_url: 'https://sandbox.example.com' },
    };
    writeFileSync(
      join(home, 'config', 'config.json'),
      JSON.stringify({ current_profile: 'default', profiles }),
    );
    const key = keys.find((k) => k.mode === 'test').key;
    const keysRun = spawnSync(process.execPath, [SVC, 'data', 'keys', 'cpi', '--json'], {
      env: { ...env, SVC_API_KEY: key },
      encoding: 'utf8',
    });
    if (keysRun.status !== 0)
      throw new Error(`svc data keys cpi failed (exit ${keysRun.status}): ${keysRun.stderr}`);
  } finally {
    mock.kill();
  }
}
const bin = join(home, 'bin');
mkdirSync(bin);
writeFileSync(
  join(bin, 'svc'),
  `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(SVC)} "$@"\n`,
  { mode: 0o755 },
);
env.PATH = `${bin}:${env.PATH ?? ''}`;

function bashCompletion(line) {
  const words = line.split(' ');
  const quote = (w) => `'${w.replace(/'/g, `'\\''`)}'`;
  return [
    'bash',
    [
      '--norc',
      '--noprofile',
      '-c',
      `source ${quote(join(ROOT, 'completions', 'svc.bash'))}; COMP_WORDS=(${words.map(quote).join(' ')}); COMP_CWORD=${words.length - 1}; COMP_LINE=${quote(line)}; COMP_POINT=${line.length}; _svc; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
  ];
}

const CASES = [
  { name: 'node -e 0', command: [process.execPath, ['-e', '0']] },
  {
    name: 'svc __complete profiles',
    command: [process.execPath, [SVC, '__complete', 'profiles']],
    expect: 'staging',
    target: true,
  },
  {
    name: 'svc __complete data-selectors cpi',
    command: [process.execPath, [SVC, '__complete', 'data-selectors', 'cpi']],
    expect: 'PCPI_IX',
    target: true,
  },
  { name: 'bash -c true', command: ['bash', ['--norc', '--noprofile', '-c', 'true']] },
  {
    name: 'bash TAB: svc rep (script only)',
    command: bashCompletion('svc rep'),
    expect: 'reports',
  },
  {
    name: 'bash TAB: svc --profile (asks svc)',
    command: bashCompletion('svc --profile '),
    expect: 'staging',
  },
];

function once({ command: [file, argv], expect }) {
  const start = process.hrtime.bigint();
  const result = spawnSync(file, argv, { env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0 || (expect && !result.stdout.includes(expect))) {
    throw new Error(
      `${file} ${argv.join(' ')} failed (exit ${result.status}): ${result.stderr || result.stdout}`,
    );
  }
  return ms;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

try {
  for (const c of CASES) for (let i = 0; i < WARM_UP; i++) once(c);
  const times = new Map(CASES.map((c) => [c.name, []]));
  // Interleaved, so that a slow moment of the machine hits every case alike.
  for (let run = 0; run < RUNS; run++) for (const c of CASES) times.get(c.name).push(once(c));

  const bare = median(times.get('node -e 0'));
  console.log(`node ${process.version}, ${RUNS} runs each after ${WARM_UP} warm-up runs, medians:`);
  let missed = false;
  for (const c of CASES) {
    const ms = median(times.get(c.name));
    const ratio = ms / bare;
    const verdict = c.target
      ? ratio < TARGET_RATIO
        ? `  ok (target < ${TARGET_RATIO}x)`
        : `  MISSED (target < ${TARGET_RATIO}x)`
      : '';
    if (c.target && ratio >= TARGET_RATIO) missed = true;
    console.log(
      `  ${c.name.padEnd(40)} ${ms.toFixed(1).padStart(7)} ms  ${ratio.toFixed(2)}x node -e 0${verdict}`,
    );
  }
  process.exitCode = missed ? 1 : 0;
} finally {
  rmSync(home, { recursive: true, force: true });
}
