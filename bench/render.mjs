// Benchmark of the table renderer for a terminal (a script, not a test): lists of rows × text
// length, each row an id and two texts of that length (one free text, one whose words stay
// whole), rendered as `reports transactions` renders its rows: boxed at 80 columns, as cards at 40.
// The renderer is bundled from src/ (esbuild), so no run of svc or of the service is timed.
// Reports the median CPU time of each size over its runs and the time per row; for information
// also the lines written.
//
//   node bench/render.mjs [--runs N (default 3)] [--rows 500,1000,2000,5000]
//                         [--lengths 100,1000] [--widths 80,40] [--json out.json]
//
// The default run takes about a minute on a shared 2-core machine.
// Target (issue: table fitting is quadratic in the rows): time linear in the rows, i.e. for each
// text length and width the time per row at the most rows at most 2x that at the fewest.
// Exit code 1 when the target is missed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TARGET_RATIO = 2;

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .flatMap((arg, i, all) => (arg.startsWith('--') ? [[arg.slice(2), all[i + 1]]] : [])),
);
const list = (value, fallback) => (value ?? fallback).split(',').map(Number);
const RUNS = Math.max(1, Number(args.runs ?? 3));
const ROWS = list(args.rows, '500,1000,2000,5000').sort((a, b) => a - b);
const LENGTHS = list(args.lengths, '100,1000');
const WIDTHS = list(args.widths, '80,40');

// --- the renderer, bundled from src/ ---

const dir = mkdtempSync(join(tmpdir(), 'svc-bench-render-'));
let renderTable;
let paint;
try {
  await build({
    stdin: {
      contents:
        "export { renderTable } from './src/core/output/render.ts';\nexport { createPaint } from './src/core/output/paint.ts';\n",
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: join(dir, 'render.mjs'),
    logLevel: 'warning',
  });
  const renderer = await import(pathToFileURL(join(dir, 'render.mjs')).href);
  renderTable = renderer.renderTable;
  paint = await renderer.createPaint(true);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// --- the rows: words of a statement, in a different order in each row ---

const WORDS = [
  'QR',
  'payment',
  'to',
  'Kanchenjunga',
  'Departmental',
  'Store',
  'Butwal',
  'salary',
  'NABIL',
  'transfer',
  'FT',
  '9123879296770097,136979793,MOB',
];

function prose(length, first) {
  let text = '';
  for (let i = first; text.length < length; i++)
    text += (text ? ' ' : '') + WORDS[(i * 7) % WORDS.length];
  return text.slice(0, length);
}

function view(rows, length) {
  return {
    kind: 'list',
    rows: Array.from({ length: rows }, (_, i) => ({
      id: `txn_${String(i).padStart(6, '0')}`,
      description: prose(length, i),
      merchant: prose(length, i + 5),
    })),
    columns: [
      { key: 'id', header: 'ID', value: (r) => r.id, keep: true },
      { key: 'description', header: 'DESCRIPTION', value: (r) => r.description, flex: true },
      { key: 'merchant', header: 'MERCHANT', value: (r) => r.merchant },
    ],
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** CPU milliseconds of one rendering (the machine is shared: wall time says more of the others). */
function timeOne(table, width) {
  const start = process.cpuUsage();
  const text = renderTable(table, { terminal: true, width, paint });
  const used = process.cpuUsage(start);
  return { ms: (used.user + used.system) / 1000, text };
}

// A warm-up, so that the first size does not also pay for compiling the renderer.
timeOne(view(200, 100), 80);

const results = [];
console.log('rows    text  width  form   lines      CPU ms  µs/row');
for (const width of WIDTHS) {
  for (const length of LENGTHS) {
    for (const rows of ROWS) {
      const table = view(rows, length);
      const times = [];
      let text = '';
      for (let run = 0; run < RUNS; run++) ({ ms: times[run], text } = timeOne(table, width));
      const ms = median(times);
      const form = text.includes('│') ? 'table' : 'cards';
      const lines = text.split('\n').length - 1;
      results.push({ rows, length, width, form, lines, ms, perRow: (ms * 1000) / rows });
      console.log(
        `${String(rows).padStart(5)}  ${String(length).padStart(5)}  ${String(width).padStart(5)}  ${form.padEnd(5)}  ${String(lines).padStart(7)}  ${ms.toFixed(0).padStart(9)}  ${((ms * 1000) / rows).toFixed(0).padStart(6)}`,
      );
    }
  }
}

// --- the target: time per row no more than TARGET_RATIO times higher at the most rows ---

let missed = 0;
for (const width of WIDTHS) {
  for (const length of LENGTHS) {
    const sizes = results.filter((r) => r.width === width && r.length === length);
    const [fewest, most] = [sizes[0], sizes.at(-1)];
    if (!fewest || fewest === most) continue;
    const ratio = most.perRow / fewest.perRow;
    const ok = ratio <= TARGET_RATIO;
    if (!ok) missed++;
    console.log(
      `${length}-column texts at ${width} columns: time per row at ${most.rows} rows is ${ratio.toFixed(2)}x that at ${fewest.rows} (target at most ${TARGET_RATIO}x) ${ok ? 'ok' : 'MISSED'}`,
    );
  }
}
if (args.json) writeFileSync(args.json, JSON.stringify({ runs: RUNS, results }, null, 2) + '\n');
process.exit(missed > 0 ? 1 : 0);
