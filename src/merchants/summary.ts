// The one line that sums up a run of `svc merchants resolve` for a person: under the table on a
// terminal, else on stderr when that is a terminal (run.ts).
import { formatCount } from '../core/output/format.js';
import { fieldsToFit } from '../core/stream/terminal-line.js';

/** What a run did, whatever --unmatched left out of the output. */
export interface Tally {
  /** Distinct lookups. */
  lookups: number;
  /** Of them, those the service answered for. */
  answered: number;
  /** Of those, the ones that matched a merchant. */
  matched: number;
  /** Lookups given again after their first appearance. */
  duplicates: number;
  /** Calls that were answered. */
  calls: number;
  /** Seconds the calls took, from the first to the end of the last. */
  seconds: number;
}

/**
 * `2,500 lookups, 2,100 matched, 400 not found, 300 duplicates, 3 calls in 1.2s`, in `width`
 * columns where it can be: the duplicates, then the lookups not found, are left out for room.
 * For a run that stopped, what was answered before it did (the rest, and how many there are, is
 * said on stderr with the file that lists them: the input may not have been read to its end yet).
 */
export function summaryLine(tally: Tally, complete: boolean, width: number): string {
  const notFound = `${formatCount(tally.answered - tally.matched)} not found`;
  if (!complete)
    return `${counted(tally.answered, 'lookup')} answered before the run stopped: ${formatCount(tally.matched)} matched, ${notFound}`;
  const fields = [
    counted(tally.lookups, 'lookup'),
    `${formatCount(tally.matched)} matched`,
    notFound,
    counted(tally.duplicates, 'duplicate'),
    `${counted(tally.calls, 'call')} in ${timeTaken(tally.seconds)}`,
  ];
  return fieldsToFit(fields, width, [3, 2], ', ');
}

function counted(count: number, noun: string): string {
  return `${formatCount(count)} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * `0.4s` (tenths, rounded up: a run is never said to take none), `12s`, `3m05s`, as the progress
 * bar's ETA.
 */
function timeTaken(seconds: number): string {
  const tenths = Math.ceil(seconds * 10) / 10;
  if (tenths < 10) return `${tenths.toFixed(1)}s`;
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole}s`;
  const minutes = Math.floor(whole / 60);
  return minutes < 60
    ? `${minutes}m${String(whole % 60).padStart(2, '0')}s`
    : `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
