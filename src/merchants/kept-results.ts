// The results of an --each-line run that stopped short (Ctrl-C, a call that failed, svc ended while
// writing the records), kept so that the work paid for is not lost: `--resume FILE` then writes
// every record without sending those lookups again. The file is in svc's data folder, svc's own:
// mode 0600 in a folder of mode 0700, created exclusively under a name nobody can foresee. Its
// first line says what the results are for (the SHA-256 of the input's bytes, its column, the
// count of its distinct lookups and calls) and where each call's results are; then the results, a
// JSON line each, call after call, as the run kept them (each-line.ts).
import { randomBytes } from 'node:crypto';
import { closeSync, constants, mkdirSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { join } from 'node:path';

import { UsageError } from '../core/errors.js';
import { whyUnreadable } from '../core/fs-errors.js';
import { exactBody } from '../core/json/exact-json.js';
import { stringifyExact } from '../core/json/exact-stringify.js';
import { isRecord } from '../core/json/values.js';
import { type CallResults, type ResultStore, RESUME_OTHER_INPUT } from './each-line.js';

/** What the kept results are for. */
export interface KeptInput {
  /** --file as given, for messages. */
  file: string;
  column?: string;
  /** The SHA-256 (hex) of the input's bytes. */
  sha256: string;
  /** Its distinct lookups, and the calls they take. */
  lookups: number;
  calls: number;
}

const KEPT_BY = 'svc merchants resolve --each-line';
const VERSION = 1;
/** The first line is read up to this size: a million lookups' calls take some 60 KiB of it. */
const MAX_HEADER_BYTES = 4 * 1024 * 1024;
/** Created here or not at all: never through a link planted in its place. */
const NEW_FILE_ONLY =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/**
 * Writes the store's results to a new file in `folder` and returns its path. Synchronous: it is
 * also what svc does as it is ended (a second Ctrl-C), when nothing after it would run.
 */
export function keepResults(
  store: ResultStore,
  folder: string,
  input: KeptInput,
  meta: unknown,
  now: Date,
): string {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/-|:/g, '')
    .replace('T', '-');
  const path = join(folder, `resolve-${stamp}-${randomBytes(4).toString('hex')}.jsonl`);
  const calls = store
    .calls()
    .map(({ first, count, matched, bytes }) => ({ first, count, matched, bytes }));
  const header = {
    kept_by: KEPT_BY,
    version: VERSION,
    file: input.file,
    column: input.column ?? null,
    sha256: input.sha256,
    lookups: input.lookups,
    calls: input.calls,
    meta: meta ?? null,
    kept: calls,
  };
  const fd = openSync(path, NEW_FILE_ONLY, 0o600);
  try {
    writeSync(fd, stringifyExact(header) + '\n');
    store.copyTo(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(path);
    throw error;
  }
  closeSync(fd);
  return path;
}

/** The kept results of an earlier run, given with --resume. */
export class KeptResults {
  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    /** Where the results start. */
    private readonly start: number,
    readonly input: Omit<KeptInput, 'lookups' | 'calls'> & { lookups: number },
    readonly meta: unknown,
    private readonly kept: readonly (CallResults & { bytes: number })[],
  ) {}

  /**
   * Opens and checks a file of kept results; one that is not (or is damaged) is refused (exit 2).
   */
  static async open(path: string): Promise<KeptResults> {
    let handle: FileHandle;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      throw new UsageError(`--resume ${path}: ${whyUnreadable(error)}`);
    }
    try {
      const size = (await handle.stat()).size;
      const head = Buffer.alloc(Math.min(size, MAX_HEADER_BYTES));
      await handle.read(head, 0, head.length, 0);
      const end = head.indexOf(0x0a);
      const text = end < 0 ? undefined : head.toString('utf8', 0, end);
      let header: unknown;
      try {
        header = text === undefined ? undefined : exactBody(text, JSON.parse(text));
      } catch {
        header = undefined;
      }
      const kept =
        isRecord(header) && header.kept_by === KEPT_BY && header.version === VERSION
          ? callsOf(header)
          : undefined;
      if (
        !isRecord(header) ||
        !kept ||
        typeof header.sha256 !== 'string' ||
        typeof header.file !== 'string' ||
        !isCount(header.lookups)
      ) {
        throw new UsageError(
          `--resume ${path}: not a file of results kept by svc merchants resolve --each-line`,
        );
      }
      if (end + 1 + kept.reduce((sum, call) => sum + call.bytes, 0) !== size) {
        throw new UsageError(
          `--resume ${path}: the file is damaged (its results do not add up to its size)`,
        );
      }
      const column = typeof header.column === 'string' ? header.column : undefined;
      return new KeptResults(
        path,
        handle,
        end + 1,
        { file: header.file, column, sha256: header.sha256, lookups: header.lookups },
        header.meta ?? undefined,
        kept,
      );
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Refused (exit 2, nothing sent) unless the run's input is the one whose results these are. */
  check(input: Omit<KeptInput, 'calls'>): void {
    const same =
      input.sha256 === this.input.sha256 &&
      input.column === this.input.column &&
      input.lookups === this.input.lookups;
    if (!same) {
      const was = `${this.input.file}${this.input.column === undefined ? '' : `, column ${this.input.column}`}`;
      throw new UsageError(
        `--resume ${this.path} holds the results of another input (${was}, as it was then)`,
        [RESUME_OTHER_INPUT],
      );
    }
  }

  /** How many calls, lookups and matches the kept results answer. */
  get tally(): { calls: number; lookups: number; matched: number } {
    return this.kept.reduce(
      (sum, call) => ({
        calls: sum.calls + 1,
        lookups: sum.lookups + call.count,
        matched: sum.matched + call.matched,
      }),
      { calls: 0, lookups: 0, matched: 0 },
    );
  }

  /**
   * Copies the kept results into the run's store, call by call, each checked to hold its count of
   * lines.
   */
  async copyInto(store: ResultStore): Promise<void> {
    let at = this.start;
    for (const call of this.kept) {
      const lines = Buffer.alloc(call.bytes);
      await this.handle.read(lines, 0, call.bytes, at);
      at += call.bytes;
      let count = 0;
      for (let end = lines.indexOf(0x0a); end >= 0; end = lines.indexOf(0x0a, end + 1)) count++;
      if (count !== call.count || (call.bytes > 0 && lines[call.bytes - 1] !== 0x0a))
        throw new UsageError(
          `--resume ${this.path}: the file is damaged (a call's results are cut)`,
        );
      await store.adopt(call, lines);
    }
  }

  async close(): Promise<void> {
    await this.handle.close().catch(() => {});
  }
}

/** The `kept` list of a header, each call well formed; undefined otherwise. */
function callsOf(header: Record<string, unknown>): (CallResults & { bytes: number })[] | undefined {
  const kept = header.kept;
  if (!Array.isArray(kept)) return undefined;
  const calls = kept.map((call: unknown) =>
    isRecord(call) &&
    isCount(call.first) &&
    isCount(call.count) &&
    isCount(call.matched) &&
    isCount(call.bytes)
      ? { first: call.first, count: call.count, matched: call.matched, bytes: call.bytes }
      : undefined,
  );
  return calls.every((call) => call !== undefined) ? calls : undefined;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
