// The line a spinner or the progress bar draws on (core/stream/terminal-line.ts, progress.ts) and
// the width it is fitted to (core/io.ts): cut to the terminal, never wrapped, whatever width the
// terminal tells; one that tells 0 columns has no width known (ora counted lines by it, and
// looped without end). What a real terminal of 0 and 60 columns shows: test/e2e/terminal-width.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { knownWidth } from '../../src/core/io.js';
import { lineWidth } from '../../src/core/output/fit.js';
import { progressLine } from '../../src/core/stream/progress.js';
import { fitToLine, spinnerStream } from '../../src/core/stream/terminal-line.js';

describe('the line of a spinner or a progress bar', () => {
  it('is cut to the terminal, never wrapped; a terminal of unknown width (0 columns) gets 80', () => {
    const text = 'Waiting for GET /v1/reports/rpt_e8699f830adc84b8/transactions\nand more';
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 0, max: 4 }), (columns, reserved) => {
        const line = fitToLine(text, columns, reserved);
        expect(line).not.toContain('\n');
        expect(lineWidth(line)).toBeLessThanOrEqual(Math.max(1, columns - 1 - reserved));
      }),
    );
    expect(lineWidth(fitToLine('x'.repeat(500), undefined))).toBe(79);
  });

  it('a progress bar line at 60 columns is at most 59 wide', () => {
    for (const done of [0, 1, 12, 25]) {
      const line = progressLine({ items: done * 1000, calls: done }, { items: 25_000, calls: 25, noun: 'lookups' }, done, 60);
      expect(lineWidth(line), line).toBeLessThanOrEqual(59);
    }
  });

  it('ora is told a width it can count lines with: the known one, else none (not 0, which looped without end)', () => {
    const stderr = { columns: 0, isTTY: true, write: () => true } as unknown as NodeJS.WritableStream & { columns: number; isTTY: boolean };
    expect((spinnerStream(stderr, 60) as typeof stderr).columns).toBe(60);
    const unknown = (spinnerStream(stderr, undefined) as typeof stderr).columns;
    expect(Math.ceil(40 / unknown)).toBe(0);
    expect((spinnerStream(stderr, undefined) as typeof stderr).isTTY).toBe(true);
  });

  it('a terminal that tells 0 columns, or none, has no width known', () => {
    for (const columns of [0, -1, Number.NaN, undefined, Number.POSITIVE_INFINITY]) expect(knownWidth(columns)).toBeUndefined();
    expect(knownWidth(60)).toBe(60);
    expect(knownWidth(80.5)).toBe(80);
  });
});
