// Running the calls: results handed on in order whatever order the calls end in, at most N at a
// time, nothing new started after a failure or Ctrl-C; and each reply checked and put in order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { MerchantResult } from '../../src/api/merchants.js';
import { planOf } from '../../src/commands/merchants/resolve.js';
import { UnexpectedReplyError } from '../../src/core/errors.js';
import { ReplyHeaders } from '../../src/core/reply-headers.js';
import { runInOrder } from '../../src/core/stream/ordered-pool.js';
import { batchesOf, BatchesWhileReading } from '../../src/merchants/batches.js';
import type { Lookup } from '../../src/merchants/lookup-set.js';
import { LookupSet } from '../../src/merchants/lookup-set.js';
import { checkedReply, inLookupOrder } from '../../src/merchants/reply.js';

/** A job that ends when the test says so. */
interface Gate {
  id: number;
  open: () => void;
  fail: (error: Error) => void;
  promise: Promise<number>;
}

function gates(count: number): Gate[] {
  return Array.from({ length: count }, (_, id) => {
    let open!: () => void;
    let fail!: (error: Error) => void;
    const promise = new Promise<number>((resolve, reject) => {
      open = () => resolve(id);
      fail = reject;
    });
    return { id, open, fail, promise };
  });
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

async function drain<T>(iterator: Iterator<T> | AsyncIterator<T>): Promise<T[]> {
  const all: T[] = [];
  for (let next = await iterator.next(); !next.done; next = await iterator.next())
    all.push(next.value);
  return all;
}

describe('runInOrder', () => {
  it('hands results on in job order whatever order the jobs end in, never more than N at once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 6 }),
        fc.infiniteStream(fc.nat()),
        async (count, concurrency, window, picks) => {
          const jobs = gates(count);
          const started: number[] = [];
          const delivered: number[] = [];
          let running = 0;
          let mostRunning = 0;
          const run = runInOrder<Gate, number>({
            jobs: jobs[Symbol.iterator](),
            concurrency,
            window,
            signal: new AbortController().signal,
            run: async (job) => {
              started.push(job.id);
              mostRunning = Math.max(mostRunning, ++running);
              try {
                return await job.promise;
              } finally {
                running--;
              }
            },
            deliver: async (_job, value) => {
              delivered.push(value);
            },
          });
          // End the running jobs in a random order until all are done.
          const pick = picks[Symbol.iterator]();
          for (let done = 0; done < count; done++) {
            await tick();
            const waiting = jobs.filter((j) => started.includes(j.id) && !delivered.includes(j.id));
            const open = waiting.filter((j) => !(j as Gate & { opened?: boolean }).opened);
            const job = open[pick.next().value % open.length]!;
            (job as Gate & { opened?: boolean }).opened = true;
            job.open();
            // A job never starts further ahead of the next one to hand on than the window allows.
            expect(Math.max(...started) - delivered.length).toBeLessThan(window);
          }
          const outcome = await run;
          expect(delivered).toEqual(jobs.map((j) => j.id));
          expect(mostRunning).toBeLessThanOrEqual(concurrency);
          expect(outcome.failure).toBeUndefined();
          expect(outcome.failed).toEqual([]);
          expect(await drain(outcome.notStarted)).toEqual([]);
        },
      ),
      { numRuns: 80 },
    );
  });

  it('after a failure starts nothing new, lets running jobs finish and hands on every result', async () => {
    const jobs = gates(10);
    const started: number[] = [];
    const delivered: number[] = [];
    const run = runInOrder<Gate, number>({
      jobs: jobs[Symbol.iterator](),
      concurrency: 3,
      window: 3,
      signal: new AbortController().signal,
      run: (job) => {
        started.push(job.id);
        return job.promise;
      },
      deliver: async (_job, value) => {
        delivered.push(value);
      },
    });
    await tick();
    expect(started).toEqual([0, 1, 2]);
    jobs[1]!.fail(new Error('503'));
    await tick();
    jobs[2]!.open();
    jobs[0]!.open();
    const outcome = await run;
    expect(started).toEqual([0, 1, 2]);
    expect(delivered).toEqual([0, 2]);
    expect((outcome.failure as Error).message).toBe('503');
    expect(outcome.failed.map((j) => j.id)).toEqual([1]);
    expect((await drain(outcome.notStarted)).map((j) => j.id)).toEqual([3, 4, 5, 6, 7, 8, 9]);
  });

  it('keeps the first failure when several calls fail', async () => {
    const jobs = gates(3);
    const run = runInOrder<Gate, number>({
      jobs: jobs[Symbol.iterator](),
      concurrency: 3,
      window: 3,
      signal: new AbortController().signal,
      run: (job) => job.promise,
      deliver: async () => {},
    });
    await tick();
    jobs[2]!.fail(new Error('first'));
    await tick();
    jobs[0]!.fail(new Error('second'));
    jobs[1]!.open();
    const outcome = await run;
    expect((outcome.failure as Error).message).toBe('first');
    expect(outcome.failed.map((j) => j.id)).toEqual([0, 2]);
  });

  it('starts nothing once Ctrl-C was pressed', async () => {
    const interrupt = new AbortController();
    const jobs = gates(5);
    const started: number[] = [];
    const run = runInOrder<Gate, number>({
      jobs: jobs[Symbol.iterator](),
      concurrency: 2,
      window: 2,
      signal: interrupt.signal,
      run: (job) => {
        started.push(job.id);
        return job.promise;
      },
      deliver: async () => {},
    });
    await tick();
    interrupt.abort();
    jobs[0]!.open();
    jobs[1]!.open();
    const outcome = await run;
    expect(started).toEqual([0, 1]);
    expect((await drain(outcome.notStarted)).map((j) => j.id)).toEqual([2, 3, 4]);
  });

  it('takes jobs from an async source, waiting for it; a source that fails stops the run', async () => {
    const delivered: number[] = [];
    async function* source(): AsyncGenerator<number> {
      yield 0;
      await tick();
      yield 1;
      throw new Error('the input could not be read');
    }
    const outcome = await runInOrder<number, number>({
      jobs: source(),
      concurrency: 4,
      window: 4,
      signal: new AbortController().signal,
      run: async (job) => job,
      deliver: async (_job, value) => {
        delivered.push(value);
      },
    });
    expect(delivered).toEqual([0, 1]);
    expect(outcome.sourceFailed).toBe(true);
    expect((outcome.failure as Error).message).toBe('the input could not be read');
  });
});

