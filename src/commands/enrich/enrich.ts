// `svc enrich --file PATH|-`: categorise transactions that come from outside a report.
import { ENDPOINTS, target } from '../../api/endpoints.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { readCapped } from '../../core/capped-read.js';
import { CliError, UsageError } from '../../core/errors.js';
import { whyUnreadable } from '../../core/fs-errors.js';
import { openInput } from '../../core/input-file.js';
import { parseTransactions } from './input.js';
import { enrichReader } from './view.js';

/** Far more than 5000 transactions take; a bigger file is refused before it fills the memory. */
export const MAX_INPUT_BYTES = 32 * 1024 * 1024;

export async function enrichTransactions(ctx: Context, options: { file: string }): Promise<void> {
  const source = options.file === '-' ? 'stdin' : options.file;
  const text = await readText(await openInput(options.file, ctx.io.stdin), options.file);
  const transactions = parseTransactions(text, source);
  const client = await ctx.client();
  const call = target(ENDPOINTS.enrich);
  const reply = await client.request({ ...call, json: { transactions } });
  await present(ctx, reply, enrichReader(call.what));
}

async function readText(input: NodeJS.ReadableStream, file: string): Promise<string> {
  try {
    const bytes = await readCapped(
      input,
      MAX_INPUT_BYTES,
      () =>
        new UsageError(
          `--file ${file} is larger than 32 MB; enrich takes at most 5000 transactions per call`,
        ),
    );
    return bytes.toString('utf8');
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new UsageError(`cannot read --file ${file}: ${whyUnreadable(error)}`);
  } finally {
    // A file refused part-way is closed at once; stdin is not ours to close.
    if (file !== '-') (input as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
  }
}
