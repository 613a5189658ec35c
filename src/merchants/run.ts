// One run of calls: a few at a time, results written in input order as soon as they are next in
// line (with --each-line, kept until the calls are done, then written a record a line of the
// input: each-line.ts). A call that still fails after its retries, or Ctrl-C, stops new calls; the
// results there are get written, the lookups not resolved go to the unresolved file, and the
// failure is thrown for its exit code. With --each-line the results in hand are first kept for
// --resume (kept-results.ts): whatever ends the writing of the records, they are not lost.
import { rmSync } from 'node:fs';
import { basename, dirname } from 'node:path';

import type { ApiClient } from '../api/client.js';
import { ENDPOINTS, target } from '../api/endpoints.js';
import type { MerchantResult } from '../api/merchants.js';
import type { Context } from '../app/context.js';
import { NO_HOME } from '../config/paths.js';
import { InterruptedError } from '../core/errors.js';
import { FALLBACK_COLUMNS } from '../core/io.js';
import { sayIfEnded } from '../core/last-words.js';
import { formatCount, machineTextForTerminal } from '../core/output/format.js';
import { isTableFormat } from '../core/output/formats.js';
import { runInOrder } from '../core/stream/ordered-pool.js';
import { type ProgressBar, progressBar, type Totals } from '../core/stream/progress.js';
import { OutputSink, StdoutClosedError } from '../core/stream/sink.js';
import type { Batch } from './batches.js';
import type { LineSource, ResultStore } from './each-line.js';
import { keepResults, type KeptInput, type KeptResults } from './kept-results.js';
import type { Lookup } from './lookup-set.js';
import { shellWord } from './lookups.js';
import { checkedReply, inLookupOrder } from './reply.js';
import { summaryLine } from './summary.js';
import {
  defaultUnresolvedPath,
  privateTemporaryPath,
  whyNot,
  writeUnresolved,
} from './unresolved.js';
import { createWriter } from './writers.js';

export interface RunOptions {
  batches: Iterator<Batch> | AsyncIterator<Batch>;
  concurrency: number;
  /** Totals known before the run, for the progress bar; absent while the input is still read. */
  totals?: Totals;
  /** How many distinct lookups there are (once the input is read). */
  lookupCount: () => number;
  /** How many lookups were given again after their first appearance. */
  duplicates?: () => number;
  unmatchedOnly: boolean;
  /** Where to list the lookups not resolved, or undefined when they are not to be listed. */
  failedOut?: { path: string; replace: boolean };
  /**
   * --each-line: the results are kept in `store`, then written a record for each line of `lines`.
   */
  eachLine?: EachLine;
}

export interface EachLine {
  store: ResultStore;
  lines: LineSource;
  /** Where a run that stops short keeps its results, and what they are for. */
  /**
   * Where results are kept: undefined when svc has no data folder (no home folder, no
   * SVC_DATA_DIR).
   */
  keep: { folder: string | undefined; input: KeptInput };
  /** The results an earlier run kept, given with --resume: already in `store`. */
  resumed?: KeptResults;
}

/** Runs the calls; resolves when every lookup was resolved, else throws the first failure. */
export async function runResolve(
  ctx: Context,
  client: ApiClient,
  options: RunOptions,
): Promise<void> {
  // --each-line: ended before it could finish stopping (a second Ctrl-C, or the grace period
  // over), svc still keeps the results in hand and says what was written.
  const stop = options.eachLine && new EachLineStop(ctx, options.eachLine);
  const forget = stop && sayIfEnded(() => stop.ended());
  try {
    await resolveAndWrite(ctx, client, options, stop);
  } finally {
    forget?.();
  }
}

