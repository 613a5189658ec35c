// Ctrl-C pressed in a real terminal (tmux) while svc shows a spinner or a prompt: every one ends
// at once with exit 130, clears what it drew, and leaves the terminal as it found it (cooked,
// echoing, cursor shown). And a progress bar on the terminal whose stdout reader goes away
// (`| head -5`) is not left on the screen.
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { ROOT, STACK_LINE, SVC, TINY_PDF, useWorld } from './harness.js';
import { type Terminal, useTerminal } from './terminal.js';

const world = useWorld();
const terminal = useTerminal();

/** Longer than any of these tests: a reply held this long only comes if Ctrl-C did not stop svc. */
const HELD_MS = 30_000;
/** Ctrl-C stops at once, not after the 5 s a stopping command is given at most. */
const STOPS_WITHIN_MS = 3_000;

/** tmux on the terminal's own server (Terminal keeps its socket to itself). */
function tmux(term: Terminal, ...args: string[]): string {
  return execFileSync('tmux', ['-L', term['socket'], ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * The state svc left the terminal in: its line discipline's modes, and whether the cursor shows.
 */
function terminalState(term: Terminal, session: string): { modes: string; cursorShown: boolean } {
  const [tty, cursor] = tmux(
    term,
    'display-message',
    '-p',
    '-t',
    session,
    '#{pane_tty} #{cursor_flag}',
  )
    .trim()
    .split(' ');
  return {
    modes: execFileSync('stty', ['-a', '-F', tty!], { encoding: 'utf8' }),
    cursorShown: cursor === '1',
  };
}

/**
 * A terminal a person can go on typing in: canonical input, echo, Ctrl-C a signal, the cursor
 * shown.
 */
async function expectUsable(term: Terminal, session: string): Promise<void> {
  const { modes, cursorShown } = terminalState(term, session);
  for (const mode of ['icanon', 'echo', 'isig', 'icrnl', 'opost'])
    expect(modes).toMatch(new RegExp(`(^|\\s)${mode}(\\s|$)`));
  expect(cursorShown).toBe(true);
  // What is typed now shows: the terminal echoes it, as it does at a shell prompt.
  term.type(session, 'typed-after');
  await term.waitFor(session, (t) => t.includes('typed-after'), 'the typed text to echo');
}

/** Presses Ctrl-C and waits for svc to end: its exit code, the screen, and how long it took. */
async function pressCtrlC(session: string): Promise<{ code: number; screen: string; ms: number }> {
  const pressed = Date.now();
  terminal.press(session, 'C-c');
  const { code, screen } = await terminal.exit(session, 10_000);
  return { code, screen, ms: Date.now() - pressed };
}

/** Bounded wait until the mock has seen `count` requests of this method and path prefix. */
async function untilRequested(method: string, path: string, count = 1): Promise<void> {
  const seen = async () =>
    (await world.requests()).filter((r) => r.method === method && r.path.startsWith(path)).length;
  for (let i = 0; i < 100 && (await seen()) < count; i++)
    await new Promise((r) => setTimeout(r, 100));
  expect(await seen()).toBeGreaterThanOrEqual(count);
}

function statement(): string {
  const path = join(world.tempDir('svc-interrupt-'), 'statement.pdf');
  writeFileSync(path, TINY_PDF);
  return path;
}

const env = () => ({ SVC_BASE_URL: world.mock.url, SVC_API_KEY: world.key().key });

describe('Ctrl-C while a spinner shows', () => {
  it('svc parse FILE --wait, uploading: exit 130 at once, the spinner cleared, the terminal usable', async () => {
    await world.fault({ method: 'POST', path: '/v1/parse', delay_ms: HELD_MS });
    const session = terminal.start(['parse', statement(), '--wait'], env());
    await terminal.waitFor(
      session,
      (t) => t.includes('Uploading statement.pdf'),
      'the upload spinner',
    );
    await untilRequested('POST', '/v1/parse');
    const { code, screen, ms } = await pressCtrlC(session);
    expect(code, screen).toBe(130);
    expect(ms, screen).toBeLessThan(STOPS_WITHIN_MS);
    expect(screen).toMatch(/^error: interrupted$/m);
    expect(screen).not.toContain('Uploading');
    expect(screen).not.toMatch(STACK_LINE);
    await expectUsable(terminal, session);
  });

  it('svc parse FILE --wait, waiting for the report: exit 130 at once, no further poll, the report id left on the screen, the terminal usable', async () => {
    // Every poll finds the report still processing: svc waits between polls with its spinner.
    await world.fault({
      method: 'GET',
      path: '/v1/reports/',
      times: 1000,
      status: 200,
      json: { report_id: 'rpt_0000000000000001', status: 'processing' },
    });
    const session = terminal.start(['parse', statement(), '--wait'], env());
    await terminal.waitFor(
      session,
      (t) => /Parsing rpt_\w+… \d+ s/.test(t),
      'the wait spinner, between polls',
    );
    const polls = (await world.requests()).filter((r) => r.method === 'GET').length;
    const { code, screen, ms } = await pressCtrlC(session);
    expect(code, screen).toBe(130);
    expect(ms, screen).toBeLessThan(STOPS_WITHIN_MS);
    expect(screen).not.toContain('Parsing');
    // The upload was accepted: its id, and how to look at it later, stay on the screen.
    const id = /^Uploaded: report (rpt_\w+) is being parsed\. To look at it later:$/m.exec(
      screen,
    )?.[1];
    expect(id, screen).toBeDefined();
    expect(screen).toMatch(new RegExp(`^  svc reports get ${id}$`, 'm'));
    expect(screen).toMatch(/^error: interrupted$/m);
    expect(screen.replace(/\s+/g, ' ')).toContain(
      `look at it later with \`svc reports get ${id}\`.`,
    );
    expect(screen).not.toMatch(STACK_LINE);
    // The next poll (1.5 s after the first at most) never came.
    await new Promise((r) => setTimeout(r, 1_600));
    expect((await world.requests()).filter((r) => r.method === 'GET')).toHaveLength(polls);
    await expectUsable(terminal, session);
  });

  it.each([
    ['typed at the prompt', false],
    ['given with --api-key', true],
  ])(
    'svc login, checking a key %s: exit 130 at once, nothing saved, the terminal usable',
    async (_how, flag) => {
      await world.fault({ method: 'GET', path: '/v1/usage', delay_ms: HELD_MS });
      const configDir = join(world.tempDir('svc-interrupt-'), 'svc');
      const args = [
        'login',
        '--base-url',
        world.mock.url,
        ...(flag ? ['--api-key', world.key().key] : []),
      ];
      const session = terminal.start(args, { SVC_CONFIG_DIR: configDir });
      if (!flag) {
        await terminal.waitFor(session, (t) => /\bkey\b/i.test(t), 'the key prompt');
        terminal.type(session, world.key().key);
        terminal.press(session, 'Enter');
      }
      await terminal.waitFor(
        session,
        (t) => t.includes('Checking the key'),
        'the key check spinner',
      );
      await untilRequested('GET', '/v1/usage');
      const { code, screen, ms } = await pressCtrlC(session);
      expect(code, screen).toBe(130);
      expect(ms, screen).toBeLessThan(STOPS_WITHIN_MS);
      expect(screen).not.toContain('Checking the key');
      expect(screen).not.toMatch(STACK_LINE);
      expect(existsSync(join(configDir, 'config.json'))).toBe(false);
      await expectUsable(terminal, session);
    },
  );
});

describe('Ctrl-C at a prompt', () => {
  it('svc login, at the key prompt (raw mode): exit 130 at once, nothing sent or saved, the terminal usable', async () => {
    const configDir = join(world.tempDir('svc-interrupt-'), 'svc');
    const session = terminal.start(['login', '--base-url', world.mock.url], {
      SVC_CONFIG_DIR: configDir,
    });
    await terminal.waitFor(session, (t) => /\bkey\b/i.test(t), 'the key prompt');
    terminal.type(session, 'svc_sk_test_0123');
    const { code, screen, ms } = await pressCtrlC(session);
    expect(code, screen).toBe(130);
    expect(ms, screen).toBeLessThan(STOPS_WITHIN_MS);
    expect(screen).not.toMatch(STACK_LINE);
    expect(existsSync(join(configDir, 'config.json'))).toBe(false);
    expect(await world.requests()).toEqual([]);
    await expectUsable(terminal, session);
  });
});

describe('a progress bar whose stdout reader goes away', () => {
  it('svc merchants resolve --file BIG | head -5: the bar is gone from the screen, exit 0', async () => {
    const file = join(world.tempDir('svc-interrupt-'), 'lookups.txt');
    writeFileSync(
      file,
      Array.from({ length: 25_000 }, (_, i) => String(4_000_000_000_000_000n + BigInt(i))).join(
        '\n',
      ) + '\n',
    );
    // The first call is held a moment, so the bar is surely on the screen before any output.
    await world.fault({ method: 'POST', path: '/v1/merchants/resolve', delay_ms: 1_500 });
    const session = 'svc-head';
    const vars = [
      'TERM=xterm-256color',
      'LANG=C.UTF-8',
      `SVC_BASE_URL=${world.mock.url}`,
      `SVC_API_KEY=${world.key().key}`,
      `SVC_CONFIG_DIR=${join(world.dir, 'config')}`,
    ];
    const svc = `env -i PATH="$PATH" ${vars.join(' ')} '${process.execPath}' '${SVC}'`;
    // The lines cut short: whole, they would wrap on the screen.
    const command = `cd '${ROOT}' && ${svc} merchants resolve --file '${file}' -o ndjson | head -5 | cut -c1-40; echo "SVC_EXIT=\${PIPESTATUS[0]}"; sleep 60`;
    tmux(
      terminal,
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      '120',
      '-y',
      '30',
      'bash',
      '-c',
      command,
    );
    try {
      await terminal.waitFor(session, (t) => t.includes('0/25,000 lookups'), 'the progress bar');
      const screen = await terminal.waitFor(
        session,
        (t) => /SVC_EXIT=\d+/.test(t),
        'svc to end',
        15_000,
      );
      expect(screen).toMatch(/SVC_EXIT=0/);
      expect(screen).not.toContain('lookups ·');
      expect(
        screen.split('\n').filter((line) => line.startsWith('{"input":"40000000000000')),
      ).toHaveLength(5);
    } finally {
      tmux(terminal, 'kill-session', '-t', session);
    }
  });
});
