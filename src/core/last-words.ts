// What a command has to say when svc is ended before the command could finish stopping (a second
// Ctrl-C, or the grace period after the first one over): the entry (cli.ts) says it just before it
// exits, so that a run cut short still tells what it did and where its work is kept.
let words: (() => void) | undefined;

/**
 * Sets what to say if svc is ended now; returns what takes it back, once the command has said it
 * itself.
 */
export function sayIfEnded(say: () => void): () => void {
  words = say;
  return () => {
    if (words === say) words = undefined;
  };
}

/** Says the words set, once; a failure to say them never stops svc from ending. */
export function sayLastWords(): void {
  const say = words;
  words = undefined;
  try {
    say?.();
  } catch {
    // Ending anyway: there is nothing more to do about it.
  }
}
