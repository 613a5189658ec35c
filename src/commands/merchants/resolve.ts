// `svc merchants resolve`: the lookups (arguments, --name, --file) are read as a stream, each
// known again by its key alone (lookup-set.ts), cut into calls of at most 1000 and run a few at a
// time (run.ts); the reading keeps pace with the calls, so memory does not grow with the input
// beyond the keys. With a plain file and nobody at the terminal, calls start while the file is
// still read; otherwise the input is read once to count it, so that --dry-run can print the plan
// and a person sees the cost and a progress bar, and once more for the calls (input.ts).
import { join } from 'node:path';
import type { Readable } from 'node:stream';

import type { ApiClient } from '../../api/client.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { UsageError } from '../../core/errors.js';
import { openInput } from '../../core/input-file.js';
import { formatCount } from '../../core/output/format.js';
import {
  type Batch,
  batchesOf,
  BatchesWhileReading,
  LOOKUPS_PER_CALL,
} from '../../merchants/batches.js';
import { ResultStore } from '../../merchants/each-line.js';
import { nameOf, TwiceReadInput } from '../../merchants/input.js';
import { KeptResults } from '../../merchants/kept-results.js';
import { LookupSet } from '../../merchants/lookup-set.js';
import {
  addCommandLine,
  addFile,
  collectLookups,
  type LookupInput,
  type LookupSources,
  withoutCsvHeader,
} from '../../merchants/lookups.js';
import { runResolve, unresolvedTarget } from '../../merchants/run.js';
import { checkWritable } from '../../merchants/unresolved.js';

/** Above this many calls, a person at a terminal is told the cost before the run starts. */
const CALLS_WORTH_A_NOTE = 10;

export interface ResolveFlags {
  name?: string[];
  file?: string;
  column?: string;
  /**
   * False with --no-header: --file is one lookup a line, even when it reads as CSV with a header
   * row or a bank statement.
   */
  header?: boolean;
  /** Checked by its declaration (integerOption, index.ts). */
  concurrency?: number;
  dryRun?: boolean;
  failedOut?: string;
  unmatched?: boolean;
  /** A record for each line of --file, in its order, with the line's number. */
  eachLine?: boolean;
  /** --each-line: the results an earlier run kept, to write without sending their lookups again. */
  resume?: string;
}

export interface Plan {
  /** Distinct lookups, each sent once. */
  lookups: number;
  terminals: number;
  names: number;
  /** Lookups given more than once, beyond their first appearance. */
  duplicates: number;
  calls: number;
  /** One billing unit a call. */
  units: number;
  concurrency: number;
}

export async function resolveMerchants(
  ctx: Context,
  terminals: string[],
  flags: ResolveFlags,
): Promise<void> {
  const concurrency = flags.concurrency ?? 4;
  // What a flag needs of the others and cannot go with is checked by its declaration (index.ts).
  if (flags.column !== undefined && flags.column.trim() === '')
    throw new UsageError('--column is empty: give the header of the column to read');
  if (flags.eachLine && (terminals.length > 0 || (flags.name ?? []).length > 0)) {
    throw new UsageError(
      '--each-line writes a record for each line of --file: give every lookup in the file, none as an argument or --name',
    );
  }
  if (flags.failedOut !== undefined) await checkWritable(flags.failedOut);
  const sources: LookupSources = {
    terminals,
    names: flags.name ?? [],
    file: flags.file,
    column: flags.column?.trim(),
    noHeader: flags.header === false,
    stdin: ctx.io.stdin,
    signal: ctx.signal,
    note: (line) => ctx.err(line),
  };
  // Lookups given on the command line are listed there already: running it again is the retry.
  const failedOut =
    flags.file !== undefined || flags.failedOut !== undefined
      ? unresolvedTarget(flags.failedOut, new Date(ctx.now()))
      : undefined;
  const run = { concurrency, unmatchedOnly: flags.unmatched === true, failedOut };

  // A plain file (no CSV: no line of it can be refused) for a script: no plan to show first.
  // --each-line reads the file again for the lines, after the calls: the first reading counts.
  if (
    flags.file !== undefined &&
    flags.column === undefined &&
    !flags.dryRun &&
    !flags.eachLine &&
    !ctx.io.stderrIsTTY
  )
    return resolveWhileReading(ctx, sources, flags, run);
  return resolveCounted(ctx, sources, flags, run);
}

interface RunSettings {
  concurrency: number;
  unmatchedOnly: boolean;
  failedOut?: { path: string; replace: boolean };
}

