// What `svc merchants resolve` looks up: terminal numbers and merchant names from the arguments,
// --name and --file (lines, or one column of a CSV file), read as a stream into a LookupSet, which
// hands each distinct one on once, in the order of its first appearance.
import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';

import { CliError, InterruptedError, UsageError } from '../core/errors.js';
import { importCsvParse } from '../core/external.js';
import { whyUnreadable } from '../core/fs-errors.js';
import { openInput } from '../core/input-file.js';
import { oneLine } from '../core/output/format.js';
import {
  accountLineOf,
  columnRowDecided,
  columnRowOf,
  type CsvHeader,
  csvHeaderOf,
  csvRecords,
  HEADER_SAMPLE_BYTES,
  headerDecided,
  LINES_SEARCHED,
  separatorOf,
} from './csv-header.js';
import { type Lookup, LookupSet } from './lookup-set.js';

/** A value of 16 or more digits is a terminal number; anything else is a merchant name. */
const TERMINAL = /^\d{16,}$/;

/** A value from a file: surrounding spaces do not count; undefined for a blank one. */
export function classify(raw: string): Lookup | undefined {
  const value = raw.trim();
  if (value === '') return undefined;
  return { type: TERMINAL.test(value) ? 'terminal' : 'name', value };
}

export interface LookupSources {
  terminals: readonly string[];
  names: readonly string[];
  /** A path, or `-` for standard input. */
  file?: string;
  /** Read --file as CSV with a header and take this column. */
  column?: string;
  /**
   * --no-header: read --file one lookup a line even when it reads as CSV with a header row or a
   * bank statement.
   */
  noHeader?: boolean;
  stdin: NodeJS.ReadableStream;
  /** Ctrl-C: stop reading at once. */
  signal: AbortSignal;
  /** Hears what to tell on stderr of the reading (lines skipped above a CSV header row). */
  note?: (line: string) => void;
}

/** A --file as it is read: a stream, or the chunks of one. */
export type LookupInput = NodeJS.ReadableStream | AsyncIterable<Buffer | string>;

/**
 * What a reading of lookups adds them to: a LookupSet, or (--each-line) what writes a record for
 * each line. `line` is the line of the file the lookup is on, counted from 1 as an editor does (a
 * CSV record's first line; undefined for the command line).
 */
export interface LookupTarget {
  add(lookup: Lookup, line?: number): unknown;
  /** A terminal number given as ASCII digits in `source[start, end)`. */
  addTerminalBytes(source: Buffer, start: number, end: number, line?: number): unknown;
}

/**
 * Reads every source, in order, into `set` (by default one that keeps every lookup); a bad value
 * is a usage error, found before any request is sent, and so is a --file that reads as CSV with
 * a header row when no --column is given (withoutCsvHeader). `given`: the --file already opened,
 * which stays the caller's to close.
 */
export async function collectLookups(
  sources: LookupSources,
  set = new LookupSet(),
  given?: LookupInput,
): Promise<LookupSet> {
  addCommandLine(sources, set);
  if (sources.file === undefined) return set;
  const input = given ?? (await openInput(sources.file, sources.stdin));
  try {
    const lines =
      sources.column === undefined && !sources.noHeader
        ? await withoutCsvHeader(input, sources.file)
        : input;
    await addFile(
      lines,
      set,
      { file: sources.file, column: sources.column },
      { signal: sources.signal, note: sources.note },
    );
  } finally {
    // A file left half-read (a refused line, a missing column) is closed now, not when collected.
    if (!given && input !== sources.stdin) (input as Readable).destroy();
  }
  return set;
}

/** Adds the lookups of --file read from `input`: its lines, or the cells of its --column. */
export async function addFile(
  input: LookupInput,
  target: LookupTarget,
  sources: { file: string; column?: string },
  reading: LineReading = {},
): Promise<void> {
  if (sources.column === undefined) await addLines(input, target, sources.file, reading);
  else await addColumn(input, target, sources.file, sources.column, reading);
}

/**
 * The input, once its first HEADER_SAMPLE_BYTES were found not to read as CSV with a header row
 * nor as a bank statement (csv-header.ts); refused (exit 2, nothing sent) when they do: read one
 * lookup a line, each whole line of a statement, its account number included, would be sent as a
 * merchant name. Read the same however the input comes in chunks; what was read to decide comes
 * first in what is handed on.
 */
