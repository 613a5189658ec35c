// Who draws on the last line of a terminal, and how it fits there: a command's own spinner
// (Context.spinner) or progress bar (progress.ts) claims it while it shows. The spinner of a slow
// request (slow-requests.ts) shows only while nobody holds the line, so a person never sees two at
// once. What is drawn there is redrawn in place, so it must stay one line: it is cut to the
// terminal's width, never wrapped, whatever width the terminal tells (0 columns included).
import { FALLBACK_COLUMNS } from '../io.js';
import { oneLine } from '../output/format.js';
import { cutToWidth } from '../output/fit.js';

/** What draws on the line: a command's spinner (Context.spinner) or a slow request's. */
export interface Spinner {
  update(text: string): void;
  stop(): void;
}

const claims = new WeakMap<object, number>();

/** Claims the line of this stream; the function returned gives it back (once, however often called). */
export function claimLine(stream: object): () => void {
  claims.set(stream, (claims.get(stream) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (claims.get(stream) ?? 1) - 1;
    if (left > 0) claims.set(stream, left);
    else claims.delete(stream);
  };
}

/** Whether a spinner or a progress bar holds the line of this stream now. */
export function lineClaimed(stream: object): boolean {
  return (claims.get(stream) ?? 0) > 0;
}

/**
 * Text for the line, made one line and cut (with an ellipsis) to the terminal's `columns`, less
 * the `reserved` columns drawn before it (a spinner's frame); the last column stays empty, as a
 * terminal may move to the next line once it is written. Width unknown: FALLBACK_COLUMNS.
 */
export function fitToLine(text: string, columns: number | undefined, reserved = 0): string {
  return cutToWidth(oneLine(text), Math.max(1, (columns ?? FALLBACK_COLUMNS) - 1 - reserved));
}

/**
 * The stream as a spinner (ora) is to see it. ora works out how many lines its text took from the
 * stream's `columns`, to move up and clear them: a terminal of 0 columns made that infinite, and
 * ora wrote cursor-up codes without end. It is told the width known, or else no bound (each line of
 * text then counts once: svc cuts what it draws to fit a line).
 */
export function spinnerStream(stream: NodeJS.WritableStream, columns: number | undefined): NodeJS.WritableStream {
  const width = columns ?? Number.POSITIVE_INFINITY;
  return new Proxy(stream, { get: (target, name) => (name === 'columns' ? width : (Reflect.get(target, name, target) as unknown)) });
}
