// --each-line: a record for each line of --file, in the file's order, duplicates repeated, each
// with its `line` (counted from 1 as an editor does, a CSV's header row being line 1), so that a
// spreadsheet joins the results to its rows. The calls still look each distinct lookup up once.
//
// Memory stays flat however long the input: the results of the calls go to a private file as they
// come (ResultStore: one JSON line a result, a call's results together), and once the calls are
// done the input is read once more. Each line's lookup is looked for in a LookupIndex sized by the
// first reading's count (about 21 bytes a distinct lookup), which says where in the file its
// result is: a lookup met for the first time takes the next result of its call (read in order),
// a repeat reads its result again, from a cache of the latest results or from the file (read whole
// into memory when it is at most 16 MiB, some 80,000 results).
import { readSync, writeSync } from 'node:fs';
import type { Readable } from 'node:stream';

import type { MerchantResult } from '../api/merchants.js';
import { CliError, EXIT, UsageError } from '../core/errors.js';
import { whyUnreadable } from '../core/fs-errors.js';
import { exactBody } from '../core/json/exact-json.js';
import { stringifyExact } from '../core/json/exact-stringify.js';
import type { Batch } from './batches.js';
import { PrivateFile } from './input.js';
import type { Lookup, LookupIndex } from './lookup-set.js';
import { addFile, type LookupInput, type LookupTarget } from './lookups.js';
import type { ResultWriter } from './writers.js';

/** A result with the line of the input it is for. */
export type LineRecord = MerchantResult & { line: number };

/** Where the lines are read from once more. */
export interface LineSource {
  /** A new reading of --file, from its start. */
  read(): Promise<LookupInput>;
  file: string;
  column?: string;
  /**
   * The index of the run's distinct lookups (LookupSet.toIndex of the first reading), made when it
   * is needed.
   */
  index(): LookupIndex;
}

/**
 * Results written to the store in one piece: a piece's text stays a young-generation string
 * (writers.ts).
 */
const RESULTS_A_PIECE = 250;
/** Bytes read from the store at a time, in order. */
const WINDOW_BYTES = 256 * 1024;
/** A store of at most this many bytes is read whole into memory (some 80,000 results). */
const WHOLE_STORE_BYTES = 16 * 1024 * 1024;
/**
 * Results kept parsed for the lines that repeat a lookup, when the store is read from its file: the
 * latest this many.
 */
const CACHED_RESULTS = 4096;
const LF = 0x0a;

/**
 * The results of a run's calls, kept in a PrivateFile for the lines, then written a record a line.
 * `keep` is called as each call ends, in any order: a call's results are added at the file's end,
 * and where they are is noted with the place of the call's first lookup among the distinct ones.
 */
export class ResultStore {
  /** Where the next call's results go. */
  private end = 0;
  /** The calls whose results are kept, in the order they ended. */
  private readonly kept: StoredCall[] = [];

  private constructor(private readonly file: PrivateFile) {}

  /** Refused (exit 1, before any call) when the temporary folder takes no file. */
  static async open(): Promise<ResultStore> {
    try {
      return new ResultStore(await PrivateFile.create('svc-results-'));
    } catch (error) {
      throw storeFailure(error);
    }
  }

  /**
   * Keeps a call's results, in the order of its lookups; a failure to write fails the call (its
   * lookups are listed as not resolved).
   */
  async keep(batch: Batch, results: readonly MerchantResult[]): Promise<void> {
    const pieces: Buffer[] = [];
    for (let from = 0; from < results.length; from += RESULTS_A_PIECE) {
      let text = '';
      for (const result of results.slice(from, from + RESULTS_A_PIECE))
        text += stringifyExact(result) + '\n';
      pieces.push(Buffer.from(text));
    }
    const matched = results.reduce((sum, result) => sum + (result.matched ? 1 : 0), 0);
    await this.add({ first: batch.first, count: results.length, matched }, pieces);
  }

  /**
   * Keeps a call's results as they were kept by an earlier run (--resume): `lines`, a JSON line
   * each.
   */
  async adopt(call: CallResults, lines: Buffer): Promise<void> {
    await this.add(call, [lines]);
  }

  private async add(call: CallResults, pieces: readonly Buffer[]): Promise<void> {
    const at = this.end;
    const bytes = pieces.reduce((sum, piece) => sum + piece.length, 0);
    this.end += bytes;
    try {
      let position = at;
      for (const piece of pieces) {
        await this.file.handle.write(piece, 0, piece.length, position);
        position += piece.length;
      }
    } catch (error) {
      throw storeFailure(error);
    }
    this.kept.push({ ...call, at, bytes });
  }

  /** The calls whose results are kept, in the order of their lookups. */
  calls(): StoredCall[] {
    return [...this.kept].sort((a, b) => a.first - b.first);
  }

  /** Whether the results of `batch` are kept (by an earlier run: --resume). */
  holds(batch: Batch): boolean {
    return this.kept.some(
      (kept) => kept.first === batch.first && kept.count === batch.lookups.length,
    );
  }

