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

// The tour's own folders: its mock keeps its keys there, not in the data folder of the user's own
// `svc mock`.
const mock = spawn(process.execPath, [svc, 'mock', '--port', '0', '--json', '--quiet'], {
  env: { ...process.env, SVC_DATA_DIR: join(home, 'data') },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const firstLine = await new Promise((resolve, reject) => {
  mock.on('exit', (code) => reject(new Error(`svc mock exited with ${code}`)));
  createInterface({ input: mock.stdout }).once('line', resolve);
});
const { url, keys } = JSON.parse(firstLine);
const key = keys.find((k) => k.mode === 'test' && k.scope === 'FULL');
const env = {
  ...process.env,
  SVC_CONFIG_DIR: join(home, 'config'),
  SVC_CACHE_DIR: join(home, 'cache'),
  SVC_DATA_DIR: join(home, 'data'),
};

const bold = (text) =>
  process.stdout.isTTY && !process.env.NO_COLOR ? `\u001b[1m${text}\u001b[0m` : text;

function step(title, args, input, extraEnv = {}) {
  console.log(
    `\n${bold(`# ${title}`)}\n$ svc ${args.map((a) => (/[\s"|]/.test(a) ? JSON.stringify(a) : a)).join(' ')}`,
  );
  const result = spawnSync(process.execPath, [svc, ...args], {
    env: { ...env, ...extraEnv },
    stdio: [input === undefined ? 'inherit' : 'pipe', 'inherit', 'inherit'],
    input,
  });
  if (result.status !== 0) console.log(`(exit code ${result.status})`);
  return result.status;
}

try {
  console.log(
    `svc mock is running at ${url} with demo organisations ${[...new Set(keys.map((k) => k.organization_name))].join(' and ')}.`,
  );
  step(
    'Save a test key for the mock (read from stdin, checked before it is saved)',
    ['login', '--base-url', url, '--with-key'],
    key.key,
  );
  step('Who am I? The key is never shown in full', ['whoami']);
  step('Recent reports', ['reports', 'list', '--limit', '8']);
  const list = spawnSync(
    process.execPath,
    [svc, 'reports', 'list', '--status', 'complete', '--json'],
    { env, encoding: 'utf8' },
  );
  const id = JSON.parse(list.stdout).data[0].report_id;
  step('One report', ['reports', 'get', id]);
  step('Who owns the account', ['reports', 'identity', id]);
  const holder = JSON.parse(
    spawnSync(process.execPath, [svc, 'reports', 'identity', id, '--json'], {
      env,
      encoding: 'utf8',
    }).stdout,
  ).account_holder;
  const claimed = holder ? holder.split(' ').reverse().join(' ') : 'Ram Bahadur Shrestha';
  step('Does the claimed name match the statement? (word order differs)', [
    'match',
    id,
    '--name',
    claimed,
  ]);
  step('Verified account numbers', ['auth', id]);
  step('Counterparties', ['reports', 'counterparties', id]);
  step('Recurring streams: salary, rent, EMIs', ['recurring', id]);
  const pdf = join(home, 'statement.pdf');
  writeFileSync(pdf, '%PDF-1.4\nAccount Holder: Sita Kumari Thapa\n%%EOF\n');
  step('Parse a statement in the background and wait for it', [
    'parse',
    pdf,
    '--bank',
    'NABIL',
    '--wait',
  ]);
  const directory = JSON.parse(
    readFileSync(new URL('../src/mock/fixtures/merchants.json', import.meta.url), 'utf8'),
  );
  const merchant = directory.merchants[0];
  step('Merchants behind QR terminals and narration strings', [
    'merchants',
    'resolve',
    merchant.terminals[0],
    '--name',
    `${merchant.merchant.toUpperCase()} PVT LTD`,
  ]);
  step("The central bank's interest rates, as a chart", [
    'data',
    'series',
    'interest-rates',
    'wavg-credit',
    '--from',
    '2023-01',
    '--chart',
  ]);
  step("A lender's day, 1: the applicant's income, balance and debts", ['reports', 'income', id]);
  step('2: the balance trend', ['reports', 'balance', id]);
  step('3: EMIs already paid, and to whom', ['reports', 'liabilities', id]);
  step('4: the score and the authenticity checks (one billing unit each)', [
    'reports',
    'score',
    id,
  ]);
  step('5: is the statement genuine?', ['reports', 'verify', id]);
  step('6: can the applicant carry a loan of 4 lakh over 36 months at 14%?', [
    'reports',
    'underwrite',
    id,
    '--principal',
    '400000',
    '--tenor-months',
    '36',
    '--annual-rate',
    '14',
  ]);
  const reference = `loan-demo-${Date.now()}`;
  step('7: record the decision, and later how the loan went', [
    'decisions',
    'record',
    '--client-reference-id',
    reference,
    '--decision',
    'approved',
    '--report-id',
    id,
    '--amount',
    '400000',
  ]);
  step('8: the outcome', [
    'decisions',
    'outcome',
    '--client-reference-id',
    reference,
    '--outcome',
    'repaid',
  ]);
  step('Salary credits of the statement, as CSV for a spreadsheet', [
    'reports',
    'transactions',
    id,
    '--category',
    'salary',
    '-o',
    'csv',
  ]);
  const consent = spawnSync(
    process.execPath,
    [
      svc,
      'consents',
      'create',
      id,
      '--scopes',
      'identity,income',
      '--grantee-label',
      'Nabil Bank loan desk',
      '--json',
    ],
    { env, encoding: 'utf8' },
  );
  const shared = JSON.parse(consent.stdout);
  console.log(
    `\n${bold('# Share identity and income with a third party: a consent and its token')}\n$ svc consents create ${id} --scopes identity,income --grantee-label "Nabil Bank loan desk"\n(consent ${shared.id} made; its token is shown once)`,
  );
  step(
    'The grantee reads the data with the token alone: no API key is sent',
    ['consents', 'data', shared.id, '--token', shared.token],
    undefined,
    { SVC_API_KEY: '' },
  );
  step('Revoke it; the token opens nothing from now on', ['consents', 'revoke', shared.id]);
  step('Issued statements', ['statements', 'list']);
  step('Quota usage', ['usage']);
  step('Machine output for pipes: one JSON object per line', [
    'reports',
    'list',
    '--limit',
    '3',
    '-o',
    'ndjson',
  ]);
  step('Any JSON reply filtered with jq, built in (no jq needed)', [
    'reports',
    'list',
    '--limit',
    '3',
    '--jq',
    '.data[] | "\\(.report_id) \\(.status)"',
  ]);
  step('A report of another organisation is not found (exit 5)', [
    'reports',
    'get',
    'rpt_does_not_exist',
  ]);
} finally {
  mock.kill('SIGINT');
  rmSync(home, { recursive: true, force: true });
}