async function resolveAndWrite(
  ctx: Context,
  client: ApiClient,
  options: RunOptions,
  stop: EachLineStop | undefined,
): Promise<void> {
  // For a person at a terminal, and only when there is progress to show: more than one call.
  const progress: ProgressBar =
    options.totals && ctx.io.stderrIsTTY && options.totals.calls > 1
      ? progressBar(ctx.io.stderr, ctx.io.stderrColumns, options.totals)
      : { advance() {}, clear() {}, redraw() {}, holdOff() {}, stop() {} };
  // When stdout and stderr share a terminal, the bar steps aside for each piece of output. Into a
  // pipe, the reader may print it on that terminal when it likes (`| head -5`): the bar stays off
  // while output flows, so nothing lands on its line.
  const sharesTerminal = ctx.io.stdoutIsTTY && ctx.io.stderrIsTTY;
  const beforeWrite = sharesTerminal
    ? progress.clear
    : ctx.io.stdoutIsPipe
      ? progress.holdOff
      : undefined;
  const format = ctx.format;
  // Machine formats shown on a terminal still cannot move the cursor or reorder what is shown;
  // secrets are masked first, while an escape sequence that splits one is still whole.
  const transform =
    ctx.io.stdoutIsTTY && !isTableFormat(format)
      ? (text: string) => machineTextForTerminal(format, ctx.secrets.mask(text))
      : undefined;
  const sink = new OutputSink(ctx.io.stdout, {
    beforeWrite,
    afterWrite: sharesTerminal ? progress.redraw : undefined,
    transform,
  });
  const writer = await createWriter({
    format,
    sink,
    terminal: ctx.io.stdoutIsTTY,
    width: ctx.io.columns,
    color: ctx.color,
    mask: (text) => ctx.secrets.mask(text),
    lines: options.eachLine !== undefined,
    columns: ctx.flags.columns,
    headers: ctx.flags.headers,
    formulaGuard: ctx.flags.formulaGuard,
  });
  const eachLine = options.eachLine;
  let meta: unknown = eachLine?.resumed?.meta;
  /**
   * Lookups answered, and of them those that matched a merchant; the calls answered, and since
   * when.
   */
  let resolved = eachLine?.resumed?.tally.lookups ?? 0;
  let matched = eachLine?.resumed?.tally.matched ?? 0;
  let calls = 0;
  const started = ctx.now();

  let outcome;
  try {
    outcome = await runInOrder<Batch, MerchantResult[]>({
      jobs: options.batches,
      concurrency: options.concurrency,
      // Results wait for an earlier slow call at most this far ahead: memory stays bounded.
      window: options.concurrency,
      signal: ctx.signal,
      run: async (batch) => {
        const reply = await resolveBatch(client, batch);
        meta ??= reply.meta;
        if (stop) stop.meta = meta;
        // Kept as each call ends: a failure to keep them is the call's (its lookups are listed).
        await options.eachLine?.store.keep(batch, reply.results);
        return reply.results;
      },
      deliver: (batch, results) => {
        resolved += batch.lookups.length;
        for (const result of results) if (result.matched) matched++;
        if (options.eachLine) return Promise.resolve();
        return writer.write(options.unmatchedOnly ? results.filter((r) => !r.matched) : results);
      },
      onSettled: (batch, ok) => {
        if (!ok) return;
        calls++;
        progress.advance(batch.lookups.length);
      },
    });
  } catch (error) {
    progress.stop();
    // The reader of stdout went away (`| head`): that ends the run quietly.
    if (error instanceof StdoutClosedError) return;
    throw error;
  } finally {
    progress.stop();
  }
  const callsFailure = outcome.failure ?? (ctx.signal.aborted ? new InterruptedError() : undefined);
  // The input held no lookup after all (a file of blank lines, read while calls could start).
  if (callsFailure === undefined && options.lookupCount() === 0) return;
  // A list cut short by an unreadable input would pass for the whole rest: none is written then.
  const listUnresolved =
    callsFailure !== undefined && options.failedOut !== undefined && !outcome.sourceFailed;
  const unresolved = (): AsyncIterable<Lookup> => {
    const failedBatches = outcome.failed;
    const notStarted = outcome.notStarted;
    // Batches that never started are made only now, one at a time, as the file is written.
    return (async function* (): AsyncGenerator<Lookup> {
      for (const batch of failedBatches) yield* batch.lookups;
      for (let next = await notStarted.next(); !next.done; next = await notStarted.next())
        yield* next.value.lookups;
    })();
  };
  let failure: unknown = callsFailure;
  let said: (() => void) | undefined;
  let allWritten = false;
  if (eachLine && stop) {
    // The results of calls that stopped short are kept first, then the list of lookups not
    // resolved: the records take a while to write, and after Ctrl-C svc is ended after a few
    // seconds, or at once by a second one.
    if (callsFailure !== undefined) stop.keep();
    if (listUnresolved)
      stop.said = said = await keepUnresolved(
        ctx,
        unresolved(),
        options.failedOut!,
        options.lookupCount,
        stop.keptAt !== undefined,
      );
    stop.writingTo = sink;
    try {
      // Paid for, the records of the lines resolved are written even after Ctrl-C (within its grace
      // period).
      await eachLine.store.writeLines(eachLine.lines, writer, {
        unmatchedOnly: options.unmatchedOnly,
        written: (line) => sink.mark(line),
      });
      allWritten = true;
      if (callsFailure === undefined) stop.done();
    } catch (error) {
      if (error instanceof StdoutClosedError) return;
      failure ??= error;
      // The input, read again for the lines, changed or failed: the results are not lost for that.
      stop.keep();
    }
    // A Ctrl-C that came as the records were written: they all were, and svc stops as asked.
    if (failure === undefined && ctx.signal.aborted) failure = new InterruptedError();
  }
  const tally = {
    lookups: options.lookupCount(),
    answered: resolved,
    matched,
    duplicates: options.duplicates?.() ?? 0,
    calls,
    seconds: (ctx.now() - started) / 1000,
  };
  try {
    await writer.finish(meta, failure === undefined, tally);
  } catch (error) {
    if (error instanceof StdoutClosedError) return;
    throw error;
  }
  if (failure === undefined) {
    // A person at the terminal is left one line that sums the run up: the table's last line, else
    // this one on stderr (the progress bar is gone, the results went elsewhere).
    if (ctx.io.stderrIsTTY && !(format === 'table' && ctx.io.stdoutIsTTY))
      ctx.err(summaryLine(tally, true, ctx.io.stderrColumns ?? FALLBACK_COLUMNS));
    return;
  }
  if (listUnresolved && !eachLine)
    said = await keepUnresolved(ctx, unresolved(), options.failedOut!, options.lookupCount);
  said?.();
  if (stop && (stop.kept || ctx.signal.aborted)) stop.tell(allWritten);
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- what a call threw, thrown on as it was
  throw failure;
}

