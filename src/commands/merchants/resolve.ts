// `svc merchants resolve`: the lookups (arguments, --name, --file) are read as a stream and kept
// once each, cut into calls of at most 1000 and run a few at a time (run.ts). With a plain file
// and nobody at the terminal, calls start while the file is still read; otherwise the input is
// read first, so that --dry-run can print the plan and a person sees the cost and a progress bar.
import type { Readable } from 'node:stream';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { checkInteger } from '../args.js';
import { BatchesWhileReading, batchesOf, LOOKUPS_PER_CALL } from './batches.js';
import { LookupSet } from './lookup-set.js';
import { addCommandLine, addLines, collectLookups, openInput, type LookupSources } from './lookups.js';
import { runResolve, unresolvedTarget } from './run.js';
import { checkWritable } from './unresolved.js';

/** Above this many calls, a person at a terminal is told the cost before the run starts. */
const CALLS_WORTH_A_NOTE = 10;

export interface ResolveFlags {
  name?: string[];
  file?: string;
  column?: string;
  concurrency?: string;
  dryRun?: boolean;
  failedOut?: string;
  unmatched?: boolean;
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

export async function resolveMerchants(ctx: Context, terminals: string[], flags: ResolveFlags): Promise<void> {
  const concurrency = checkInteger(flags.concurrency, '--concurrency', 1, 16) ?? 4;
  if (flags.column !== undefined && flags.file === undefined) throw new UsageError('--column needs --file: it names a column of a CSV file');
  if (flags.column !== undefined && flags.column.trim() === '') throw new UsageError('--column is empty: give the header of the column to read');
  if (flags.failedOut !== undefined) await checkWritable(flags.failedOut);
  const sources: LookupSources = {
    terminals,
    names: flags.name ?? [],
    file: flags.file,
    column: flags.column?.trim(),
    stdin: ctx.io.stdin,
    signal: ctx.signal,
  };
  // Lookups given on the command line are listed there already: running it again is the retry.
  const failedOut = flags.file !== undefined || flags.failedOut !== undefined ? unresolvedTarget(flags.failedOut, new Date(ctx.now())) : undefined;

  // A plain file (no CSV: no line of it can be refused) for a script: no plan to show first.
  if (flags.file !== undefined && flags.column === undefined && !flags.dryRun && !ctx.io.stderrIsTTY) {
    const lookups = new LookupSet();
    addCommandLine(sources, lookups);
    const input = await openInput(flags.file, ctx.io.stdin);
    const client = await ctx.client().catch((error: unknown) => {
      // No key or base URL: the file opened for nothing is closed now, not when collected.
      if (input !== ctx.io.stdin) (input as Readable).destroy();
      throw error;
    });
    // Read to the end even after Ctrl-C or a failure: the unresolved file lists the whole rest.
    let batches: BatchesWhileReading | undefined;
    const reading = addLines(input, lookups, flags.file, { onChunk: () => batches?.grew() });
    batches = new BatchesWhileReading(lookups, reading);
    await runResolve(ctx, client, { batches, concurrency, lookupCount: () => lookups.size, unmatchedOnly: flags.unmatched === true, failedOut });
    if (lookups.size === 0) throw nothingToResolve(flags);
    return;
  }

  const lookups = await collectLookups(sources);
  if (lookups.size === 0) throw nothingToResolve(flags);
  const plan = planOf(lookups, concurrency);
  if (flags.dryRun) return printPlan(ctx, plan);
  const client = await ctx.client();
  if (ctx.io.stderrIsTTY && plan.calls > CALLS_WORTH_A_NOTE) {
    const { formatCount } = await import('../../core/output/format.js');
    ctx.err(`Resolving ${formatCount(plan.lookups)} lookups in ${formatCount(plan.calls)} calls: this uses ${formatCount(plan.units)} billing units.`);
  }
  await runResolve(ctx, client, {
    batches: batchesOf(lookups),
    concurrency: plan.concurrency,
    totals: { items: plan.lookups, calls: plan.calls, noun: 'lookups' },
    lookupCount: () => lookups.size,
    unmatchedOnly: flags.unmatched === true,
    failedOut,
  });
}

function nothingToResolve(flags: ResolveFlags): UsageError {
  return new UsageError('nothing to resolve: give terminal numbers, --name NAME or --file PATH', [
    flags.file === undefined
      ? 'Example: svc merchants resolve --file terminals.txt'
      : `${flags.file === '-' ? 'standard input' : flags.file} holds no lookups (blank lines are skipped).`,
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
  const { formatCount } = await import('../../core/output/format.js');
  const raw = JSON.stringify({ dry_run: true, ...plan });
  await ctx.present({ raw, body: JSON.parse(raw) }, {
    what: 'merchants resolve --dry-run',
    view: () => ({
    kind: 'record',
    title: 'Dry run: nothing was sent.',
    record: plan,
    fields: [
      { key: 'lookups', header: 'Lookups', value: (x: Plan) => x.lookups, display: (x) => `${formatCount(x.lookups)} (${formatCount(x.terminals)} terminals, ${formatCount(x.names)} names)` },
      { key: 'duplicates', header: 'Duplicates', value: (x) => x.duplicates, display: (x) => `${formatCount(x.duplicates)} (looked up once)` },
      { key: 'calls', header: 'Calls', value: (x) => x.calls, display: (x) => `${formatCount(x.calls)} of at most ${formatCount(LOOKUPS_PER_CALL)} lookups, ${x.concurrency} at a time` },
      { key: 'units', header: 'Billing units', value: (x) => x.units, display: (x) => formatCount(x.units) },
    ],
    }),
  });
}