  /**
   * Refuses (exit 2) results kept for `batch` by an earlier run that are not those of its lookups.
   * Read with readSync, as writeLines reads.
   */
  checkHeld(batch: Batch): void {
    const call = this.kept.find((kept) => kept.first === batch.first);
    if (!call) return;
    const text = Buffer.alloc(call.bytes);
    readFully(this.file.handle.fd, text, call.at);
    const lines = text.toString('utf8').split('\n', call.count);
    const isFor = (line: string | undefined, lookup: Lookup) => {
      try {
        const result = JSON.parse(line ?? '') as Partial<MerchantResult> | null;
        return (
          result?.input === lookup.value &&
          (result.type === undefined || result.type === lookup.type)
        );
      } catch {
        return false;
      }
    };
    if (
      call.count !== batch.lookups.length ||
      !batch.lookups.every((lookup, i) => isFor(lines[i], lookup))
    ) {
      throw new UsageError('the results given with --resume are not those of these lookups', [
        RESUME_OTHER_INPUT,
      ]);
    }
  }

  /** Copies the kept results, call after call in the order of their lookups, to the end of `fd`. */
  copyTo(fd: number): void {
    const chunk = Buffer.alloc(Math.min(COPY_BYTES, Math.max(1, this.end)));
    for (const call of this.calls()) {
      for (let done = 0; done < call.bytes;) {
        const length = Math.min(chunk.length, call.bytes - done);
        readFully(this.file.handle.fd, chunk.subarray(0, length), call.at + done);
        for (let written = 0; written < length;)
          written += writeSync(fd, chunk, written, length - written);
        done += length;
      }
    }
  }

  /**
   * Reads the input once more and writes, in its order, a record for each line whose lookup was
   * resolved (with `unmatchedOnly`, only those that matched no merchant). `written` is told, after
   * each write, the line up to which every line has had its record written. Ctrl-C does not stop
   * it: these results are paid for (svc ends it after a grace period, run.ts).
   */
  async writeLines(
    source: LineSource,
    writer: ResultWriter,
    options: { unmatchedOnly: boolean; written?: (line: number) => void },
  ): Promise<void> {
    const kept = this.calls();
    const index = source.index();
    const reader = new StoreReader(this.file.handle.fd, this.end);
    // The latest results, parsed, by where they are in the file: those used since the cache last
    // turned over, and those used in the turn before (two Maps: taking the oldest entry out of one
    // Map at each use is slow, V8 steps over every entry taken out before it).
    let recent = new Map<number, MerchantResult>();
    let older = new Map<number, MerchantResult>();
    const remember = (at: number, result: MerchantResult) => {
      if (recent.size >= CACHED_RESULTS / 2) {
        older = recent;
        recent = new Map();
      }
      recent.set(at, result);
    };
    /** The next distinct lookup's place, and the first kept call that may hold it. */
    let next = 0;
    let call = 0;
    const resultFor = (entry: number): MerchantResult | undefined => {
      if (index.isNew) {
        const place = next++;
        while (call < kept.length && place >= kept[call]!.first + kept[call]!.count) call++;
        const from = kept[call];
        if (!from || place < from.first) {
          // A lookup of a call that failed or never started: its line has no record.
          index.setValue(entry, -1);
          return undefined;
        }
        if (place === from.first) reader.seek(from.at);
        const at = reader.position;
        const result = parsed(reader.next());
        index.setValue(entry, at);
        if (!reader.whole) remember(at, result);
        return result;
      }
      const at = index.value(entry);
      if (at < 0) return undefined;
      // Held whole, a result is parsed again at each use: cheaper than a cache, whose results
      // live long enough to reach V8's old generation.
      if (reader.whole) return parsed(reader.lineAt(at));
      let result = recent.get(at);
      if (result) return result;
      result = older.get(at) ?? parsed(reader.lineAt(at));
      remember(at, result);
      return result;
    };
    let records: LineRecord[] = [];
    /** The line of the latest lookup read. */
    let lastLine = 0;
    const take = (entry: number, line: number | undefined) => {
      lastLine = line!;
      const result = resultFor(entry);
      if (!result || (options.unmatchedOnly && result.matched)) return;
      const record = { line, ...result } as LineRecord;
      // The line is svc's: a field of that name in a result does not take its place.
      record.line = line!;
      records.push(record);
    };
    const target: LookupTarget = {
      add: (lookup, line) => take(index.entryOf(lookup), line),
      addTerminalBytes: (bytes, start, end, line) =>
        take(index.entryOfTerminalBytes(bytes, start, end), line),
    };
    // Written a piece at a time (a chunk of the input is thousands of lines), so that no piece's
    // text is a string large enough to be made in V8's old generation, which only a full
    // collection frees (writers.ts).
    const flush = async () => {
      const taken = records;
      records = [];
      for (let from = 0; from < taken.length; from += RESULTS_A_PIECE) {
        const piece =
          from === 0 && taken.length <= RESULTS_A_PIECE
            ? taken
            : taken.slice(from, from + RESULTS_A_PIECE);
        await writer.write(piece);
        options.written?.(piece[piece.length - 1]!.line);
      }
      // The lines read with no record (a lookup not resolved, or matched with --unmatched) are done
      // too.
      options.written?.(lastLine);
    };
    const input = await source.read();
    try {
      await addFile(
        input,
        target,
        { file: source.file, column: source.column },
        { onChunk: flush },
      );
      await flush();
    } finally {
      (input as Readable).destroy?.();
    }
  }

