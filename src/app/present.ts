// How every command shows what it has to show: a reply, in the output format the flags chose
// (present), or a text it made itself, a chart say (presentText). Either goes through the pager
// on a terminal when it is taller than the screen (pager.ts).
import { exactBody } from '../core/json/exact-json.js';
import { machineTextForTerminal, printable, printableDeep } from '../core/output/format.js';
import { jsonOutput } from '../core/output/json.js';
import { pickColumns } from '../core/output/pick.js';
import { listItemTexts, recordTexts } from '../core/output/raw-records.js';
import {
  csvPieces,
  fallbackRecords,
  flatCsvPieces,
  jsonLinePieces,
  ndjsonPieces,
  type ViewRecords,
} from '../core/output/records.js';
import type { Reply } from '../core/output/render.js';
import { pipeRemarks, type View } from '../core/output/view.js';
import { giveWay, writePieces } from '../core/stream/paced-write.js';
import { OutputSink, StdoutClosedError } from '../core/stream/sink.js';
import { ReplyReading } from '../service/reading.js';
import type { Context } from './context.js';
import { paged } from './pager.js';
import { tablePieces } from './tables.js';

/**
 * How a command reads a reply: its name for messages, its records, its view for people. `R`: the
 * module of the reply's schemas (src/api/replies/), loaded by `replies` only when the reply is
 * read (never for --json, whose reply is printed as received), and given to `records` and `view`.
 */
export interface ReplyReader<R = undefined> {
  /** The request, as `GET /v1/usage`. */
  what: string;
  /** Loads the reply's schemas: `() => import('../../api/replies/usage.js')`. */
  replies?: () => Promise<R>;
  /**
   * The list a command documents, whose items are the records of ndjson and CSV; undefined: the
   * fallback.
   */
  records?: (body: unknown, reading: ReplyReading, replies: R) => unknown[] | undefined;
  /**
   * The reply is a view holding lists: its records as records.ts ViewRecords reads them
   * (docs/reference/output.md, "Reading replies").
   */
  viewRecords?: ViewRecords;
  /**
   * The documented fields of a record, in their documented order: a CSV's first columns, the
   * header of an empty list, and names --columns takes whether the reply has them or not.
   */
  fields?: readonly string[];
  /** The view for people, from what the command knows of the reply. */
  view: (body: unknown, reading: ReplyReading, replies: R) => View;
}

/**
 * Prints a reply in the chosen output format: `--json` as received, whatever its shape; ndjson
 * and CSV from the records the reader names; a table from the view the reader builds. The text
 * is made and written a piece at a time, giving way to a signal (stream/paced-write.ts), through
 * the pager when it is taller than the terminal.
 */
export async function present<R = undefined>(
  ctx: Context,
  reply: Reply,
  reader: ReplyReader<R>,
): Promise<void> {
  const { io, format, signal } = ctx;
  if (format === 'json') {
    const text = jsonOutput(reply.raw, reply.body, { terminal: io.stdoutIsTTY, color: ctx.color });
    await presentText(ctx, text);
    return;
  }
  // Reading the reply (JSON.parse) was one long step already: a signal that came meanwhile is heard
  // first.
  await giveWay(signal);
  // The reply with every number as received, where JSON.parse lost digits: records and rows show
  // the service's own values.
  const body = exactBody(reply.raw, reply.body);
  const reading = new ReplyReading(reader.what);
  const replies = (reader.replies ? await reader.replies() : undefined) as R;
  const { columns, headers, formulaGuard } = ctx.flags;
  let pieces: Iterable<string>;
  let transform: ((text: string) => string) | undefined;
  let notes: string[] = [];
  // BS dates (docs/reference/dates.md): the tables show them, ndjson and CSV add them; --json never
  // changes.
  const calendar = await ctx.config.calendar();
  if (format === 'ndjson' || format === 'csv') {
    if (reader.viewRecords === 'list items') {
      // One record per item of the view's lists, made from the reply's text.
      const texts = listItemTexts(reply.raw);
      pieces =
        format === 'csv'
          ? flatCsvPieces(texts, { calendar, columns, headers, formulaGuard })
          : jsonLinePieces(texts, calendar);
    } else {
      const list = reader.records?.(body, reading, replies) ?? fallbackRecords(body);
      await giveWay(signal);
      // Each record as the reply's text has it, numbers with every digit, where the list is the
      // reply's own.
      if (format === 'ndjson')
        pieces = ndjsonPieces(list, recordTexts(reply.raw, body, list), calendar);
      // Nested values in dotted columns, documented fields first (docs/reference/output.md, "CSV");
      // the body's numbers are as received.
      else
        pieces = csvPieces(list, {
          calendar,
          documented: reader.fields,
          columns,
          headers,
          formulaGuard,
        });
    }
    // Machine formats shown on a terminal still cannot move the cursor or reorder what is shown;
    // secrets are masked first, while an escape sequence that splits one is still whole.
    if (io.stdoutIsTTY)
      transform = (text) => machineTextForTerminal(format, ctx.secrets.mask(text));
  } else {
    // Each step is one pass over the reply: a signal is let in between them.
    const shown = forPeople(ctx, body);
    await giveWay(signal);
    const designed = reader.view(shown, reading, replies);
    // --columns: the columns named, in their order; a name no table has is exit 2
    // (docs/reference/output.md, "Columns").
    const view = columns ? pickColumns(designed, columns, reader.fields) : designed;
    await giveWay(signal);
    pieces = await tablePieces(ctx, view, calendar);
    // A terminal shows footers, notes and a list's other fields with the tables; a pipe's stdout
    // keeps to the rows.
    if (!io.stdoutIsTTY) notes = pipeRemarks(view);
  }
  if (ctx.debug) for (const line of reading.debugLines()) ctx.err(line);
  try {
    await paged(ctx, (signal) =>
      writePieces(pieces, new OutputSink(io.stdout, { transform }), signal),
    );
  } catch (error) {
    // The reader of stdout went away (`| head`): that ends the run quietly.
    if (error instanceof StdoutClosedError) return;
    throw error;
  }
  for (const note of notes) ctx.err(note);
}

/**
 * A text a command made for people (a chart, a reply as `svc api` shows it) on stdout, paged as a
 * reply is.
 */
export async function presentText(ctx: Context, text: string): Promise<void> {
  await paged(ctx, async () => ctx.out(text));
}

/**
 * A copy of what the service sent, for people: every string (keys too) made printable, so a
 * name cannot move the cursor or recolour the terminal. Secrets are masked in the values
 * themselves (a boxed table may wrap one across lines), and first, while an escape sequence
 * that splits one is still whole.
 */
export function forPeople<T>(ctx: Context, value: T): T {
  return printableDeep(value, (text) => printable(ctx.secrets.mask(text)));
}
