// A real terminal for tests of what a person sees: svc runs in a tmux session of its own (own
// socket, clean environment without CI), keys are typed with send-keys, the screen is read back.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, afterEach } from 'vitest';

import { ROOT, SVC } from './harness.js';

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

export class Terminal {
  private readonly socket = `svc-e2e-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  private sessions: string[] = [];
  private counter = 0;

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }

  /**
   * Starts `svc <args>` in a new session (120×30 unless `size` says) with only PATH, TERM, LANG and
   * the given variables set; when svc ends, the screen shows `SVC_EXIT=<code>`. `stderrFile`: svc's
   * stderr goes there instead of the screen. Returns the session name.
   */
  start(
    args: string[],
    env: Record<string, string>,
    options: { columns?: number; rows?: number; stderrFile?: string } = {},
  ): string {
    const session = `svc-${++this.counter}`;
    const vars = [
      'env',
      '-i',
      `PATH=${process.env.PATH ?? ''}`,
      'TERM=xterm-256color',
      'LANG=C.UTF-8',
      ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
    ];
    const stderr = options.stderrFile === undefined ? '' : ` 2>${quote(options.stderrFile)}`;
    const command = `cd ${quote(ROOT)} && ${[...vars, process.execPath, SVC, ...args].map(quote).join(' ')}${stderr}; echo "SVC_EXIT=$?"; sleep 60`;
    this.tmux(
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      String(options.columns ?? 120),
      '-y',
      String(options.rows ?? 30),
      command,
    );
    this.sessions.push(session);
    return session;
  }

  /** Types text as it is (no key names). */
  type(session: string, text: string): void {
    this.tmux('send-keys', '-t', session, '-l', text);
  }

  /** Presses keys by name: Enter, Space, Down, C-c … */
  press(session: string, ...keys: string[]): void {
    this.tmux('send-keys', '-t', session, ...keys);
  }

  screen(session: string): string {
    return this.tmux('capture-pane', '-t', session, '-p', '-J', '-S', '-');
  }

  /** Polls the screen (at most `ms`) until `done` holds; fails with the screen otherwise. */
  async waitFor(
    session: string,
    done: (text: string) => boolean,
    what: string,
    ms = 5_000,
  ): Promise<string> {
    const deadline = Date.now() + ms;
    for (;;) {
      const text = this.screen(session);
      if (done(text)) return text;
      if (Date.now() > deadline) throw new Error(`waited for ${what}; the screen shows:\n${text}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Waits until svc has ended and returns its exit code and the final screen. */
  async exit(session: string, ms = 10_000): Promise<{ code: number; screen: string }> {
    const screen = await this.waitFor(session, (t) => /SVC_EXIT=\d+/.test(t), 'svc to end', ms);
    return { code: Number(/SVC_EXIT=(\d+)/.exec(screen)![1]), screen };
  }

  closeSessions(): void {
    for (const session of this.sessions) {
      try {
        this.tmux('kill-session', '-t', session);
      } catch {
        // already gone
      }
    }
    this.sessions = [];
  }

  closeServer(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // the server already ended with its last session
    }
    // tmux leaves its socket file behind when the server ends on its own.
    rmSync(
      join(process.env.TMUX_TMPDIR || '/tmp', `tmux-${process.getuid?.() ?? 0}`, this.socket),
      { force: true },
    );
  }
}

/** A terminal for the calling describe block or file, cleaned after each test and at the end. */
export function useTerminal(): Terminal {
  const terminal = new Terminal();
  afterEach(() => terminal.closeSessions());
  afterAll(() => terminal.closeServer());
  return terminal;
}
