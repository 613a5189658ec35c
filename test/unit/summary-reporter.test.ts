// The summary line of test/summary-reporter.ts, from real vitest runs: a vitest process is started
// on small test files written to a temporary folder (globals on, so they need no import), with the
// reporter, and its last line and exit code are read. A file that errors before its tests run (a
// failing beforeAll, an import that throws) counts as a failed file even though no test failed.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const REPORTER = join(ROOT, 'test', 'summary-reporter.ts');

const FILES: Record<string, string> = {
  'passing.test.js': "it('one', () => {});\nit('two', () => {});\nit.skip('not now', () => {});\n",
  'failing-test.test.js':
    "it('passes', () => {});\nit('fails', () => { throw new Error('boom'); });\n",
  'suite-before-all.test.js':
    "describe('a suite', () => {\n  beforeAll(() => { throw new Error('beforeAll fails'); });\n  it('a', () => {});\n  it('b', () => {});\n});\n",
  'file-before-all.test.js':
    "beforeAll(() => { throw new Error('beforeAll fails'); });\nit('c', () => {});\n",
  'import-error.test.js': "import './no-such-module.js';\nit('never collected', () => {});\n",
  'unhandled.test.js':
    "it('leaves a rejection behind', async () => {\n  Promise.reject(new Error('nobody waits for me'));\n  await new Promise((resolve) => setTimeout(resolve, 50));\n});\n",
};

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-summary-reporter-'));
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name), text);
  writeFileSync(
    join(dir, 'vitest.config.mjs'),
    `export default { test: { globals: true, cache: false, include: ['*.test.js'], reporters: [${JSON.stringify(REPORTER)}] } };\n`,
  );
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** `vitest run FILES…` in the temporary folder: the reporter's line and the exit code. */
function vitest(
  files: string[],
): Promise<{ summary: string | undefined; code: number | null; output: string }> {
  // The outer run's own variables (VITEST, VITEST_POOL_ID…) must not reach the inner one.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !key.startsWith('VITEST') && key !== 'TEST' && key !== 'NODE_ENV',
    ),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VITEST, 'run', ...files], {
      cwd: dir,
      env: { ...env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        summary: output
          .split('\n')
          .filter((line) => line.startsWith('Tests: '))
          .at(-1),
        code,
        output,
      }),
    );
  });
}

// Each case starts a vitest process (a second or more under load): they run side by side.
describe.concurrent('the summary line', { timeout: 60_000 }, () => {
  it('of a clean run: passed and skipped tests, no failed file, exit code 0', async ({
    expect,
  }) => {
    const run = await vitest(['passing.test.js']);
    expect(run.summary, run.output).toBe('Tests: 2 passed, 0 failed, 1 skipped; files: 0 failed');
    expect(run.code).toBe(0);
  });

  it('counts a file whose beforeAll fails as failed, though its tests only count as skipped', async ({
    expect,
  }) => {
    const run = await vitest(['passing.test.js', 'suite-before-all.test.js']);
    expect(run.summary, run.output).toBe('Tests: 2 passed, 0 failed, 3 skipped; files: 1 failed');
    expect(run.code).toBe(1);
  });

  it('counts files that fail at import, in a file-level beforeAll, or in a test', async ({
    expect,
  }) => {
    const run = await vitest([
      'passing.test.js',
      'failing-test.test.js',
      'suite-before-all.test.js',
      'file-before-all.test.js',
      'import-error.test.js',
    ]);
    expect(run.summary, run.output).toBe('Tests: 3 passed, 1 failed, 4 skipped; files: 4 failed');
    expect(run.code).toBe(1);
  });

  it('adds the errors outside any test, which fail the run too', async ({ expect }) => {
    const run = await vitest(['unhandled.test.js']);
    expect(run.summary, run.output).toBe(
      'Tests: 1 passed, 0 failed, 0 skipped; files: 0 failed; unhandled errors: 1',
    );
    expect(run.code).toBe(1);
  });
});