describe('BatchesWhileReading', () => {
  it('hands out a batch as soon as it is full, and the last, short one when the reading ends', async () => {
    const set = new LookupSet();
    let finish!: () => void;
    const batches = new BatchesWhileReading(
      set,
      new Promise<void>((resolve) => (finish = resolve)),
      3,
    );
    const first = batches.next();
    let firstDone = false;
    void first.then(() => (firstDone = true));
    for (const value of ['a', 'b']) set.add({ type: 'name', value });
    void batches.grew();
    await tick();
    expect(firstDone).toBe(false);
    for (const value of ['c', 'd']) set.add({ type: 'name', value });
    void batches.grew();
    expect((await first).value).toEqual({
      index: 0,
      first: 0,
      lookups: ['a', 'b', 'c'].map((value) => ({ type: 'name', value })),
    });
    const second = batches.next();
    finish();
    expect((await second).value).toEqual({
      index: 1,
      first: 3,
      lookups: [{ type: 'name', value: 'd' }],
    });
    expect((await batches.next()).done).toBe(true);
  });

  it('fails the next batch asked for when the reading fails', async () => {
    const set = new LookupSet();
    set.add({ type: 'name', value: 'a' });
    const batches = new BatchesWhileReading(set, Promise.reject(new Error('EIO')), 3);
    await expect(batches.next()).rejects.toThrow('EIO');
  });
});

