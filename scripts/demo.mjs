// `npm run demo`: starts `svc mock` on a free port, runs a short tour of commands against it with
// a throw-away config folder, and stops the mock.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const svc = fileURLToPath(new URL('../bin/svc.cjs', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'svc-demo-'));

const mock = spawn(process.execPath, [svc, 'mock', '--port', '0', '--json', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
const firstLine = await new Promise((resolve, reject) => {
  mock.on('exit', (code) => reject(new Error(`svc mock exited with ${code}`)));
  createInterface({ input: mock.stdout }).once('line', resolve);
});
const { url, keys } = JSON.parse(firstLine);
const key = keys.find((k) => k.mode === 'test' && k.scope === 'FULL');
const env = { ...process.env, SVC_CONFIG_DIR: join(home, 'config'), SVC_CACHE_DIR: join(home, 'cache') };

const bold = (text) => (process.stdout.isTTY && !process.env.NO_COLOR ? `\u001b[1m${text}\u001b[0m` : text);

function step(title, args, input) {
  console.log(`\n${bold(`# ${title}`)}\n$ svc ${args.map((a) => (/[\s"|]/.test(a) ? JSON.stringify(a) : a)).join(' ')}`);
  const result = spawnSync(process.execPath, [svc, ...args], { env, stdio: [input === undefined ? 'inherit' : 'pipe', 'inherit', 'inherit'], input });
  if (result.status !== 0) console.log(`(exit code ${result.status})`);
  return result.status;
}

try {
  console.log(`svc mock is running at ${url} with demo organisations ${[...new Set(keys.map((k) => k.organization_name))].join(' and ')}.`);
  step('Save a test key for the mock (read from stdin, checked before it is saved)', ['login', '--base-url', url, '--with-key'], key.key);
  step('Who am I? The key is never shown in full', ['whoami']);
  step('Recent reports', ['reports', 'list', '--limit', '8']);
  const list = spawnSync(process.execPath, [svc, 'reports', 'list', '--status', 'complete', '--json'], { env, encoding: 'utf8' });
  const id = JSON.parse(list.stdout).data[0].report_id;
  step('One report', ['reports', 'get', id]);
  step('Who owns the account', ['reports', 'identity', id]);
  const holder = JSON.parse(spawnSync(process.execPath, [svc, 'reports', 'identity', id, '--json'], { env, encoding: 'utf8' }).stdout).account_holder;
  const claimed = holder ? holder.split(' ').reverse().join(' ') : 'Ram Bahadur Shrestha';
  step('Does the claimed name match the statement? (word order differs)', ['match', id, '--name', claimed]);
  step('Verified account numbers', ['auth', id]);
  step('Counterparties', ['reports', 'counterparties', id]);
  step('Recurring streams: salary, rent, EMIs', ['recurring', id]);
  const pdf = join(home, 'statement.pdf');
  writeFileSync(pdf, '%PDF-1.4\nAccount Holder: Sita Kumari Thapa\n%%EOF\n');
  step('Parse a statement in the background and wait for it', ['parse', pdf, '--bank', 'NABIL', '--wait']);
  const directory = JSON.parse(readFileSync(new URL('../src/mock/fixtures/merchants.json', import.meta.url), 'utf8'));
  const merchant = directory.merchants[0];
  step('Merchants behind QR terminals and narration strings', ['merchants', 'resolve', merchant.terminals[0], '--name', `${merchant.merchant.toUpperCase()} PVT LTD`]);
  step("The central bank's interest rates, as a chart", ['data', 'series', 'interest-rates', 'wavg-credit', '--from', '2023-01', '--chart']);
  step('Issued statements', ['statements', 'list']);
  step('Quota usage', ['usage']);
  step('Machine output for pipes: one JSON object per line', ['reports', 'list', '--limit', '3', '-o', 'ndjson']);
  step('A report of another organisation is not found (exit 5)', ['reports', 'get', 'rpt_does_not_exist']);
} finally {
  mock.kill('SIGINT');
  rmSync(home, { recursive: true, force: true });
}