/**
 * One reading: the calls start while the file is still read, each as soon as its lookups are
 * there. Nothing is read twice, so standard input needs no copy: when a run stops, the lookups
 * it did not resolve are those of its failed calls (which hold them) and the rest of the input,
 * read on to its end as the unresolved file is written (run.ts).
 */
async function resolveWhileReading(
  ctx: Context,
  sources: LookupSources,
  flags: ResolveFlags,
  run: RunSettings,
): Promise<void> {
  const file = sources.file!;
  const lookups = new LookupSet();
  addCommandLine(sources, lookups);
  const input = await openInput(file, ctx.io.stdin);
  const closeInput = () => {
    if (input !== ctx.io.stdin) (input as Readable).destroy();
  };
  let lines: LookupInput;
  let client: ApiClient;
  try {
    // A CSV file with a header row is refused before anything else: its lines are no lookups.
    lines = sources.noHeader ? input : await withoutCsvHeader(input, file);
    client = await ctx.client();
  } catch (error) {
    // No key or base URL, or CSV: the file opened for nothing is closed now, not when collected.
    closeInput();
    throw error;
  }
  // Read to the end even after Ctrl-C or a failure: the unresolved file lists the whole rest.
  const batches: BatchesWhileReading = new BatchesWhileReading(
    lookups,
    addFile(lines, lookups, { file }, { onChunk: () => batches.grew() }),
  );
  try {
    await runResolve(ctx, client, {
      ...run,
      batches,
      lookupCount: () => lookups.size,
      duplicates: () => lookups.duplicates,
    });
  } finally {
    // A run that ended early (a reader of stdout gone) reads no further.
    closeInput();
    batches.release();
  }
  if (lookups.size === 0) throw nothingToResolve(flags);
}

/**
 * Two readings: the first counts the lookups with their keys alone (and finds a bad line before
 * any call), for --dry-run, the cost told to a person and the progress bar's totals; the second
 * feeds the calls, as in a single reading. With --each-line, a third, once the calls are done,
 * writes a record for each line (each-line.ts).
 */
async function resolveCounted(
  ctx: Context,
  sources: LookupSources,
  flags: ResolveFlags,
  run: RunSettings,
): Promise<void> {
  const counted = new LookupSet({ keep: false, record: !flags.dryRun });
  // Results kept by an earlier run: a file that is none is refused before anything is read.
  const resumed = flags.resume === undefined ? undefined : await KeptResults.open(flags.resume);
  try {
    // --dry-run reads once: its input needs no second reading, nor a copy of standard input.
    // --each-line: the first reading makes the SHA-256 of the input, what kept results are for.
    const input =
      sources.file === undefined || flags.dryRun
        ? undefined
        : await TwiceReadInput.open(sources.file, ctx.io.stdin, flags.eachLine);
    try {
      await collectLookups(sources, counted, input?.first());
      if (counted.size === 0) throw nothingToResolve(flags);
      const plan = planOf(counted, run.concurrency);
      if (flags.dryRun) return await printPlan(ctx, plan);
      const kept =
        input && flags.eachLine
          ? {
              file: sources.file!,
              column: sources.column,
              sha256: input.digest()!,
              lookups: counted.size,
              calls: plan.calls,
            }
          : undefined;
      resumed?.check(kept!);
      const client = await ctx.client();
      const dataFolder = flags.eachLine ? await ctx.config.folder('data') : undefined;
      // The calls whose results were kept are not made again.
      const toMake = {
        calls: plan.calls - (resumed?.tally.calls ?? 0),
        lookups: plan.lookups - (resumed?.tally.lookups ?? 0),
      };
      if (ctx.io.stderrIsTTY && toMake.calls > CALLS_WORTH_A_NOTE) {
        const taken = resumed
          ? ` (the results of ${formatCount(resumed.tally.calls)} calls are taken from ${resumed.path})`
          : '';
        ctx.err(
          `Resolving ${formatCount(toMake.lookups)} lookups in ${formatCount(toMake.calls)} calls${taken}: this uses ${formatCount(toMake.calls)} billing units.`,
        );
      }
      const lookups = counted.replay();
      addCommandLine(sources, lookups);
      // --each-line: the results are kept in a file of svc's own until the input is read for the
      // lines.
      const store = flags.eachLine ? await ResultStore.open() : undefined;
      let again: NodeJS.ReadableStream | undefined;
      let reading: BatchesWhileReading | undefined;
      try {
        if (resumed) {
          await resumed.copyInto(store!);
          await checkResumed(store!, counted.replay(), await input!.again(), sources);
        }
        again = input && (await input.again());
        // The command line alone is read whole; a file is read again as the calls take its lookups.
        reading =
          again &&
          new BatchesWhileReading(
            lookups,
            addFile(
              again,
              lookups,
              { file: sources.file!, column: sources.column },
              { onChunk: () => reading!.grew() },
            ),
          );
        const batches = reading ?? batchesOf(lookups);
        const lines = {
          read: () => input!.again(),
          file: sources.file!,
          column: sources.column,
          index: () => counted.toIndex(),
        };
        await runResolve(ctx, client, {
          ...run,
          batches: resumed ? withoutKept(batches, store!) : batches,
          // At least one: the calls whose results were kept are skipped as the batches are taken.
          concurrency: Math.max(1, Math.min(plan.concurrency, toMake.calls)),
          totals: { items: toMake.lookups, calls: toMake.calls, noun: 'lookups' },
          lookupCount: () => lookups.size,
          duplicates: () => lookups.duplicates,
          eachLine: store && {
            store,
            lines,
            keep: { folder: dataFolder && join(dataFolder, 'merchants'), input: kept! },
            resumed,
          },
        });
      } finally {
        if (again) (again as Readable).destroy();
        reading?.release();
        await store?.close();
      }
    } finally {
      await input?.close();
    }
  } finally {
    await resumed?.close();
  }
}

