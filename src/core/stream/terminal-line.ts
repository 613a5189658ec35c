// Who draws on the last line of a terminal: a command's own spinner (Context.spinner) or progress
// bar (progress.ts) claims it while it shows. The spinner of a slow request (slow-requests.ts)
// shows only while nobody holds the line, so a person never sees two at once. A terminal may tell
// 0 columns: a spinner must still count the one line it draws on.

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
 * The stream as a spinner (ora) is to see it. ora works out how many lines its text took from the
 * stream's `columns`, to move up and clear them: a terminal of 0 columns made that infinite, and
 * ora wrote cursor-up codes without end. It is told the width known, or else no bound (each line of
 * text then counts once).
 */
export function spinnerStream(stream: NodeJS.WritableStream, columns: number | undefined): NodeJS.WritableStream {
  const width = columns ?? Number.POSITIVE_INFINITY;
  return new Proxy(stream, { get: (target, name) => (name === 'columns' ? width : Reflect.get(target, name, target)) });
}
