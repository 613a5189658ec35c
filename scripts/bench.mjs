// `npm run bench`: builds svc, then runs every bench/*.mjs in turn (arguments are passed on to
// each, e.g. `npm run bench -- --runs 7` for a quicker run). Writes bench/RESULTS.md: the machine
// (CPU model, cores, load, Node version), the date, the arguments and what each bench printed, so
// no figure is ever written by hand. Exits non-zero when a benchmark does (a missed target, or a
// failure).
import { spawnSync } from 'node:child_process';
import { readdirSync, renameSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);

const benches = readdirSync(join(root, 'bench'))
  .filter((name) => name.endsWith('.mjs'))
  .sort();
const loadAtStart = loadavg();
const started = new Date();
const sections = [];
let failed = 0;
for (const name of benches) {
  console.log(`\n# bench/${name}`);
  const begun = Date.now();
  const load = loadavg()[0];
  // stdout is kept for the results file and shown as it was; stderr goes to the terminal alone.
  const run = spawnSync(process.execPath, [join(root, 'bench', name), ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  process.stdout.write(run.stdout ?? '');
  const status = run.status ?? run.signal;
  if (run.status !== 0) {
    failed++;
    console.log(`bench/${name} exited ${status}`);
  }
  sections.push({
    name,
    status,
    load,
    seconds: (Date.now() - begun) / 1000,
    output: (run.stdout ?? '').replace(/[ \t]+$/gm, '').trimEnd(),
  });
}

const cpu = cpus();
const loads = (values) => values.map((value) => value.toFixed(2)).join(', ');
const lines = [
  '# Benchmark results',
  '',
  '<!-- Written by npm run bench (scripts/bench.mjs); do not edit: run it again. -->',
  '',
  `- Date: ${started.toISOString()} to ${new Date().toISOString()}`,
  `- Machine: ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ${platform()} ${release()}`,
  `- Load average (1, 5, 15 min): ${loads(loadAtStart)} at the start, ${loads(loadavg())} at the end`,
  `- Node: ${process.version}`,
  `- Arguments: ${args.length > 0 ? `\`${args.join(' ')}\`` : '(none: the default runs)'}`,
  '',
  'Each section is what the bench printed. A bench exits 1 when it misses its target.',
  '',
  ...sections.flatMap(({ name, status, load, seconds, output }) => [
    `## bench/${name}`,
    '',
    `Exit ${status}, ${seconds.toFixed(0)} s; load average ${load.toFixed(2)} at its start.`,
    '',
    '```text',
    output || '(no output)',
    '```',
    '',
  ]),
];
const file = join(root, 'bench', 'RESULTS.md');
writeFileSync(`${file}.${process.pid}.tmp`, lines.join('\n'));
renameSync(`${file}.${process.pid}.tmp`, file);
console.log(`\nwrote bench/RESULTS.md`);
process.exit(failed > 0 ? 1 : 0);
