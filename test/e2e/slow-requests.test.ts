// A reply the service is slow to send, seen in a real terminal (tmux) against the mock: after a
// second `Waiting for GET /v1/usage…` spins on the line, and when the reply comes the line is
// clean and the table follows; Ctrl-C while it waits ends svc with 130 and a usable terminal.
import { execFileSync } from 'node:child_process';

import { describe, expect, it } from 'vitest';

import { STACK_LINE, useWorld } from './harness.js';
import { type Terminal, useTerminal } from './terminal.js';

const world = useWorld();
const terminal = useTerminal();

const WAITING = 'Waiting for GET /v1/usage';
/** A frame of the spinner, wherever it may be left. */
const FRAME = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

const env = () => ({ SVC_BASE_URL: world.mock.url, SVC_API_KEY: world.key().key });

/** tmux on the terminal's own server (Terminal keeps its socket to itself). */
function tmux(term: Terminal, ...args: string[]): string {
  return execFileSync('tmux', ['-L', term['socket'], ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

describe('a slow reply, in a real terminal', () => {
  it('svc usage: the spinner after a second, then a clean line and the table (exit 0)', async () => {
    await world.fault({ method: 'GET', path: '/v1/usage', delay_ms: 2_500 });
    const started = Date.now();
    const session = terminal.start(['usage'], env());
    const spinning = await terminal.waitFor(
      session,
      (t) => t.includes(WAITING),
      'the spinner of the slow request',
    );
    // Not before the second is up.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(spinning).toMatch(new RegExp(`${FRAME.source} ${WAITING}…`));
    const { code, screen } = await terminal.exit(session, 10_000);
    expect(code, screen).toBe(0);
    expect(screen).not.toContain('Waiting for');
    expect(screen).not.toMatch(FRAME);
    // The table starts on the first line: the spinner's line was cleared, not pushed down.
    const lines = screen.split('\n');
    expect(lines[0]).toMatch(/^Plan +\S/);
    expect(screen).toMatch(/^Resets +\d{4}-\d{2}-\d{2} \d{2}:\d{2} (UTC|[+-]\d{4}) \(in /m);
    // The cursor, hidden while the spinner turned, is back.
    expect(tmux(terminal, 'display-message', '-p', '-t', session, '#{cursor_flag}').trim()).toBe(
      '1',
    );
  });

  it('svc usage answered at once: no spinner ever drawn', async () => {
    const session = terminal.start(['usage'], env());
    const { code, screen } = await terminal.exit(session);
    expect(code, screen).toBe(0);
    expect(screen).not.toContain('Waiting for');
    expect(screen).not.toMatch(FRAME);
  });

  it('Ctrl-C while it waits: exit 130 at once, the spinner cleared, the terminal usable', async () => {
    await world.fault({ method: 'GET', path: '/v1/usage', delay_ms: 30_000 });
    const session = terminal.start(['usage'], env());
    await terminal.waitFor(session, (t) => t.includes(WAITING), 'the spinner of the slow request');
    const pressed = Date.now();
    terminal.press(session, 'C-c');
    const { code, screen } = await terminal.exit(session, 10_000);
    expect(code, screen).toBe(130);
    expect(Date.now() - pressed).toBeLessThan(3_000);
    expect(screen).toMatch(/^error: interrupted$/m);
    expect(screen).not.toContain('Waiting for');
    expect(screen).not.toMatch(FRAME);
    expect(screen).not.toMatch(STACK_LINE);
    const [tty, cursor] = tmux(
      terminal,
      'display-message',
      '-p',
      '-t',
      session,
      '#{pane_tty} #{cursor_flag}',
    )
      .trim()
      .split(' ');
    expect(cursor).toBe('1');
    const modes = execFileSync('stty', ['-a', '-F', tty!], { encoding: 'utf8' });
    for (const mode of ['icanon', 'echo', 'isig'])
      expect(modes).toMatch(new RegExp(`(^|\\s)${mode}(\\s|$)`));
  });
});