export async function withoutCsvHeader(
  input: LookupInput,
  file: string,
): Promise<AsyncIterable<Buffer>> {
  const { head, ended, rest } = await peek(input, HEADER_SAMPLE_BYTES, file, (head) =>
    headerDecided(textOf(head)),
  );
  const whole = ended && head.length <= HEADER_SAMPLE_BYTES;
  const header = csvHeaderOf(textOf(head), whole);
  if (header) throw csvWithoutColumn(file, header);
  const account = accountLineOf(textOf(head), whole);
  if (account !== undefined) throw statementWithoutColumn(file, account);
  return rest;
}

/** The text the decisions read: the first HEADER_SAMPLE_BYTES, a byte-order mark left out. */
function textOf(head: Buffer): string {
  return head.toString('utf8', bomLength(head), Math.min(head.length, HEADER_SAMPLE_BYTES));
}

function bomLength(head: Buffer): number {
  return head.subarray(0, BOM.length).equals(BOM) ? BOM.length : 0;
}

/** Columns named in the refusal; a wider header is cut. */
const COLUMNS_SHOWN = 12;
const NO_HEADER_HINT = 'If each line is one lookup, commas and all, give --no-header.';
const HEADING_HINT =
  "With --column, the lines above the header row (the bank's heading) are skipped.";

function csvWithoutColumn(file: string, header: CsvHeader): UsageError {
  const where = file === '-' ? 'standard input' : file;
  const named = header.columns
    .slice(0, COLUMNS_SHOWN)
    .map((column) => oneLine(column) || '(empty)');
  const more =
    header.columns.length > COLUMNS_SHOWN
      ? `, and ${header.columns.length - COLUMNS_SHOWN} more`
      : '';
  const on = header.line > 1 ? ` on line ${header.line}` : '';
  return new UsageError(
    `${where} looks like CSV with a header row${on} (${named.join(', ')}${more}): give --column NAME to take one column`,
    [
      `Example: svc merchants resolve --file ${shellWord(file)} --column ${shellWord(oneLine(header.suggested))}`,
      ...(header.line > 1 ? [HEADING_HINT] : []),
      NO_HEADER_HINT,
    ],
  );
}

function statementWithoutColumn(file: string, line: number): UsageError {
  const where = file === '-' ? 'standard input' : file;
  return new UsageError(
    `${where} looks like a bank statement (line ${line} gives an account number): give --column NAME to take one column of its table`,
    [
      "NAME is the header of the column of narrations or merchant names; the lines above the header row (the bank's heading) are skipped.",
      NO_HEADER_HINT,
    ],
  );
}

