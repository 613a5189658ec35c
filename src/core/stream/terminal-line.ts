// Who draws on the last line of a terminal, and how it fits there: a command's own spinner
// (Context.spinner) or progress bar (progress.ts) claims it while it shows. The spinner of a slow
// request (app/spinners.ts) shows only while nobody holds the line, so a person never sees two at
// once. What is drawn there is redrawn in place, so it must stay one line, whatever width the
// terminal tells (0 columns included): a line of fields (a count, a rate, the time left) leaves
// fields out whole until it fits; only a text too wide on its own is cut.
import { FALLBACK_COLUMNS } from '../io.js';
import { cutToWidth, lineWidth } from '../output/fit.js';
import { oneLine } from '../output/format.js';

/**
 * What a spinner shows: a text, or fields of it parted by spaces, with the order in which they are
 * left out when the line is short (by default the last first; the first is always kept).
 */
export type LineText =
  string | { readonly fields: readonly string[]; readonly leaveOut?: readonly number[] };

/** What draws on the line: a command's spinner (Context.spinner) or a slow request's. */
export interface Spinner {
  update(text: LineText): void;
  stop(): void;
}

const claims = new WeakMap<object, number>();

/**
 * Claims the line of this stream; the function returned gives it back (once, however often called).
 */
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
 * Text for the line, made one line, fitted to the terminal's `columns` less the `reserved` columns
 * drawn before it (a spinner's frame): fields left out whole (fieldsToFit), and what is still too
 * wide cut with an ellipsis. The last column stays empty, as a terminal may move to the next line
 * once it is written. Width unknown: FALLBACK_COLUMNS.
 */
export function fitToLine(text: LineText, columns: number | undefined, reserved = 0): string {
  const room = Math.max(1, (columns ?? FALLBACK_COLUMNS) - 1 - reserved);
  const line =
    typeof text === 'string'
      ? text
      : fieldsToFit(
          text.fields.map(oneLine),
          room,
          text.leaveOut ??
            text.fields
              .map((_, i) => i)
              .slice(1)
              .reverse(),
          ' ',
        );
  return cutToWidth(oneLine(line), room);
}

/**
 * The fields joined by `separator` in at most `room` columns: fields are left out whole, in the
 * order `leaveOut` names them (by index), until the rest fits; none is ever cut here. What is
 * left when every field named is out may still be too wide.
 */
export function fieldsToFit(
  fields: readonly string[],
  room: number,
  leaveOut: readonly number[],
  separator: string,
): string {
  const out = new Set<number>();
  const joined = () => fields.filter((_, i) => !out.has(i)).join(separator);
  for (const index of leaveOut) {
    if (lineWidth(joined()) <= room) break;
    out.add(index);
  }
  return joined();
}

/**
 * The stream as a spinner (ora) is to see it. ora works out how many lines its text takes from the
 * stream's `columns`, to move up and clear them: a terminal of 0 columns makes that infinite, and
 * ora writes cursor-up codes without end. It is told the width known, or else no bound (each line
 * of text then counts once: svc cuts what it draws to fit a line).
 */
export function spinnerStream(
  stream: NodeJS.WritableStream,
  columns: number | undefined,
): NodeJS.WritableStream {
  const width = columns ?? Number.POSITIVE_INFINITY;
  return new Proxy(stream, {
    get: (target, name) =>
      name === 'columns' ? width : (Reflect.get(target, name, target) as unknown),
  });
}
