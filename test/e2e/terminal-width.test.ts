// Spinners and the progress bar on terminals of every width, in a real pseudo-terminal
// (util-linux `script`, its size set with stty) against `svc mock`: a terminal that tells 0
// columns (`script` without a size, some CI runners and containers) with stdout redirected; the
// progress bar of `merchants resolve` at 60 columns. The pseudo-terminal holds stderr alone where
// stdout goes to a file, so each is checked on its own, with the exit code.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { inSizedTerminal, type SizedTerminalRun, untilShown, useWorld } from './harness.js';

const world = useWorld();

/** svc against the mock in a pseudo-terminal of that size (harness.ts inSizedTerminal). */
function inPty(
  args: string,
  options: Omit<Parameters<typeof inSizedTerminal>[1], 'configDir' | 'scratch'>,
): Promise<SizedTerminalRun> {
  return inSizedTerminal(args, {
    ...options,
    configDir: world.dir,
    scratch: world.tempDir('svc-pty-'),
    env: { SVC_BASE_URL: world.mock.url, SVC_API_KEY: world.key().key, ...options.env },
  });
}

const CURSOR_UP = /\u001b\[\d*A/g;
const CONTROL = /\u001b\[[0-9;?]*[A-Za-z]/g;
const WAITING = 'Waiting for GET /v1/usage…';

describe('a terminal that tells 0 columns, stdout to a file', () => {
  it('a slow request: the spinner turns on one line and goes; the table is in the file (exit 0)', async () => {
    await world.fault({ method: 'GET', path: '/v1/usage', delay_ms: 2_500 });
    const out = join(world.tempDir('svc-pty-'), 'usage.tsv');
    const run = await inPty('usage', { columns: 0, stdoutFile: out });
    expect(
      run.ranAway,
      `svc ran away: ${run.terminal.length} bytes, ${(run.terminal.match(CURSOR_UP) ?? []).length} cursor-up codes`,
    ).toBe(false);
    expect(run.code).toBe(0);
    // stdout: the table for a script.
    expect(readFileSync(out, 'utf8')).toMatch(/^FIELD\tVALUE\nplan\t\S+\n/);
    // stderr (the terminal): the spinner, redrawn in place, never moving up a line, then cleared.
    expect(run.terminal).toContain(WAITING);
    expect(run.terminal.match(CURSOR_UP) ?? []).toEqual([]);
    expect(run.terminal.length).toBeLessThan(20_000);
    // ora goes back to the start of the line with ESC [ 1 G (as \r would) and clears it at the end.
    expect(
      run.terminal
        .replace(/\u001b\[1?G/g, '\r')
        .replace(CONTROL, '')
        .split(/\r/)
        .at(-1)!
        .trim(),
    ).toBe('');
  });

  it('SIGTERM while the spinner turns ends svc at once with 143', async () => {
    await world.fault({ method: 'GET', path: '/v1/usage', delay_ms: 30_000 });
    const out = join(world.tempDir('svc-pty-'), 'usage.tsv');
    let signalled = 0;
    const run = await inPty('usage', {
      columns: 0,
      stdoutFile: out,
      whileRunning: async (pid, output) => {
        await untilShown(output, (text) => text.includes(WAITING));
        // A few frames more: the spinner is running, not just drawn.
        await new Promise((r) => setTimeout(r, 300));
        signalled = Date.now();
        process.kill(pid, 'SIGTERM');
      },
    });
    expect(run.ranAway, `svc ran away: ${run.terminal.length} bytes`).toBe(false);
    expect(run.code).toBe(143);
    expect(Date.now() - signalled).toBeLessThan(5_000);
    expect(readFileSync(out, 'utf8')).toBe('');
    expect(run.terminal).toContain('error: interrupted');
    expect(run.terminal.match(CURSOR_UP) ?? []).toEqual([]);
  });
});

describe('merchants resolve at 60 columns, stdout to a file', () => {
  it('draws its progress bar on one line of at most 59 columns, redrawn in place; its messages fit too', async () => {
    // More than ten calls: svc says first what the run costs.
    const lookups = Array.from({ length: 12_000 }, (_, i) =>
      String(5_000_000_000_000_000n + BigInt(i)),
    );
    const dir = world.tempDir('svc-pty-');
    const input = join(dir, 'lookups.txt');
    writeFileSync(input, lookups.join('\n') + '\n');
    // Each call takes a moment: the bar is drawn a few times over.
    await world.fault({ method: 'POST', path: '/v1/merchants/resolve', delay_ms: 150, times: 12 });
    const out = join(dir, 'results.tsv');
    const run = await inPty(`merchants resolve --file ${JSON.stringify(input)} --concurrency 1`, {
      columns: 60,
      stdoutFile: out,
    });
    expect(run.code, run.terminal).toBe(0);
    // stdout: a header line and one line per lookup.
    expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(12_001);
    // stderr: lines that end in a line feed are messages; the bar's frames are parted by \r.
    const text = run.terminal.replace(/\r\n/g, '\n').replace(CONTROL, '');
    const frames = text.split(/[\r\n]/).filter((frame) => frame.startsWith('['));
    expect(frames.length).toBeGreaterThanOrEqual(3);
    for (const frame of frames) expect([...frame].length, frame).toBeLessThanOrEqual(59);
    // No frame was left behind on a line of its own: the terminal ends with the bar cleared.
    const messages = text
      .split('\n')
      .map((line) => line.split('\r').at(-1)!)
      .filter((line) => line.trim() !== '');
    expect(
      messages.every((line) => !line.startsWith('[')),
      messages.join('\n'),
    ).toBe(true);
    for (const line of messages) expect([...line].length, line).toBeLessThanOrEqual(60);
    expect(messages.slice(0, 2).join(' ')).toBe(
      'Resolving 12,000 lookups in 12 calls: this uses 12 billing units.',
    );
    // Once the bar is gone, one line sums the run up, its fields whole (those without room left
    // out).
    expect(messages[2]).toMatch(/^12,000 lookups, [\d,]+ matched, (.+, )?12 calls in [\d.ms]+$/);
    expect(messages.length).toBe(3);
  });
});
