// The distinct lookups cut into calls of at most 1000, in order: from a set read whole (the
// command line), or from one that a reading of the input fills as the calls take from it (a call
// starts as soon as its 1000 are there). The reading waits while two calls' worth of lookups
// wait: what is held stays the same whatever the size of the input.
import type { Lookup, LookupSet } from './lookup-set.js';

/** The service takes at most this many lookups in one call (one billing unit). */
export const LOOKUPS_PER_CALL = 1000;

export interface Batch {
  index: number;
  /** The place of its first lookup among the distinct lookups of the run, from 0. */
  first: number;
  lookups: Lookup[];
}

/** Batches of the lookups a set holds, taken from it one at a time as they are asked for. */
export function* batchesOf(lookups: LookupSet, size = LOOKUPS_PER_CALL): Generator<Batch> {
  for (let index = 0, first = 0; lookups.waiting > 0; index++) {
    const batch = { index, first, lookups: lookups.take(size) };
    first += batch.lookups.length;
    yield batch;
  }
}

/**
 * Batches of a set that `reading` is still filling. `grew()` must be called whenever the set has
 * grown; a batch is handed out when it is full or the reading has ended. A reading that fails
 * makes the next batch asked for fail with its error. The reading waits on what `grew()` returns
 * after each piece of input: a wait while `ahead` lookups or more wait for a call.
 */
export class BatchesWhileReading implements AsyncIterableIterator<Batch> {
  private ended = false;
  private failure: { error: unknown } | undefined;
  private wakeUp?: () => void;
  private wakeReader?: () => void;
  /**
   * Nothing more will be taken: the reading goes on without waiting (to its end, or its failure).
   */
  private released = false;
  private index = 0;
  private first = 0;

  constructor(
    private readonly lookups: LookupSet,
    reading: Promise<void>,
    private readonly size = LOOKUPS_PER_CALL,
    private readonly ahead = 2 * size,
  ) {
    reading.then(
      () => this.end(),
      (error: unknown) => this.end({ error }),
    );
  }

  /**
   * For the reading, after each piece of input (the set has grown): undefined to read on at once,
   * or a wait until a call has taken lookups.
   */
  grew(): Promise<void> | undefined {
    this.wakeTaker();
    if (this.released || this.lookups.waiting < this.ahead) return undefined;
    return new Promise<void>((resolve) => (this.wakeReader = resolve));
  }

  /**
   * No batch will be asked for any more: a reading waiting for room goes on (and can be stopped).
   */
  release(): void {
    this.released = true;
    this.letReaderOn();
  }

  async next(): Promise<IteratorResult<Batch, undefined>> {
    for (;;) {
      const ready = this.lookups.waiting;
      if (this.failure) throw this.failure.error;
      if (ready >= this.size || (this.ended && ready > 0)) {
        const batch = {
          index: this.index++,
          first: this.first,
          lookups: this.lookups.take(this.size),
        };
        this.first += batch.lookups.length;
        this.letReaderOn();
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

  /** Wakes a call waiting for its batch, to look again. */
  private wakeTaker(): void {
    const wake = this.wakeUp;
    this.wakeUp = undefined;
    wake?.();
  }

  /**
   * Wakes a reading waiting for room, once there is room (a batch takes less than a chunk may
   * bring).
   */
  private letReaderOn(): void {
    if (!this.released && this.lookups.waiting >= this.ahead) return;
    const wake = this.wakeReader;
    this.wakeReader = undefined;
    wake?.();
  }

  private end(failure?: { error: unknown }): void {
    this.ended = true;
    this.failure = failure;
    this.wakeTaker();
  }
}
