// The line a spinner draws on (core/stream/terminal-line.ts) and the width it is fitted to
// (core/io.ts): a terminal that tells 0 columns has no width known (ora counted lines by it, and
// looped without end). What a real terminal of 0 columns shows: test/e2e/terminal-width.test.ts.
import { describe, expect, it } from 'vitest';
import { knownWidth } from '../../src/core/io.js';
import { spinnerStream } from '../../src/core/stream/terminal-line.js';

describe('the line of a spinner', () => {
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