/**
 * Reads the input once more, as the calls would take it, and refuses (exit 2) results given with
 * --resume that do not answer the lookups of their calls, before any call: the input's SHA-256 is
 * the same, but a run's calls are made from its own reading (lookup-set.ts).
 */
async function checkResumed(
  store: ResultStore,
  lookups: LookupSet,
  input: NodeJS.ReadableStream,
  sources: LookupSources,
): Promise<void> {
  const batches: BatchesWhileReading = new BatchesWhileReading(
    lookups,
    addFile(
      input,
      lookups,
      { file: sources.file!, column: sources.column },
      { onChunk: () => batches.grew() },
    ),
  );
  try {
    for (let next = await batches.next(); !next.done; next = await batches.next())
      store.checkHeld(next.value);
  } finally {
    // Read on to its end, not destroyed: that would close the input's file, still to be read.
    batches.release();
  }
}

/** The batches whose results are not kept already (--resume). */
async function* withoutKept(
  batches: Iterator<Batch> | AsyncIterator<Batch>,
  store: ResultStore,
): AsyncGenerator<Batch> {
  for (let next = await batches.next(); !next.done; next = await batches.next())
    if (!store.holds(next.value)) yield next.value;
}

function nothingToResolve(flags: ResolveFlags): UsageError {
  return new UsageError('nothing to resolve: give terminal numbers, --name NAME or --file PATH', [
    flags.file === undefined
      ? 'Example: svc merchants resolve --file terminals.txt'
      : `${nameOf(flags.file)} holds no lookups (blank lines are skipped).`,
  ]);
}

export function planOf(lookups: LookupSet, concurrency: number): Plan {
  const calls = Math.ceil(lookups.size / LOOKUPS_PER_CALL);
  return {
    lookups: lookups.size,
    terminals: lookups.terminals,
    names: lookups.names,
    duplicates: lookups.duplicates,
    calls,
    units: calls,
    concurrency: Math.min(concurrency, calls),
  };
}

async function printPlan(ctx: Context, plan: Plan): Promise<void> {
  const raw = JSON.stringify({ dry_run: true, ...plan });
  await present(
    ctx,
    { raw, body: JSON.parse(raw) },
    {
      what: 'merchants resolve --dry-run',
      view: () => ({
        kind: 'record',
        title: 'Dry run: nothing was sent.',
        record: plan,
        fields: [
          {
            key: 'lookups',
            header: 'Lookups',
            value: (x: Plan) => x.lookups,
            display: (x: Plan) =>
              `${formatCount(x.lookups)} (${formatCount(x.terminals)} terminals, ${formatCount(x.names)} names)`,
          },
          {
            key: 'duplicates',
            header: 'Duplicates',
            value: (x: Plan) => x.duplicates,
            display: (x: Plan) => `${formatCount(x.duplicates)} (looked up once)`,
          },
          {
            key: 'calls',
            header: 'Calls',
            value: (x: Plan) => x.calls,
            display: (x: Plan) =>
              `${formatCount(x.calls)} of at most ${formatCount(LOOKUPS_PER_CALL)} lookups, ${x.concurrency} at a time`,
          },
          {
            key: 'units',
            header: 'Billing units',
            value: (x: Plan) => x.units,
            display: (x: Plan) => formatCount(x.units),
          },
        ],
      }),
    },
  );
}
