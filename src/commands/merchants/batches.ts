// The distinct lookups cut into calls of at most 1000, in order: from a set read whole, or from
// one that still grows while its file is read (a call starts as soon as its 1000 are there).
import type { Lookup, LookupSet } from './lookup-set.js';

/** The service takes at most this many lookups in one call (one billing unit). */
export const LOOKUPS_PER_CALL = 1000;

export interface Batch {
  index: number;
  lookups: Lookup[];
}

/** Batches of a set read whole, made one at a time as they are asked for. */
export function* batchesOf(lookups: LookupSet, size = LOOKUPS_PER_CALL): Generator<Batch> {
  for (let index = 0, from = 0; from < lookups.size; index++, from += size) {
    yield { index, lookups: lookups.slice(from, from + size) };
  }
}

/**
 * Batches of a set that `reading` is still filling. `grew()` must be called whenever the set has
 * grown; a batch is handed out when it is full or the reading has ended. A reading that fails
 * makes the next batch asked for fail with its error.
 */
export class BatchesWhileReading implements AsyncIterableIterator<Batch> {
  private ended = false;
  private failure: { error: unknown } | undefined;
  private wakeUp?: () => void;
  private index = 0;
  private from = 0;

  constructor(
    private readonly lookups: LookupSet,
    reading: Promise<void>,
    private readonly size = LOOKUPS_PER_CALL,
  ) {
    reading.then(
      () => this.end(),
      (error: unknown) => this.end({ error }),
    );
  }

  grew(): void {
    const wake = this.wakeUp;
    this.wakeUp = undefined;
    wake?.();
  }

  async next(): Promise<IteratorResult<Batch, undefined>> {
    for (;;) {
      const ready = this.lookups.size - this.from;
      if (this.failure) throw this.failure.error;
      if (ready >= this.size || (this.ended && ready > 0)) {
        const batch = { index: this.index++, lookups: this.lookups.slice(this.from, this.from + this.size) };
        this.from += batch.lookups.length;
        return { done: false, value: batch };
      }
      if (this.ended) return { done: true, value: undefined };
      // Checked and waited for in one go: a growth cannot slip in between.
      await new Promise<void>((resolve) => (this.wakeUp = resolve));
    }
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Batch> {
    return this;
  }

  private end(failure?: { error: unknown }): void {
    this.ended = true;
    this.failure = failure;
    this.grew();
  }
}