/** One call: the batch's terminals and names, and its results put back in the batch's order. */
async function resolveBatch(
  client: ApiClient,
  batch: Batch,
): Promise<{ meta: unknown; results: MerchantResult[] }> {
  const terminals: string[] = [];
  const names: string[] = [];
  for (const lookup of batch.lookups)
    (lookup.type === 'terminal' ? terminals : names).push(lookup.value);
  const json: { terminals?: string[]; names?: string[] } = {};
  if (terminals.length > 0) json.terminals = terminals;
  if (names.length > 0) json.names = names;
  const call = target(ENDPOINTS.resolveMerchants);
  const reply = await client.request({ ...call, json });
  const body = checkedReply(reply, call.what);
  return { meta: body.meta, results: inLookupOrder(batch.lookups, body.data.results, call.what) };
}

/**
 * What an --each-line run does when it stops short: keeps the results in hand in svc's data folder
 * (kept-results.ts), and says what it did: the calls resolved, the lines whose records were
 * written, and where the results are kept. One JSON line for a script, lines for a person.
 */
class EachLineStop {
  /** The `meta` of the first reply. */
  meta: unknown;
  /** Where the results were kept, or why they could not be; undefined until they are. */
  kept?: { path: string } | { error: string };
  /**
   * The output, once the records are written to it: what it has passed on tells the lines written.
   */
  writingTo?: OutputSink;
  /** What is still to be said of the lookups not resolved. */
  said?: () => void;

  constructor(
    private readonly ctx: Context,
    private readonly eachLine: EachLine,
  ) {
    this.meta = eachLine.resumed?.meta;
  }

  get keptAt(): string | undefined {
    return this.kept && 'path' in this.kept ? this.kept.path : undefined;
  }

  /** Keeps the results in hand, once; none in hand, nothing is kept. */
  keep(): void {
    if (this.kept || this.eachLine.store.calls().length === 0) return;
    const { store, keep } = this.eachLine;
    if (keep.folder === undefined) {
      this.kept = { error: NO_HOME };
      return;
    }
    try {
      this.kept = {
        path: keepResults(store, keep.folder, keep.input, this.meta, new Date(this.ctx.now())),
      };
    } catch (error) {
      this.kept = { error: whyNot(error, keep.folder) };
      return;
    }
    // The results given with --resume are in the new file too.
    this.done();
  }

  /**
   * Every record was written (or the results are in a newer file): those given with --resume have
   * served.
   */
  done(): void {
    const { resumed } = this.eachLine;
    try {
      if (resumed) rmSync(resumed.path, { force: true });
    } catch {
      // Left where it is (a system that keeps an open file): nothing is lost.
    }
  }

  /** svc is being ended before the run could finish stopping. */
  ended(): void {
    this.said?.();
    this.keep();
    this.tell(false);
  }