describe('batches and the plan', () => {
  it('cuts 2,500 distinct lookups into calls of 1000, 1000 and 500; duplicates are not counted twice', () => {
    const set = new LookupSet();
    for (let i = 0; i < 2500; i++) set.add({ type: 'terminal', value: String(1e15 + i) });
    for (let i = 0; i < 100; i++) set.add({ type: 'terminal', value: String(1e15 + i) });
    set.add({ type: 'name', value: 'Cafe' });
    expect([...batchesOf(set)].map((b) => [b.index, b.lookups.length])).toEqual([
      [0, 1000],
      [1, 1000],
      [2, 501],
    ]);
    expect(planOf(set, 4)).toEqual({
      lookups: 2501,
      terminals: 2500,
      names: 1,
      duplicates: 100,
      calls: 3,
      units: 3,
      concurrency: 3,
    });
  });
});

describe('a reply', () => {
  const lookups: Lookup[] = [
    { type: 'terminal', value: '1111222233334444' },
    { type: 'name', value: 'Cafe' },
    { type: 'name', value: '1111222233334444' },
  ];
  const result = (input: string, type: string, matched = false): MerchantResult => ({
    input,
    type,
    matched,
  });

  it('is put in the order of its lookups, matched by input and, where needed, type', () => {
    const results = [
      result('Cafe', 'name', true),
      result('1111222233334444', 'name'),
      result('1111222233334444', 'terminal', true),
    ];
    expect(inLookupOrder(lookups, results, 'POST x')).toEqual([results[2], results[0], results[1]]);
  });

  it('without a result for a lookup is an unexpected reply (exit 10)', () => {
    expect(() => inLookupOrder(lookups, [result('Cafe', 'name')], 'POST x')).toThrow(
      UnexpectedReplyError,
    );
    expect(() => inLookupOrder(lookups, [result('Cafe', 'name')], 'POST x')).toThrow(
      /no result for the terminal "1111222233334444"/,
    );
  });

  it('requires only what merging walks: data.results, each with an input text', () => {
    const text = fc.oneof(fc.string(), fc.constant(null), fc.constant(undefined), fc.integer());
    const resultLike = fc.record(
      {
        input: fc.oneof(fc.string(), fc.integer()),
        type: fc.oneof(fc.constantFrom('terminal', 'name'), fc.boolean()),
        matched: fc.oneof(fc.boolean(), fc.string()),
        merchant: text,
        mcc: text,
        city: text,
        extra: fc.anything(),
      },
      { requiredKeys: [] },
    );
    const replyLike = fc.record(
      {
        data: fc.oneof(
          fc.record(
            {
              count: fc.oneof(fc.integer(), fc.double()),
              matched: fc.integer(),
              results: fc.oneof(fc.array(resultLike, { maxLength: 4 }), fc.anything()),
            },
            { requiredKeys: [] },
          ),
          fc.anything(),
        ),
        meta: fc.oneof(fc.record({ source: fc.oneof(fc.string(), fc.integer()) }), fc.anything()),
      },
      { requiredKeys: [] },
    );
    const walkable = (body: unknown): boolean => {
      const data = (body as { data?: unknown } | null)?.data;
      const results =
        data !== null && typeof data === 'object' && !Array.isArray(data)
          ? (data as { results?: unknown }).results
          : undefined;
      return (
        body !== null &&
        typeof body === 'object' &&
        !Array.isArray(body) &&
        Array.isArray(results) &&
        results.every(
          (r) =>
            r !== null &&
            typeof r === 'object' &&
            !Array.isArray(r) &&
            typeof (r as { input?: unknown }).input === 'string',
        )
      );
    };
    fc.assert(
      fc.property(fc.oneof(replyLike, fc.anything()), (body) => {
        const reply = { status: 200, headers: new ReplyHeaders(), raw: '', body };
        if (walkable(body)) expect(checkedReply(reply, 'POST x')).toBe(body);
        else expect(() => checkedReply(reply, 'POST x')).toThrow(UnexpectedReplyError);
      }),
      { numRuns: 2000 },
    );
  });
});
