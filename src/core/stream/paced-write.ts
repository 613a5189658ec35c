// Writes the output of a whole reply (a table, CSV, NDJSON), made a piece at a time, to stdout.
// Making the text of a big reply is one long loop, and Node hears a signal (Ctrl-C, SIGTERM) only
// when a loop gives way to the event loop: this one gives way every few milliseconds, and stops
// with InterruptedError once the run is asked to stop. Pieces are gathered into writes of a useful
// size, and a full pipe is waited for (OutputSink).
import { InterruptedError } from '../errors.js';
import type { OutputSink } from './sink.js';

/** How long the loop runs before it lets waiting events (a signal, a closed pipe) in. */
const RUN_MS = 50;
/** Text gathered before it is written. */
const WRITE_CHARS = 64 * 1024;

/**
 * Writes the pieces in order. An empty piece is written as nothing: a generator yields one to
 * give way in the middle of a long computation. Stops with InterruptedError when `signal` is
 * aborted, at the next piece.
 */
export async function writePieces(
  pieces: Iterable<string>,
  sink: OutputSink,
  signal: AbortSignal,
): Promise<void> {
  let gathered: string[] = [];
  let size = 0;
  let ranSince = performance.now();
  for (const piece of pieces) {
    if (signal.aborted) throw new InterruptedError();
    gathered.push(piece);
    size += piece.length;
    if (size >= WRITE_CHARS) {
      await sink.write(gathered.join(''));
      gathered = [];
      size = 0;
    }
    if (performance.now() - ranSince >= RUN_MS) {
      await letEventsIn();
      ranSince = performance.now();
    }
  }
  if (signal.aborted) throw new InterruptedError();
  await sink.write(gathered.join(''));
}

/**
 * Lets waiting events in (a signal, a closed pipe) between two long steps of making an output
 * (building a table's view, then writing it); stops with InterruptedError if the run was asked to
 * stop.
 */
export async function giveWay(signal: AbortSignal): Promise<void> {
  await letEventsIn();
  if (signal.aborted) throw new InterruptedError();
}

/**
 * Waits until the event loop has looked for waiting events once. Two turns: code run from an I/O
 * callback (a reply just read) gets a first turn back in the same round of the loop, before the
 * loop looks again, so a signal that came meanwhile would still wait.
 */
async function letEventsIn(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
}