/** A word for a shell command line, quoted when it needs to be. */
export function shellWord(text: string): string {
  return /^[\w./@%+=:,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * The input's first `bytes` bytes (or all of it, when it is shorter: `ended`; or what was read
 * when `enough` of it was, asked at each chunk that ends a line), and the whole of it again as
 * `rest`: those bytes first, then what follows them.
 */
async function peek(
  input: LookupInput,
  bytes: number,
  file: string,
  enough?: (head: Buffer) => boolean,
): Promise<{ head: Buffer; ended: boolean; rest: AsyncIterable<Buffer> }> {
  const chunks = (input as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
  const taken: Buffer[] = [];
  let length = 0;
  let ended = false;
  try {
    while (length < bytes) {
      const next = await chunks.next();
      if (next.done) {
        ended = true;
        break;
      }
      const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
      taken.push(chunk);
      length += chunk.length;
      if (enough && (chunk.includes(LF) || chunk.includes(CR)) && enough(Buffer.concat(taken)))
        break;
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new UsageError(`cannot read --file ${file}: ${whyUnreadable(error)}`);
  }
  const head = Buffer.concat(taken);
  async function* rest(): AsyncGenerator<Buffer> {
    if (head.length > 0) yield head;
    if (ended) return;
    try {
      for (let next = await chunks.next(); !next.done; next = await chunks.next())
        yield typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    } finally {
      // A reading stopped early ends the input's too (a stream is destroyed).
      await chunks.return?.();
    }
  }
  return { head, ended, rest: rest() };
}

/** The terminal numbers given as arguments, then the --name values. */
export function addCommandLine(
  sources: Pick<LookupSources, 'terminals' | 'names'>,
  set: LookupSet,
): void {
  for (const raw of sources.terminals) {
    const value = raw.trim();
    if (!TERMINAL.test(value)) {
      throw new UsageError(`"${oneLine(raw)}" is not a terminal number (16 or more digits)`, [
        `To look up a merchant name, use --name "${oneLine(raw)}".`,
      ]);
    }
    set.add({ type: 'terminal', value: checkLookup(value, () => 'a terminal number') });
  }
  for (const raw of sources.names) {
    const value = raw.trim();
    if (value === '')
      throw new UsageError(
        '--name is empty: give a merchant name, e.g. --name "Bhatbhateni Supermarket"',
      );
    set.add({ type: 'name', value: checkLookup(value, () => '--name') });
  }
}

async function addColumn(
  input: LookupInput,
  target: LookupTarget,
  file: string,
  column: string,
  reading: LineReading,
): Promise<void> {
  let count = 0;
  for await (const { raw, line } of readColumn(input, file, column, reading)) {
    if (++count % 1024 === 0) {
      if (reading.signal?.aborted) throw new InterruptedError();
      const wait = reading.onChunk?.();
      if (wait) await wait;
    }
    const lookup = classify(raw);
    if (lookup)
      target.add(
        {
          type: lookup.type,
          value: checkLookup(lookup.value, () => `${nameOf(file)}, line ${line}`),
        },
        line,
      );
  }
  if (reading.signal?.aborted) throw new InterruptedError();
}

function nameOf(file: string): string {
  return file === '-' ? 'stdin' : file;
}

export interface LineReading {
  /** Ctrl-C: stop reading at once. Absent: read to the end (the unresolved file needs it all). */
  signal?: AbortSignal;
  /**
   * Hears, for stderr, that --column skips the lines above the header row (a bank's heading); the
   * first reading alone is given one.
   */
  note?: (line: string) => void;
  /**
   * Called after each chunk's lookups were added (the set has grown); reading waits for what it
   * returns.
   */
  onChunk?: () => Promise<void> | undefined | void;
}

/**
 * The longest line a lookup file may have, in bytes. Terminal numbers and merchant names are far
 * shorter; the bound keeps the part of a line carried from one chunk to the next small, so a
 * file is read in linear time whatever it holds (a 200 MB line is refused after 1 KiB of it).
 */
export const MAX_LOOKUP_BYTES = 1024;
const TOO_LONG = `more than ${MAX_LOOKUP_BYTES} bytes, the most a lookup (a terminal number or a merchant name) may have`;

const LF = 0x0a;
const CR = 0x0d;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Adds the lookup of each line of a file: read as bytes, lines ended by LF, CRLF or a lone CR, a
 * byte-order mark skipped. A line of digits becomes a terminal without ever being a string; any
 * other line is decoded and classified like a value of any other source. A line longer than
 * MAX_LOOKUP_BYTES, or not UTF-8, is refused: within the first chunk before any call, later as the
 * input failing.
 */
export async function addLines(
  input: LookupInput,
  target: LookupTarget,
  file: string,
  reading: LineReading = {},
): Promise<void> {
  let carried: Buffer | undefined;
  let line = 0;
  /** The last chunk ended with a CR: an LF opening the next one ends no further line. */
  let afterCR = false;
  /** Waiting for what `onChunk` returned. */
  let waiting = false;
  const addLine = (bytes: Buffer, from: number, to: number) => {
    line++;
    let start =
      line === 1 && bytes.subarray(from, from + BOM.length).equals(BOM) ? from + BOM.length : from;
    let end = to;
    if (end - start > MAX_LOOKUP_BYTES) throw tooLong(file, line);
    while (start < end && isAsciiSpace(bytes[start]!)) start++;
    while (end > start && isAsciiSpace(bytes[end - 1]!)) end--;
    if (start === end) return;
    if (end - start >= 16 && allDigits(bytes, start, end))
      return void target.addTerminalBytes(bytes, start, end, line);
    // Decoding would make a byte that is not UTF-8 a U+FFFD, and look up a name nobody wrote.
    if (!isUtf8(bytes.subarray(start, end))) throw notUtf8(file, line);
    const lookup = classify(bytes.toString('utf8', start, end));
    if (lookup) target.add(lookup, line);
  };
  try {
    for await (const chunk of input as AsyncIterable<Buffer | string>) {
      // Ctrl-C while reading a long file before any call: stop at once.
      if (reading.signal?.aborted) throw new InterruptedError();
      if (chunk.length === 0) continue;
      let bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      if (carried) bytes = Buffer.concat([carried, bytes]);
      let start = afterCR && bytes[0] === LF ? 1 : 0;
      // Each byte is searched once for LF and once for CR: linear in the chunk.
      let nextLF = bytes.indexOf(LF, start);
      let nextCR = bytes.indexOf(CR, start);
      while (nextLF >= 0 || nextCR >= 0) {
        const end = nextLF < 0 || (nextCR >= 0 && nextCR < nextLF) ? nextCR : nextLF;
        addLine(bytes, start, end);
        start = end + 1 + (end === nextCR && bytes[end + 1] === LF ? 1 : 0);
        if (nextLF >= 0 && nextLF < start) nextLF = bytes.indexOf(LF, start);
        if (nextCR >= 0 && nextCR < start) nextCR = bytes.indexOf(CR, start);
      }
      afterCR = bytes[bytes.length - 1] === CR;
      // A line still open, already too long (a byte-order mark aside): refused without reading on.
      if (bytes.length - start > MAX_LOOKUP_BYTES + BOM.length) throw tooLong(file, line + 1);
      // A copy: the rest of a line must not keep the whole chunk alive.
      carried = start < bytes.length ? Buffer.from(bytes.subarray(start)) : undefined;
      const wait = reading.onChunk?.();
      waiting = true;
      if (wait) await wait;
      waiting = false;
    }
  } catch (error) {
    // What the reading waited for failed (--each-line: stdout closed): that failure, as it is.
    if (error instanceof CliError || waiting) throw error;
    throw new UsageError(`cannot read --file ${file}: ${whyUnreadable(error)}`);
  }
  if (carried) addLine(carried, 0, carried.length);
  if (reading.signal?.aborted) throw new InterruptedError();
}

function tooLong(file: string, line: number): UsageError {
  return new UsageError(`${nameOf(file)}, line ${line}: ${TOO_LONG}`);
}

function notUtf8(file: string, line: number): UsageError {
  return new UsageError(`${nameOf(file)}, line ${line}: not UTF-8 text (save the file as UTF-8)`);
}

/** Space, tab, CR, vertical tab, form feed: what trim() removes among ASCII bytes. */
function isAsciiSpace(byte: number): boolean {
  return byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);
}

function allDigits(bytes: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (bytes[i]! < 0x30 || bytes[i]! > 0x39) return false;
  return true;
}

/**
 * The longest record --column reads: csv-parse holds a record whole, so a line of a gigabyte would
 * be a gigabyte held.
 */
const MAX_RECORD_BYTES = 1024 * 1024;

/**
 * One column of a CSV file with a header row, read by the csv-parse streaming parser from the
 * first of the lines searched that has the column (csv-header.ts: the lines above it, a bank's
 * heading, are skipped, and `reading.note` hears so), with the separator that splits that row
 * into the most fields (`,`, `;`, tab or `|`). Each cell comes with the line its record starts
 * on, as an editor numbers lines: line ends are made LF first (csv-parse counts the lines of the
 * first kind of line end it meets, and a CR and LF inside a quoted cell as two), and a record's
 * first line is the line it ends on less the line breaks inside its cells.
 */
async function* readColumn(
  input: LookupInput,
  file: string,
  column: string,
  reading: LineReading,
): AsyncGenerator<{ raw: string; line: number }> {
  const { parse, CsvError } = await importCsvParse();
  // Read until the row with the column is whole (or the lines searched, or 64 KiB, are there).
  const { head, ended, rest } = await peek(input, HEADER_SAMPLE_BYTES, file, (head) =>
    columnRowDecided(textOf(head), column),
  );
  const text = textOf(head);
  const whole = ended && head.length <= HEADER_SAMPLE_BYTES;
  const row = columnRowOf(text, column, whole);
  if (!row) {
    if (text.trim() === '') return;
    throw noSuchColumn(file, column, text, whole);
  }
  const above = text.slice(0, row.start);
  if (above.trim() !== '')
    reading.note?.(
      `Reading ${nameOf(file)} from its header row, line ${row.line}: the ${row.line - 1} lines above it are skipped.`,
    );
  const delimiter = row.separator;
  const parser = parse({
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    info: true,
    delimiter,
    max_record_size: MAX_RECORD_BYTES,
  });
  const source = Readable.from(withLfLineEnds(bytesFrom(rest, lineStart(head, row.line))));
  source.on('error', (error: Error) => parser.destroy(error));
  source.pipe(parser);
  let index = -1;
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      if (index < 0) {
        index = record.findIndex((header) => header.trim() === column);
        // The parser reads the row otherwise than csv-header.ts did.
        if (index < 0) throw noSuchColumn(file, column, text, whole);
        continue;
      }
      const cell = record[index];
      if (cell === undefined) continue;
      let breaks = 0;
      for (const field of record)
        for (let at = field.indexOf('\n'); at >= 0; at = field.indexOf('\n', at + 1)) breaks++;
      yield { raw: cell, line: info.lines - breaks + row.line - 1 };
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    // The line the record passes the bound on (csv-parse counts the lines read so far).
    if (error instanceof CsvError && error.code === 'CSV_MAX_RECORD_SIZE')
      throw new UsageError(
        `${nameOf(file)}, line ${Number(error.lines)}: a record of more than 1 MiB, the most --column reads`,
      );
    if (error instanceof CsvError)
      throw new UsageError(`cannot read --file ${file} as CSV: ${error.message}`);
    throw new UsageError(`cannot read --file ${file}: ${whyUnreadable(error)}`);
  } finally {
    parser.destroy();
    source.destroy();
  }
}

/**
 * --column names no column: refused, naming the header row's columns, or else the first line's
 * fields.
 */
function noSuchColumn(file: string, column: string, text: string, whole: boolean): UsageError {
  const quoted = (fields: readonly string[]) =>
    fields.map((field) => JSON.stringify(field.trim())).join(', ');
  const header = csvHeaderOf(text, whole);
  if (header) {
    const on = header.line > 1 ? ` (line ${header.line})` : '';
    return new UsageError(
      `--column ${column}: the header row of ${nameOf(file)}${on} has no such column (it has ${quoted(header.columns)})`,
    );
  }
  const first = csvRecords(text, separatorOf(text, whole), 1, whole)?.[0] ?? [];
  return new UsageError(
    `--column ${column}: none of the first ${LINES_SEARCHED} lines of ${nameOf(file)} is a header row with such a column (the first has ${quoted(first)})`,
  );
}

/**
 * Where line `line` (counted from 1) starts in `bytes`: counted in bytes, as text that is not UTF-8
 * would be decoded to another length.
 */
function lineStart(bytes: Buffer, line: number): number {
  let at = bomLength(bytes);
  for (let n = 1; n < line; n++) {
    while (bytes[at] !== LF && bytes[at] !== CR) at++;
    at += bytes[at] === CR && bytes[at + 1] === LF ? 2 : 1;
  }
  return at;
}

/** The chunks from byte `offset` on. */
async function* bytesFrom(chunks: AsyncIterable<Buffer>, offset: number): AsyncGenerator<Buffer> {
  let skip = offset;
  for await (const bytes of chunks) {
    if (skip >= bytes.length) {
      skip -= bytes.length;
      continue;
    }
    yield skip > 0 ? bytes.subarray(skip) : bytes;
    skip = 0;
  }
}

/**
 * The chunks with every line end (CRLF, or a lone CR) made LF; a CRLF cut between two chunks too.
 */
async function* withLfLineEnds(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let afterCR = false;
  for await (const bytes of chunks) {
    if (bytes.length === 0) continue;
    const start = afterCR && bytes[0] === LF ? 1 : 0;
    afterCR = bytes[bytes.length - 1] === CR;
    if (bytes.indexOf(CR, start) < 0) {
      if (start < bytes.length) yield start === 0 ? bytes : bytes.subarray(start);
      continue;
    }
    const out = Buffer.allocUnsafe(bytes.length - start);
    let n = 0;
    for (let i = start; i < bytes.length; i++) {
      const byte = bytes[i]!;
      if (byte !== CR) out[n++] = byte;
      else {
        out[n++] = LF;
        if (bytes[i + 1] === LF) i++;
      }
    }
    yield out.subarray(0, n);
  }
}

/**
 * A lookup must stay one short line: the unresolved file holds one lookup a line, read again as a
 * --file.
 */
function checkLookup(value: string, where: () => string): string {
  if (/[\r\n]/.test(value))
    throw new UsageError(
      `${where()}: "${oneLine(value)}" spans several lines; a lookup must be one line`,
    );
  if (Buffer.byteLength(value) > MAX_LOOKUP_BYTES) throw new UsageError(`${where()}: ${TOO_LONG}`);
  return value;
}
