// The pager in a real terminal (tmux, 80×24) against the mock: a real `less -FRX` shows a long
// table and svc waits for it, Ctrl-C is less's, `q` ends svc with exit 0 and nothing on stderr; a
// pager of our own (a script that records what it reads) gets the whole output of a long one and
// nothing of a short one; a pager that cannot start, --no-pager, an empty SVC_PAGER, the profile's
// empty `pager` and a pipe mean printing directly. Every rule of choosing:
// test/commands/pager.test.ts.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { peer } from '../support/peers.js';
import { inTerminal, ROOT, svcCommand, useWorld } from './harness.js';
import { useTerminal } from './terminal.js';

const world = useWorld();
const terminal = useTerminal();

const RAM = 'rpt_e8699f830adc84b8';
// The balance on the table's last row, txn_0074's: the end of the output is on the screen (or in
// the pager).
const LAST_BALANCE = '2,41,986.21';
/** Its transactions take some hundred lines at 80 columns; its report list, fifteen. */
const LONG = ['reports', 'transactions', RAM];
const SHORT = ['reports', 'list'];
const SIZE = { columns: 80, rows: 24 };

const hasLess = (() => {
  try {
    execFileSync('less', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** A folder for this test: svc's config, the stderr file, the recording pager. */
function scratch(): {
  dir: string;
  env: Record<string, string>;
  stderr: string;
  pager: string;
  recorded: string;
} {
  const dir = world.tempDir('svc-e2e-pager-');
  const recorded = join(dir, 'recorded.txt');
  const pager = join(dir, 'record-pager');
  writeFileSync(pager, `#!/bin/sh\ncat > '${recorded}'\n`);
  chmodSync(pager, 0o755);
  const env = {
    SVC_BASE_URL: world.mock.url,
    SVC_API_KEY: world.key().key,
    SVC_CONFIG_DIR: join(dir, 'config'),
    HOME: dir,
    TZ: 'UTC',
  };
  return { dir, env, stderr: join(dir, 'stderr.txt'), pager, recorded };
}

describe.skipIf(!hasLess)('less -FRX, the pager when none is named', () => {
  it("shows a long table; Ctrl-C is less's; q ends svc with exit 0, nothing on stderr, the terminal left usable", async () => {
    const { env, stderr } = scratch();
    const session = terminal.start(LONG, env, { ...SIZE, stderrFile: stderr });
    // less's prompt at the foot of a full screen: svc waits for it.
    const shown = await terminal.waitFor(
      session,
      (text) => text.trimEnd().endsWith('\n:'),
      'less to show the table',
    );
    expect(shown).toContain('DATE');
    expect(shown).not.toContain('SVC_EXIT');
    terminal.press(session, 'C-c');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(terminal.screen(session)).not.toContain('SVC_EXIT');
    terminal.press(session, 'q');
    const { code } = await terminal.exit(session);
    expect(code).toBe(0);
    expect(readFileSync(stderr, 'utf8')).toBe('');
    // The shell's `sleep` now has the terminal, which echoes what is typed, as a prompt would.
    terminal.type(session, 'typed-after');
    await terminal.waitFor(
      session,
      (text) => text.includes('typed-after'),
      'the typed text to echo',
    );
  });

  it('20,000 transactions, svc still writing while less shows the first screen: Ctrl-C leaves both running; q ends svc at once with exit 0, nothing on stderr', async () => {
    const { env, stderr } = scratch();
    const [first] = (
      JSON.parse(
        readFileSync(join(ROOT, 'test/fixtures/documented/transactions.json'), 'utf8'),
      ) as { transactions: object[] }
    ).transactions;
    const transactions = Array.from({ length: 20_000 }, (_, i) => ({
      ...first,
      id: `txn_${i}`,
      description: `PAYMENT ${i}`,
    }));
    const body = JSON.stringify({ count: transactions.length, transactions });
    const { url } = await peer((_request, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(body),
    );
    const session = terminal.start(
      LONG,
      { ...env, SVC_BASE_URL: new URL(url).origin },
      { ...SIZE, stderrFile: stderr },
    );
    await terminal.waitFor(
      session,
      (text) => text.trimEnd().endsWith('\n:'),
      'less to show the table',
      15_000,
    );
    terminal.press(session, 'C-c');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(terminal.screen(session)).not.toContain('SVC_EXIT');
    terminal.press(session, 'q');
    const { code } = await terminal.exit(session);
    expect(code).toBe(0);
    expect(readFileSync(stderr, 'utf8')).toBe('');
  });

  it('G to the end, then q: exit 0 and nothing on stderr', async () => {
    const { env, stderr } = scratch();
    const session = terminal.start(LONG, env, { ...SIZE, stderrFile: stderr });
    await terminal.waitFor(
      session,
      (text) => text.trimEnd().endsWith('\n:'),
      'less to show the table',
    );
    terminal.press(session, 'G');
    await terminal.waitFor(
      session,
      (text) => /\(END\)\s*$/.test(text) || /transactions\./.test(text),
      'the end of the table',
    );
    terminal.press(session, 'q');
    expect((await terminal.exit(session)).code).toBe(0);
    expect(readFileSync(stderr, 'utf8')).toBe('');
  });
});

describe('a pager of our own', () => {
  it('SVC_PAGER gets the whole of a long output, coloured; the terminal shows none of it', async () => {
    const { env, stderr, pager, recorded } = scratch();
    const session = terminal.start(
      LONG,
      { ...env, SVC_PAGER: pager },
      { ...SIZE, stderrFile: stderr },
    );
    const { code, screen } = await terminal.exit(session);
    expect(code).toBe(0);
    expect(readFileSync(stderr, 'utf8')).toBe('');
    const text = readFileSync(recorded, 'utf8');
    expect(text).toMatch(/\u001b\[/);
    expect(text).toContain(LAST_BALANCE);
    expect(screen).not.toContain(LAST_BALANCE);
  });

  it('a short output is printed directly: the pager never runs', async () => {
    const { env, stderr, pager, recorded } = scratch();
    const session = terminal.start(
      SHORT,
      { ...env, SVC_PAGER: pager },
      { ...SIZE, stderrFile: stderr },
    );
    const { code, screen } = await terminal.exit(session);
    expect(code).toBe(0);
    expect(screen).toContain(RAM);
    expect(existsSync(recorded)).toBe(false);
  });

  it.each([
    ['--no-pager', ['--no-pager'], {}],
    ['SVC_PAGER=""', [], { SVC_PAGER: '' }],
    ['PAGER=/nonexistent (it cannot start)', [], { PAGER: '/nonexistent/pager' }],
  ] as const)('%s: printed directly, exit 0, nothing on stderr', async (_name, args, extra) => {
    const { env, stderr, pager, recorded } = scratch();
    const session = terminal.start(
      [...LONG, ...args],
      { ...env, PAGER: pager, ...extra },
      { ...SIZE, stderrFile: stderr },
    );
    const { code, screen } = await terminal.exit(session);
    expect(code).toBe(0);
    expect(readFileSync(stderr, 'utf8')).toBe('');
    expect(screen).toContain(LAST_BALANCE);
    expect(existsSync(recorded)).toBe(false);
  });

  it('the profile\'s pager "" turns it off', async () => {
    const { env, stderr, pager, recorded } = scratch();
    expect((await world.bare(['config', 'set', 'pager', ''], { env })).code).toBe(0);
    const session = terminal.start(LONG, { ...env, PAGER: pager }, { ...SIZE, stderrFile: stderr });
    const { code, screen } = await terminal.exit(session);
    expect(code).toBe(0);
    expect(screen).toContain(LAST_BALANCE);
    expect(existsSync(recorded)).toBe(false);
  });

  it('never into a pipe, though stdin and stderr are the terminal', async () => {
    const { dir, env, pager, recorded } = scratch();
    const result = await inTerminal(`${svcCommand} ${LONG.join(' ')} | wc -l`, {
      configDir: dir,
      env: { ...env, SVC_PAGER: pager, LINES: '24' },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(Number(result.stdout.trim())).toBeGreaterThan(24);
    expect(existsSync(recorded)).toBe(false);
  });
});
