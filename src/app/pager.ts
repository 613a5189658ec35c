// An output for people through the pager, on a terminal, when it is taller than the screen
// (docs/reference/output.md, "Pager"; core/stream/pager.ts), and which pager that is.
import { resolvePager } from '../config/resolve.js';
import { pagerEnvironment, pagerWords } from '../core/stream/pager.js';
import { startPagerProcess } from '../core/stream/pager-process.js';
import { isOwnVariable, readEnv } from '../service/environment.js';
import type { Context } from './context.js';

/**
 * Runs `work`, which writes one output for people to read (a reply, a chart), through the pager
 * when it is taller than the terminal. `work` stops at the signal it is given: the run's, or the
 * person quitting the pager (the rest of the output is then for no one, and the run goes on).
 * Resolves once the pager has exited.
 */
export async function paged(
  ctx: Context,
  work: (signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const { io, paging } = ctx;
  const rows = io.rows;
  const command = paging && rows !== undefined ? await pagerCommand(ctx) : undefined;
  if (!paging || rows === undefined || command === undefined) return work(ctx.signal);
  const setting = {
    command,
    env: pagerEnvironment(io.env, isOwnVariable),
    rows,
    columns: io.columns,
    start: ctx.services.startPager ?? startPagerProcess,
    flush: paging.flush,
    note: ctx.debug ? (line: string) => ctx.err(line) : undefined,
  };
  await paging.output.paged(setting, work, ctx.signal);
}

/**
 * The pager's words (--no-pager, SVC_PAGER, the profile's `pager`, PAGER: config/resolve.ts);
 * undefined for none.
 */
async function pagerCommand(ctx: Context): Promise<string[] | undefined> {
  // The config file is read only when neither the flag nor SVC_PAGER says.
  const asked = ctx.flags.pager === false || readEnv(ctx.io.env, 'SVC_PAGER') !== undefined;
  const doc = asked ? { profiles: {} } : await ctx.config.doc();
  const line = resolvePager(ctx.flags, ctx.io.env, doc);
  if (line === undefined) return undefined;
  const words = pagerWords(line);
  if (words === undefined && ctx.debug)
    ctx.err(`debug: the pager \`${line}\` leaves a quote open; printing directly`);
  return words;
}
