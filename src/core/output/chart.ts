// A line chart for the terminal (asciichart), stretched or squeezed to the width it is given, with
// the first and last period under its ends and the lowest and highest points named below.
import { cyan, plot } from 'asciichart';

export interface ChartPoint {
  period: string;
  value: number;
}

export interface ChartOptions {
  /** Columns available, the y-axis labels included. */
  width: number;
  /** Rows of the plot itself (default 12). */
  height?: number;
  color: boolean;
  /** How values are written on the y axis and in the min/max line. */
  format: (value: number) => string;
  /** Dims the axis and labels when colour is on. */
  dim?: (text: string) => string;
  /**
   * How a period is written under the axis and beside the extremes (a calendar's mark); default: as
   * it is.
   */
  label?: (period: string) => string;
}

const DEFAULT_HEIGHT = 12;
/** Fewer plot columns than this make no readable chart: the chart then overflows instead. */
const MIN_PLOT_COLUMNS = 10;

/** Draws the points (oldest first, at least one) as a line chart; returns lines joined by \n. */
export function lineChart(points: readonly ChartPoint[], options: ChartOptions): string {
  if (points.length === 0) throw new Error('lineChart needs at least one point');
  const dim = options.dim ?? ((text: string) => text);
  const values = points.map((p) => p.value);
  // A loop, not Math.min(...values): a spread of a long series overflows the call stack.
  let [min, max] = [values[0]!, values[0]!];
  for (const value of values) [min, max] = [Math.min(min, value), Math.max(max, value)];
  const labelWidth = Math.max(options.format(min).length, options.format(max).length);
  // A row is the label, then one column per plotted value, the first on the axis itself; one column
  // stays free so a terminal never wraps the line.
  const plotColumns = Math.max(MIN_PLOT_COLUMNS, options.width - labelWidth - 1);
  const plotted = resample(values, plotColumns);
  const rows = gridRows(min, max, options.height ?? DEFAULT_HEIGHT);
  const chart = plot(plotted.map(rows.rowOf), {
    height: rows.height,
    offset: 2,
    format: (row: number) => options.format(rows.valueOf(row)).padStart(labelWidth),
    min: rows.bottom,
    max: rows.top,
    ...(options.color && { colors: [cyan] }),
  })
    .split('\n')
    .map((line) => line.trimEnd());

  const label = options.label ?? ((period: string) => period);
  const first = label(points[0]!.period);
  const last = label(points.at(-1)!.period);
  const low = label(points[values.indexOf(min)]!.period);
  const high = label(points[values.indexOf(max)]!.period);
  const indent = ' '.repeat(labelWidth);
  const axis = indent + '└' + '─'.repeat(plotted.length - 1);
  const gap = plotted.length - first.length - last.length;
  const ends = first === last ? first : first + ' '.repeat(Math.max(1, gap)) + last;
  const highest = `max ${options.format(max)} (${high})`;
  const lowest = `min ${options.format(min)} (${low})`;
  const oneLine = `${highest}  ·  ${lowest}`;
  const extremes = indent.length + oneLine.length <= options.width ? [oneLine] : [highest, lowest];
  return [...chart, dim(axis), indent + dim(ends), ...extremes.map((line) => indent + line)].join(
    '\n',
  );
}

/**
 * asciichart marks the row of the value 0 as an axis crossing: the rows are counted from 1, so none
 * is.
 */
const BOTTOM_ROW = 1;

/**
 * The values as rows of the grid, which is what asciichart is given. Given values, it puts one
 * round(value·ratio) − round(min·ratio) rows up: two roundings, which can draw a value one row off
 * the grid line labelled with it (a 58,400 plateau on the 64,553.86 line, not the 57,742.86 one).
 * In rows, with a ratio of 1 and a whole bottom row, it rounds once: every point sits on the row
 * whose label is nearest to it. Values a hair outside the range (interpolation) are kept on the
 * grid: a flat line's range of a few ulps makes asciichart count rows it never reaches.
 */
function gridRows(min: number, max: number, height: number) {
  const range = max - min;
  const rowsUp = range === 0 ? 0 : height;
  return {
    height: rowsUp,
    bottom: BOTTOM_ROW,
    top: BOTTOM_ROW + rowsUp,
    rowOf: (value: number) =>
      BOTTOM_ROW +
      (range === 0 ? 0 : Math.min(height, Math.max(0, ((value - min) / range) * height))),
    valueOf: (row: number) => (range === 0 ? min : min + ((row - BOTTOM_ROW) / height) * range),
  };
}

/** The values stretched or squeezed to `count` columns by linear interpolation, ends kept. */
export function resample(values: readonly number[], count: number): number[] {
  if (values.length === 1) return Array.from({ length: count }, () => values[0]!);
  return Array.from({ length: count }, (_, j) => {
    const position = (j * (values.length - 1)) / (count - 1);
    const below = Math.floor(position);
    const above = Math.min(below + 1, values.length - 1);
    const weight = position - below;
    return values[below]! * (1 - weight) + values[above]! * weight;
  });
}
