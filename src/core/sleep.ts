import { InterruptedError } from './errors.js';

/** Waits, unless Ctrl-C comes first (then InterruptedError). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new InterruptedError());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new InterruptedError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