  /** `allWritten`: the writing of the records ended (else svc stopped it). */
  tell(allWritten: boolean): void {
    const { ctx } = this;
    const calls = this.eachLine.store.calls();
    const resolved = {
      calls: calls.length,
      lookups: calls.reduce((sum, call) => sum + call.count, 0),
    };
    const { calls: allCalls, lookups } = this.eachLine.keep.input;
    const writtenThrough = this.writingTo?.flushedMark() ?? 0;
    const path = this.keptAt;
    const keptError = this.kept && 'error' in this.kept ? this.kept.error : undefined;
    if (ctx.jsonErrors) {
      const facts = {
        calls_resolved: resolved.calls,
        calls: allCalls,
        all_written: allWritten,
        written_through_line: writtenThrough,
        kept: path ?? null,
      };
      ctx.err(
        JSON.stringify(keptError === undefined ? facts : { ...facts, kept_error: keptError }),
      );
      return;
    }
    const finished = resolved.calls === allCalls;
    if (!allWritten && !this.writingTo) ctx.err('svc stopped before writing any record.');
    else if (!allWritten)
      ctx.err(
        `svc stopped while writing the records: ${writtenThrough > 0 ? `those of lines 1 to ${formatCount(writtenThrough)} were written, those after it not in full` : 'none was written whole'}.`,
      );
    else if (finished) ctx.err('The calls were done: every record was written before svc stopped.');
    if (!finished)
      ctx.err(
        `${formatCount(resolved.calls)} of ${formatCount(allCalls)} calls were resolved (${formatCount(resolved.lookups)} of ${formatCount(lookups)} lookups)${path ? `; their results are kept in ${path}` : ''}.`,
      );
    else if (path) ctx.err(`The results of every lookup are kept in ${path}.`);
    if (path)
      ctx.err(
        `Run the same command again with --resume ${shellWord(path)} to write every record, ${finished ? 'without calling the service' : 'sending only the lookups not resolved'}.`,
      );
    if (keptError)
      ctx.err(`error: could not keep the results of the lookups resolved: ${keptError}`);
  }
}

/**
 * Writes the unresolved file; returns what is then to be said of it (on stderr, after the output).
 * A failure to write it anywhere is said at once. `resumable`: the results are kept for --resume,
 * which finishes the job (EachLineStop says how), rather than a run with the list.
 */
async function keepUnresolved(
  ctx: Context,
  unresolved: AsyncIterable<Lookup>,
  failedOut: { path: string; replace: boolean },
  lookupCount: () => number,
  resumable = false,
): Promise<(() => void) | undefined> {
  const source = unresolved[Symbol.asyncIterator]();
  let taken = 0;
  // Counted as they are taken; a writer that stops early does not end them, so the rest can be
  // counted.
  const lookups: AsyncIterable<Lookup> = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        const next = await source.next();
        if (!next.done) taken++;
        return next;
      },
    }),
  };
  let written: { path: string; count: number };
  try {
    written = await writeUnresolved(failedOut.path, lookups, failedOut.replace);
  } catch (error) {
    const why = whyNot(error, dirname(failedOut.path));
    // The default place, the working folder, may be one the user cannot write in: the list goes
    // to a folder of svc's own in the temporary folder rather than nowhere (an explicit
    // --failed-out was checked before).
    try {
      if (taken !== 0 || failedOut.replace) throw error;
      written = await writeUnresolved(
        await privateTemporaryPath(basename(failedOut.path)),
        lookups,
        false,
      );
      ctx.warn(
        `${why}: the list of lookups not resolved went to the temporary folder, as ${written.path}`,
      );
    } catch {
      for (let next = await source.next(); !next.done; next = await source.next()) taken++;
      ctx.err(
        `error: could not save the ${formatCount(taken)} unresolved lookups to ${failedOut.path}: ${why}`,
      );
      return undefined;
    }
  }
  return () => {
    // Said as the error that ends the run is: one JSON line for a script, lines for a person.
    if (ctx.jsonErrors) {
      ctx.err(
        JSON.stringify({
          unresolved: written.count,
          lookups: lookupCount(),
          failed_out: written.path,
        }),
      );
      return;
    }
    ctx.err(
      `${formatCount(written.count)} of ${formatCount(lookupCount())} lookups were not resolved; they are listed in ${written.path}`,
    );
    if (!resumable) ctx.err(`Run again with --file ${shellWord(written.path)} to finish the job.`);
  };
}

/** The default place for the unresolved file, decided when it is needed. */
export function unresolvedTarget(
  explicit: string | undefined,
  now: Date,
): { path: string; replace: boolean } {
  return explicit === undefined
    ? { path: defaultUnresolvedPath(now), replace: false }
    : { path: explicit, replace: true };
}
