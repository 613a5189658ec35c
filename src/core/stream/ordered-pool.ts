// Runs numbered jobs a few at a time and hands their results on strictly in job order, as soon as
// a result is next in line. The first failure (or Ctrl-C) stops new jobs from starting; the jobs
// already running are let finish, every result there is gets handed on, and the jobs that failed
// or never started come back for the caller to keep.

export interface PoolOptions<J, R> {
  /**
   * The jobs, in order; taken one at a time as workers become free. An async source may make
   * the pool wait for its next job; one that fails counts as the first failure if none came before.
   */
  jobs: Iterator<J> | AsyncIterator<J>;
  run: (job: J) => Promise<R>;
  /** Receives each result in job order; the next result waits until this is done (backpressure). */
  deliver: (job: J, result: R) => Promise<void>;
  /** Jobs running at once. */
  concurrency: number;
  /**
   * How far past the next result to hand on jobs may start: bounds the results held in memory
   * while an early job is slow.
   */
  window: number;
  /** Aborted on Ctrl-C: no job starts after it. */
  signal: AbortSignal;
  /** Called when a job has finished, successfully or not. */
  onSettled?: (job: J, ok: boolean) => void;
}

export interface PoolOutcome<J> {
  /** The first error, if any job failed. */
  failure?: unknown;
  /** The jobs that failed, in job order. */
  failed: J[];
  /** The jobs that never started (what is left of `jobs`), all after the failed ones. */
  notStarted: Iterator<J> | AsyncIterator<J>;
  /**
   * The job source itself failed (its error is `failure` if it came first): `notStarted` is cut
   * short.
   */
  sourceFailed: boolean;
}

type Settled<J, R> = { job: J; ok: true; value: R } | { job: J; ok: false };

export async function runInOrder<J, R>(options: PoolOptions<J, R>): Promise<PoolOutcome<J>> {
  const { jobs, concurrency, window, signal } = options;
  const settled = new Map<number, Settled<J, R>>();
  const running = new Set<Promise<void>>();
  const failedJobs: J[] = [];
  let failure: unknown;
  let failed = false;
  let started = 0;
  let nextToDeliver = 0;
  let exhausted = false;
  let sourceFailed = false;

  const start = (job: J, position: number) => {
    const task: Promise<void> = options
      .run(job)
      .then(
        (value) => {
          settled.set(position, { job, ok: true, value });
          options.onSettled?.(job, true);
        },
        (error: unknown) => {
          if (!failed) {
            failed = true;
            failure = error;
          }
          settled.set(position, { job, ok: false });
          options.onSettled?.(job, false);
        },
      )
      .finally(() => running.delete(task));
    running.add(task);
  };

  for (;;) {
    while (
      !failed &&
      !signal.aborted &&
      !exhausted &&
      running.size < concurrency &&
      started < nextToDeliver + window
    ) {
      let next: IteratorResult<J>;
      try {
        next = await jobs.next();
      } catch (error) {
        sourceFailed = exhausted = failed = true;
        failure = error;
        break;
      }
      if (next.done) exhausted = true;
      else start(next.value, started++);
    }
    for (let ready = settled.get(nextToDeliver); ready; ready = settled.get(nextToDeliver)) {
      settled.delete(nextToDeliver++);
      if (ready.ok) await options.deliver(ready.job, ready.value);
      else failedJobs.push(ready.job);
    }
    if (running.size === 0) {
      // Nothing runs and nothing waits to be handed on: done, unless more jobs may start.
      if (failed || signal.aborted || exhausted) break;
      continue;
    }
    await Promise.race(running);
  }
  return { failure, failed: failedJobs, notStarted: jobs, sourceFailed };
}
