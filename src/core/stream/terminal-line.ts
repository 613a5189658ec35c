// Who draws on the last line of a terminal: a command's own spinner (Context.spinner) or progress
// bar (progress.ts) claims it while it shows. The spinner of a slow request (slow-requests.ts)
// shows only while nobody holds the line, so a person never sees two at once.

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