  async close(): Promise<void> {
    await this.file.close();
  }
}

/**
 * A call whose results are kept: its first lookup's place among the distinct ones, how many, how
 * many matched.
 */
export interface CallResults {
  first: number;
  count: number;
  matched: number;
}

/** A call's results in the store: where they are, and how many bytes they take. */
export interface StoredCall extends CallResults {
  at: number;
  bytes: number;
}

/** Bytes copied at a time from the store to a file that keeps the results. */
const COPY_BYTES = 1024 * 1024;

/** What to do about results kept for other lookups than the run's. */
export const RESUME_OTHER_INPUT =
  'Give the --file (and --column) of the run that kept them, unchanged, or run without --resume.';

function readFully(fd: number, into: Buffer, at: number): void {
  for (let read = 0; read < into.length;) {
    const got = readSync(fd, into, read, into.length - read, at + read);
    if (got === 0) throw new Error('the results kept for --each-line end before their place');
    read += got;
  }
}

function parsed(text: string): MerchantResult {
  return exactBody(text, JSON.parse(text)) as MerchantResult;
}

function storeFailure(error: unknown): CliError {
  return new CliError(
    `cannot keep the results for --each-line in the temporary folder: ${whyUnreadable(error)}`,
    EXIT.failure,
    ['Set TMPDIR to a folder with room (the results take about 250 bytes a distinct lookup).'],
  );
}

/**
 * The store's lines read back: in order from a window of the file (a call's results, one after
 * the other), or one at any place (a repeat's). Read with readSync: nothing else runs while the
 * lines are written, and a read of a few hundred bytes costs less than a promise's round trip.
 */
class StoreReader {
  /** Where the next line starts. */
  position = 0;
  /** The whole store is in memory. */
  readonly whole: boolean;
  private window: Buffer = Buffer.alloc(WINDOW_BYTES);
  /** Where in the file the window starts, and how much of it was read. */
  private windowAt = 0;
  private windowLength = 0;
  private scratch: Buffer = Buffer.alloc(4096);
  /** Bytes read by the last fill. */
  private filled = 0;

  constructor(
    private readonly fd: number,
    private readonly size: number,
  ) {
    // A store this small is read whole, once: a repeat then costs no read at all.
    this.whole = size > 0 && size <= WHOLE_STORE_BYTES;
    if (this.whole) {
      this.window = this.fill(Buffer.alloc(size), 0);
      this.windowLength = this.filled;
    }
  }

  seek(at: number): void {
    this.position = at;
  }

  /** The line at `position`, and `position` moved past it. */
  next(): string {
    const from = this.position - this.windowAt;
    let end = from >= 0 && from < this.windowLength ? this.window.indexOf(LF, from) : -1;
    if (end < 0 || end >= this.windowLength) {
      this.window = this.fill(this.window, this.position);
      this.windowAt = this.position;
      this.windowLength = this.filled;
      end = this.window.indexOf(LF);
      return this.taken(0, end);
    }
    return this.taken(from, end);
  }

  /** The line that starts at `at`. */
  lineAt(at: number): string {
    const from = at - this.windowAt;
    if (from >= 0 && from < this.windowLength) {
      const end = this.window.indexOf(LF, from);
      if (end >= 0 && end < this.windowLength) return this.window.toString('utf8', from, end);
    }
    this.scratch = this.fill(this.scratch, at);
    return this.scratch.toString('utf8', 0, this.scratch.indexOf(LF));
  }

  private taken(from: number, end: number): string {
    this.position = this.windowAt + end + 1;
    return this.window.toString('utf8', from, end);
  }

  /**
   * `buffer` (or a larger one, for a longer line) filled from `at`, holding at least one whole
   * line.
   */
  private fill(buffer: Buffer, at: number): Buffer {
    for (;;) {
      const length = Math.min(buffer.length, this.size - at);
      let read = 0;
      while (read < length) {
        const got = readSync(this.fd, buffer, read, length - read, at + read);
        if (got === 0) break;
        read += got;
      }
      this.filled = read;
      const end = buffer.indexOf(LF);
      if (end >= 0 && end < read) return buffer;
      if (read < buffer.length)
        throw new Error('the results kept for --each-line end in the middle of one');
      buffer = Buffer.alloc(buffer.length * 2);
    }
  }
}
