// The terminal line chart: it fits the width it is given, and names the first and last period and
// the lowest and highest points.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { lineChart, resample } from '../../src/core/output/chart.js';
import { lineWidth } from '../../src/core/output/fit.js';

const format = (v: number) => v.toFixed(2);
const points = (values: number[], start = 2021) =>
  values.map((value, i) => ({
    period: `${start + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`,
    value,
  }));

describe('resample', () => {
  it('keeps the ends and gives the count asked for', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 2, maxLength: 200 }),
        fc.integer({ min: 2, max: 300 }),
        (values, count) => {
          const out = resample(values, count);
          expect(out).toHaveLength(count);
          expect(out[0]).toBeCloseTo(values[0]!, 9); // -0 and 0 draw the same point
          expect(out.at(-1)).toBeCloseTo(values.at(-1)!, 6);
          const [lo, hi] = [Math.min(...values), Math.max(...values)];
          for (const v of out) expect(v >= lo - 1e-6 && v <= hi + 1e-6).toBe(true);
        },
      ),
    );
  });

  it('repeats a single value', () => {
    expect(resample([5], 4)).toEqual([5, 5, 5, 5]);
  });
});

describe('lineChart', () => {
  const series = points([6.81, 7.2, 8.4, 9.75, 9.1, 7.3, 6.2, 5.68]);

  it.each([40, 80, 120, 200])('fits %d columns and fills most of them', (width) => {
    const lines = lineChart(series, { width, color: false, format }).split('\n');
    for (const line of lines) expect(lineWidth(line)).toBeLessThanOrEqual(width);
    expect(Math.max(...lines.map(lineWidth))).toBeGreaterThanOrEqual(width - 2);
  });

  it('draws a series of a million points, which a spread into Math.min would overflow', () => {
    const long = Array.from({ length: 1_000_000 }, (_, i) => ({
      period: `2021-01`,
      value: i % 97,
    }));
    const lines = lineChart(long, { width: 80, color: false, format }).split('\n');
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(lineWidth(line)).toBeLessThanOrEqual(80);
  });

  it('labels the first and last period under the ends, and the min and max', () => {
    const lines = lineChart(series, { width: 60, color: false, format }).split('\n');
    const ends = lines.at(-2)!;
    expect(ends.trim().startsWith('2021-01')).toBe(true);
    expect(ends.indexOf('2021-01')).toBe(lines[0]!.indexOf('┤')); // under the first point, on the axis
    expect(ends.trimEnd().endsWith('2021-08')).toBe(true);
    expect(lines.at(-1)).toContain('max 9.75 (2021-04)');
    expect(lines.at(-1)).toContain('min 5.68 (2021-08)');
    // The y axis runs from the max label down to the min label.
    expect(lines[0]).toMatch(/^\s*9\.75┤/);
    expect(lines.find((l) => /^\s*5\.68┼|^\s*5\.68┤/.test(l))).toBeDefined();
  });

  it('names the min and max on two lines when one does not fit', () => {
    const lines = lineChart(series, { width: 40, color: false, format }).split('\n');
    expect(lines.at(-2)).toContain('max 9.75 (2021-04)');
    expect(lines.at(-1)).toContain('min 5.68 (2021-08)');
  });

  it('colours the line only when asked', () => {
    expect(lineChart(series, { width: 60, color: false, format })).not.toContain('\u001b[');
    expect(lineChart(series, { width: 60, color: true, format })).toContain('\u001b[36m');
  });

  it('draws one point and a flat line', () => {
    expect(lineChart(points([3]), { width: 40, color: false, format })).toContain(
      'max 3.00 (2021-01)',
    );
    const flat = lineChart(points([2, 2, 2]), { width: 40, color: false, format });
    expect(flat).toContain('min 2.00 (2021-01)');
    for (const line of flat.split('\n')) expect(lineWidth(line)).toBeLessThanOrEqual(40);
  });

  describe('every point sits on the row whose label is nearest to it', () => {
    /** The plot's rows: the value each is labelled with, and what is drawn right of the axis. */
    const rows = (chart: string) =>
      chart
        .split('\n')
        .map((line) => /^\s*([\d,.-]+)[┤┼](.*)$/.exec(line))
        .filter((match) => match !== null)
        .map((match) => ({ label: Number(match[1]!.replace(/,/g, '')), drawn: match[2]! }));
    /** The row of the longest level stretch of the line: where a plateau is drawn. */
    const plateauRow = (chart: string) => {
      const longest = (drawn: string) =>
        Math.max(0, ...(drawn.match(/─+/g) ?? []).map((run) => run.length));
      return rows(chart).reduce((best, row) =>
        longest(row.drawn) > longest(best.drawn) ? row : best,
      );
    };
    const money = (v: number) =>
      v.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

    it('the monthly credits of a report: the 58,400 plateau on the 57,742.86 line, not one line up', () => {
      const credits = points([37309.85, 90939.26, 58400, 58400, 119041.89, 58400, 58400]);
      const chart = lineChart(credits, { width: 80, color: false, format: money });
      expect(chart).toMatch(/^\s*64,553\.86┤/m);
      expect(chart).toMatch(/^\s*57,742\.86┤/m);
      expect(plateauRow(chart).label).toBe(57742.86);
    });

    it('any plateau between two other values, at any width', () => {
      const cents = fc.integer({ min: 0, max: 100_000_000 });
      fc.assert(
        fc.property(cents, cents, cents, fc.integer({ min: 40, max: 160 }), (a, b, c, width) => {
          const [low, high] = [Math.min(a, b), Math.max(a, b)];
          fc.pre(high - low >= 1200); // a grid step of at least a unit: labels of two decimals tell rows apart
          const plateau = low + (c % (high - low + 1));
          const values = [a, plateau, plateau, plateau, plateau, plateau, plateau, b].map(
            (v) => v / 100,
          );
          const chart = lineChart(points(values), { width, color: false, format });
          const step = (high - low) / 100 / 12;
          expect(Math.abs(plateauRow(chart).label - plateau / 100)).toBeLessThanOrEqual(
            step / 2 + 0.01,
          );
        }),
      );
    });

    it('a single point is labelled with its own value, not that value rounded', () => {
      expect(
        lineChart(points([58400.4]), { width: 40, color: false, format }).split('\n')[0],
      ).toMatch(/^58400\.40┼─+$/);
    });

    it('a flat line whose stretching leaves a few ulps of noise is one row, labelled with its value', () => {
      // Stretched to the 31 columns of a 40-column chart, 58400.4 comes out as 58400.399999999994
      // in places.
      expect(new Set(resample([58400.4, 58400.4, 58400.4], 31)).size).toBeGreaterThan(1);
      const flat = lineChart(points([58400.4, 58400.4, 58400.4]), {
        width: 40,
        color: false,
        format,
      }).split('\n');
      expect(flat[0]).toMatch(/^58400\.40┼─+$/);
      expect(flat[1]).toMatch(/^ +└─+$/);
    });
  });

  it('refuses no points', () => {
    expect(() => lineChart([], { width: 40, color: false, format })).toThrow();
  });
});
