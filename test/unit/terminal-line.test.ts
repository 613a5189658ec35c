// The line a spinner or the progress bar draws on (core/stream/terminal-line.ts, progress.ts) and
// the width it is fitted to (core/io.ts): cut to the terminal, never wrapped, whatever width the
// terminal tells; one that tells 0 columns has no width known (ora counted lines by it, and looped
// without end). What a real terminal of 0 and 60 columns shows: test/e2e/terminal-width.test.ts.
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
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 0, max: 4 }),
        (columns, reserved) => {
          const line = fitToLine(text, columns, reserved);
          expect(line).not.toContain('\n');
          expect(lineWidth(line)).toBeLessThanOrEqual(Math.max(1, columns - 1 - reserved));
        },
      ),
    );
    expect(lineWidth(fitToLine('x'.repeat(500), undefined))).toBe(79);
  });

  it('a progress line too wide for the terminal leaves fields out whole, the calls first, then the rate, the time left and the bar: none is cut', () => {
    const at = (width: number) =>
      progressLine(
        { items: 12_000, calls: 12 },
        { items: 25_000, calls: 25, noun: 'lookups' },
        3,
        width,
      );
    expect(at(80)).toBe(
      '[███████████···········] 12,000/25,000 lookups · 12/25 calls · 4,000/s · ETA 4s',
    );
    // It was cut: `… · 12/25 calls · 4,000/s · ET`.
    expect(at(60)).toBe('[████████········] 12,000/25,000 lookups · 4,000/s · ETA 4s');
    expect(at(50)).toBe('[████████········] 12,000/25,000 lookups · ETA 4s');
    expect(at(40)).toBe('[███████········] 12,000/25,000 lookups');
    expect(at(30)).toBe('12,000/25,000 lookups');
    const fields = at(200).split('] ')[1]!.split(' · ');
    for (let width = 22; width <= 200; width++) {
      const line = at(width);
      expect(lineWidth(line), line).toBeLessThanOrEqual(width - 1);
      for (const field of line.replace(/^\[[█·]+\] /, '').split(' · '))
        expect(fields, line).toContain(field);
    }
  });

  it('a spinner of fields leaves the last out whole when the line is short, and cuts only what is too wide alone', () => {
    const parsing = { fields: ['Parsing rpt_e8699f830adc84b8…', '123 s'] };
    expect(fitToLine(parsing, 40, 2)).toBe('Parsing rpt_e8699f830adc84b8… 123 s');
    expect(fitToLine(parsing, 34, 2)).toBe('Parsing rpt_e8699f830adc84b8…');
    expect(fitToLine(parsing, 20, 2)).toBe('Parsing rpt_e869…');
    const waiting = {
      fields: ['Waiting for', 'GET /v1/reports/rpt_e8699f830adc84b8/transactions…'],
      leaveOut: [0],
    };
    expect(fitToLine(waiting, 60, 2)).toBe('GET /v1/reports/rpt_e8699f830adc84b8/transactions…');
  });

  it('a progress bar line at 60 columns is at most 59 wide', () => {
    for (const done of [0, 1, 12, 25]) {
      const line = progressLine(
        { items: done * 1000, calls: done },
        { items: 25_000, calls: 25, noun: 'lookups' },
        done,
        60,
      );
      expect(lineWidth(line), line).toBeLessThanOrEqual(59);
    }
  });

  it('ora is told a width it can count lines with: the known one, else none (not 0, which looped without end)', () => {
    const stderr = {
      columns: 0,
      isTTY: true,
      write: () => true,
    } as unknown as NodeJS.WritableStream & { columns: number; isTTY: boolean };
    expect((spinnerStream(stderr, 60) as typeof stderr).columns).toBe(60);
    const unknown = (spinnerStream(stderr, undefined) as typeof stderr).columns;
    expect(Math.ceil(40 / unknown)).toBe(0);
    expect((spinnerStream(stderr, undefined) as typeof stderr).isTTY).toBe(true);
  });

  it('a terminal that tells 0 columns, or none, has no width known', () => {
    for (const columns of [0, -1, Number.NaN, undefined, Number.POSITIVE_INFINITY])
      expect(knownWidth(columns)).toBeUndefined();
    expect(knownWidth(60)).toBe(60);
    expect(knownWidth(80.5)).toBe(80);
  });
});
