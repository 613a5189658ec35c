// A one-line progress bar on stderr, for a person at a terminal only: items and calls done, rate
// and time left, those the line has no room for left out whole. Redrawn in place with \r at most
// a few times a second.
import { FALLBACK_COLUMNS } from '../io.js';
import { lineWidth } from '../output/fit.js';
import { formatCount } from '../output/format.js';
import { claimLine, fieldsToFit, fitToLine } from './terminal-line.js';

export interface ProgressBar {
  /** Counts one more finished call of `items` items. */
  advance: (items: number) => void;
  /** Takes the bar off the line (before other text is written to the same terminal). */
  clear: () => void;
  /** Draws it again after a clear(). */
  redraw: () => void;
  /**
   * Takes the bar off the line until output has paused for a moment: for output that another
   * program may print on this terminal (stdout into a pipe, `| head`), which must never land on
   * the bar's line, where no clear() could reach it any more.
   */
  holdOff: () => void;
  /** Removes the bar for good. */
  stop: () => void;
}

const REDRAW_MS = 100;
/** How long output must pause before a bar held off comes back. */
const HOLD_MS = 500;

/** What a run does: how many items in how many calls, and what an item is called (`lookups`). */
export interface Totals {
  items: number;
  calls: number;
  noun: string;
}

/**
 * The bar on `stream`, a terminal of `columns` (stderr's width: it may not be stdout's, whose
 * output may go to a file); a terminal that tells no width gets lines of FALLBACK_COLUMNS.
 */
export function progressBar(
  stream: NodeJS.WritableStream,
  columns: number | undefined,
  totals: Totals,
  now = () => performance.now(),
): ProgressBar {
  const width = columns ?? FALLBACK_COLUMNS;
  const started = now();
  let items = 0;
  let calls = 0;
  let lastDrawn = -Infinity;
  let shown = false;
  let stopped = false;
  let held: ReturnType<typeof setTimeout> | undefined;

  const draw = () => {
    lastDrawn = now();
    stream.write(
      '\r' +
        progressLine({ items, calls }, totals, (lastDrawn - started) / 1000, width) +
        '\u001b[K',
    );
    shown = true;
  };
  const clear = () => {
    if (shown) stream.write('\r\u001b[K');
    shown = false;
  };
  // svc may end before the run can stop the bar (a second Ctrl-C, a stop past its grace period):
  // a terminal is never left with a bar on it. A terminal's writes are synchronous, so this one
  // is done before the process ends.
  process.once('exit', clear);
  // The line is the bar's: a slow request shows no spinner of its own on it meanwhile.
  const release = claimLine(stream);
  draw();
  return {
    advance(done) {
      items += done;
      calls++;
      if (!stopped && !held && now() - lastDrawn >= REDRAW_MS) draw();
    },
    clear,
    redraw() {
      if (!stopped && !held) draw();
    },
    holdOff() {
      clear();
      clearTimeout(held);
      held = setTimeout(() => {
        held = undefined;
        if (!stopped) draw();
      }, HOLD_MS);
      held.unref();
    },
    stop() {
      stopped = true;
      clearTimeout(held);
      held = undefined;
      clear();
      process.removeListener('exit', clear);
      release();
    },
  };
}

/**
 * `[█████·····] 12,000/25,000 lookups · 12/25 calls · 4,100/s · ETA 3s`, at most `width - 1`
 * columns wide: the bar narrows (to 10), then the fields the line has no room for are left out
 * whole, the calls first, then the rate, the time left and the bar; no field is ever cut.
 */
export function progressLine(
  done: { items: number; calls: number },
  totals: Totals,
  seconds: number,
  width: number,
): string {
  const share = totals.items === 0 ? 1 : done.items / totals.items;
  const rate = seconds > 0 ? done.items / seconds : 0;
  const left = rate > 0 ? Math.ceil((totals.items - done.items) / rate) : undefined;
  const room = Math.max(1, width - 1);
  const fields = [
    `${formatCount(done.items)}/${formatCount(totals.items)} ${totals.noun}`,
    `${formatCount(done.calls)}/${formatCount(totals.calls)} calls`,
    rate > 0 ? `${formatCount(Math.round(rate))}/s` : '…/s',
    left === undefined ? 'ETA …' : `ETA ${duration(left)}`,
  ];
  // The bar and a space take 13 columns at the least.
  const facts = fieldsToFit(fields, room - 13, [1, 2, 3], ' · ');
  const barWidth = Math.min(30, room - 3 - lineWidth(facts));
  if (barWidth < 10) return fitToLine(facts, width);
  const filled = Math.round(share * barWidth);
  return `[${'█'.repeat(filled)}${'·'.repeat(barWidth - filled)}] ${facts}`;
}

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60
    ? `${minutes}m${String(seconds % 60).padStart(2, '0')}s`
    : `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
