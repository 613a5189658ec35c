// --each-line's parts: the line each lookup is on (lines and CSV records, however the input comes
// in chunks), the index that knows each distinct lookup again with the first reading's keys, and
// the store that keeps the calls' results and writes them back a record a line.
import { Readable } from 'node:stream';

import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';

import type { MerchantResult } from '../../src/api/merchants.js';
import { CliError } from '../../src/core/errors.js';
import { stringifyExact } from '../../src/core/json/exact-stringify.js';
import { type LineRecord, ResultStore } from '../../src/merchants/each-line.js';
import { type Lookup, LookupSet } from '../../src/merchants/lookup-set.js';
import { addFile, classify, type LookupTarget } from '../../src/merchants/lookups.js';
import type { ResultWriter } from '../../src/merchants/writers.js';

/** What a reading hands on: each lookup's value with its line. */
async function linesOf(
  text: string | Buffer,
  column?: string,
  chunks?: number[],
): Promise<[number, string][]> {
  const seen: [number, string][] = [];
  const target: LookupTarget = {
    add: (lookup, line) => seen.push([line!, lookup.value]),
    addTerminalBytes: (bytes, start, end, line) =>
      seen.push([line!, bytes.toString('latin1', start, end)]),
  };
  const bytes = Buffer.from(text);
  const pieces: Buffer[] = [];
  let at = 0;
  for (const size of chunks ?? []) pieces.push(bytes.subarray(at, (at += size)));
  pieces.push(bytes.subarray(at));
  await addFile(Readable.from(pieces.filter((piece) => piece.length > 0)), target, {
    file: 'f',
    column,
  });
  return seen;
}

describe('the line each lookup is on', () => {
  it('counts lines as an editor does: LF, CRLF and a lone CR each end one; a byte-order mark and blank lines take none of their own', async () => {
    expect(
      await linesOf('\uFEFF9756038350856888\r\n\r\nCafe\rTea\n\n  Shop  \n9756038350856888'),
    ).toEqual([
      [1, '9756038350856888'],
      [3, 'Cafe'],
      [4, 'Tea'],
      [6, 'Shop'],
      [7, '9756038350856888'],
    ]);
  });

  it('gives a CSV cell the line its record starts on: the header row is line 1, quoted line breaks and blank lines count', async () => {
    const csv =
      '\uFEFFdate,memo,narration\r\n2026-10-01,"a\r\nb",Cafe\r\n\r\n2026-10-02,"x\ry\rz",9756038350856888\n2026-10-03,,\n2026-10-04,"""q""",Tea';
    expect(await linesOf(csv, 'narration')).toEqual([
      [2, 'Cafe'],
      [5, '9756038350856888'],
      [9, 'Tea'],
    ]);
  });

  it('the same however the input comes in chunks (a CRLF cut in two included)', async () => {
    const line = fc.constantFrom('9756038350856888', 'Cafe', '', '  ', 'Tea Shop');
    const cell = fc.constantFrom('', 'a', '"b\r\nc"', '"d\re"', '"f\ng"');
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 30 }),
        fc.array(fc.tuple(cell, line), { maxLength: 20 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.array(fc.integer({ min: 1, max: 9 }), { maxLength: 60 }),
        async (lines, records, eol, chunks) => {
          const text = lines.join(eol);
          const nonBlank = (pairs: [number, string][]) => pairs.filter(([, value]) => value !== '');
          expect(await linesOf(text, undefined, chunks)).toEqual(
            nonBlank(lines.map((value, i) => [i + 1, value.trim()])),
          );
          const csv = [
            'memo,narration',
            ...records.map(([memo, value]) => `${memo},${value}`),
          ].join(eol);
          // Record k starts after the header and the lines of the records before it (each memo in
          // quotes holds one line break).
          let line = 2;
          const starts = records.map(
            ([memo]) => (
              (line += 1 + (memo.startsWith('"') ? 1 : 0)),
              line - 1 - (memo.startsWith('"') ? 1 : 0)
            ),
          );
          expect(await linesOf(csv, 'narration', chunks)).toEqual(
            nonBlank(records.map(([, value], k) => [starts[k]!, value.trim()])),
          );
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('LookupSet.toIndex', () => {
  it('knows each lookup again by the same keys: the first appearances are those the set counted, in the same order', () => {
    const value = fc.oneof(
      fc.constantFrom(
        'Cafe',
        'cafe',
        'नमस्ते',
        '9756038350856888',
        '97560383508568881',
        '975603835085688812',
        '9756038350856888123',
      ),
      fc.string({ maxLength: 6 }),
      fc.stringMatching(/^\d{16,19}$/),
    );
    fc.assert(
      fc.property(fc.array(value, { maxLength: 400 }), (values) => {
        const lookups = values.map(classify).filter((x): x is Lookup => x !== undefined);
        const set = new LookupSet({ keep: false });
        const firsts = lookups.map((lookup) => set.add(lookup));
        const index = set.toIndex();
        const numbers: number[] = [];
        let next = 0;
        lookups.forEach((lookup, i) => {
          const entry = index.entryOf(lookup);
          expect(index.isNew).toBe(firsts[i]);
          if (index.isNew) index.setValue(entry, next++);
          numbers.push(index.value(entry));
        });
        // Each lookup's number is that of its first appearance.
        const reference = new Map<string, number>();
        let counted = 0;
        expect(numbers).toEqual(
          lookups.map(
            (x) =>
              reference.get(x.type + x.value) ??
              (reference.set(x.type + x.value, counted++), counted - 1),
          ),
        );
        expect(next).toBe(set.size);
      }),
    );
  });

  it('takes a terminal as bytes or as text alike', () => {
    const set = new LookupSet({ keep: false });
    set.add({ type: 'terminal', value: '9756038350856888' });
    const index = set.toIndex();
    index.setValue(index.entryOfTerminalBytes(Buffer.from('x9756038350856888'), 1, 17), 7);
    expect(index.isNew).toBe(true);
    expect(index.value(index.entryOf({ type: 'terminal', value: '9756038350856888' }))).toBe(7);
    expect(index.isNew).toBe(false);
  });
});

describe('ResultStore', () => {
  const stores: ResultStore[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });

  const result = (value: string, extra: Record<string, unknown> = {}): MerchantResult => ({
    input: value,
    type: 'name',
    matched: value.startsWith('M'),
    ...extra,
  });

  /** A writer that keeps what it is given. */
  function collecting(): ResultWriter & { records: LineRecord[] } {
    const records: LineRecord[] = [];
    return {
      records,
      write: async (rows) => void records.push(...(rows as LineRecord[])),
      finish: async () => {},
    };
  }

  /**
   * Counts the lines' lookups, keeps the calls' results (in `order`, `size` a call), and writes the
   * lines.
   */
  async function run(
    lines: string[],
    size: number,
    order: (calls: number) => number[],
    results: (value: string) => MerchantResult = result,
    skip: number[] = [],
  ) {
    const text = lines.join('\n');
    const set = new LookupSet({ keep: true });
    for (const line of lines) if (line !== '') set.add({ type: 'name', value: line });
    const distinct = [...set];
    const store = await ResultStore.open();
    stores.push(store);
    const calls = Math.ceil(distinct.length / size);
    for (const index of order(calls)) {
      if (skip.includes(index)) continue;
      const lookups = distinct.slice(index * size, (index + 1) * size);
      await store.keep(
        { index, first: index * size, lookups },
        lookups.map((x) => results(x.value)),
      );
    }
    const writer = collecting();
    await store.writeLines(
      { read: async () => Readable.from([text]), file: 'f', index: () => set.toIndex() },
      writer,
      { unmatchedOnly: false },
    );
    return writer.records;
  }

  it('writes a record for each line, in order, from calls kept in any order', async () => {
    const lines = ['Mart', 'Cafe', '', 'Mart', 'Tea', 'Cafe', 'Mill'];
    const records = await run(lines, 2, () => [1, 0]);
    expect(records).toEqual([
      { line: 1, ...result('Mart') },
      { line: 2, ...result('Cafe') },
      { line: 4, ...result('Mart') },
      { line: 5, ...result('Tea') },
      { line: 6, ...result('Cafe') },
      { line: 7, ...result('Mill') },
    ]);
  });

  it('leaves out the lines of a call that was not kept', async () => {
    const records = await run(
      ['A', 'B', 'C', 'A', 'D', 'C'],
      2,
      (n) => [...Array(n).keys()],
      result,
      [1],
    );
    expect(records.map((x) => [x.line, x.input])).toEqual([
      [1, 'A'],
      [2, 'B'],
      [4, 'A'],
    ]);
  });

  it('finds the result of a repeat far behind, past its cache, and results longer than what it reads at a time, in a store too large to hold whole', async () => {
    const distinct = Array.from({ length: 20_000 }, (_, i) => `Shop ${i}`);
    const lines = [...distinct, ...distinct.slice().reverse(), 'Shop 3'];
    // 20,000 results of 1 KB: past the 16 MiB of a store read whole into memory.
    const long = (value: string) =>
      result(value, { note: value === 'Shop 5' ? 'x'.repeat(300_000) : 'y'.repeat(1000) });
    const records = await run(lines, 1000, (n) => [...Array(n).keys()].reverse(), long);
    expect(records).toHaveLength(lines.length);
    records.forEach((record, i) => expect([record.line, record.input]).toEqual([i + 1, lines[i]]));
    expect(
      records.filter((x) => x.input === 'Shop 5').map((x) => (x.note as string).length),
    ).toEqual([300_000, 300_000]);
    expect(records.filter((x) => x.input === 'Shop 6').map((x) => x.note)).toEqual([
      'y'.repeat(1000),
      'y'.repeat(1000),
    ]);
  });

  it('in a store held whole, as in one read from its file', async () => {
    const records = await run(['Mart', 'Cafe', 'Mart', 'Tea', 'Cafe'], 2, () => [2, 0, 1]);
    expect(records.map((x) => [x.line, x.input])).toEqual([
      [1, 'Mart'],
      [2, 'Cafe'],
      [3, 'Mart'],
      [4, 'Tea'],
      [5, 'Cafe'],
    ]);
  });

  it('keeps every number as received', async () => {
    const body = JSON.parse(
      '{"input":"Cafe","type":"name","matched":true,"score":1.10}',
    ) as MerchantResult;
    const { exactBody } = await import('../../src/core/json/exact-json.js');
    const exact = exactBody(
      '{"input":"Cafe","type":"name","matched":true,"score":1.10}',
      body,
    ) as MerchantResult;
    const records = await run(
      ['Cafe', 'Cafe'],
      10,
      () => [0],
      () => exact,
    );
    expect(records.map((x) => stringifyExact(x))).toEqual([
      '{"line":1,"input":"Cafe","type":"name","matched":true,"score":1.10}',
      '{"line":2,"input":"Cafe","type":"name","matched":true,"score":1.10}',
    ]);
  });

  it('a result that cannot be kept fails its call with one clear error (its lookups are then listed as not resolved)', async () => {
    const store = await ResultStore.open();
    await store.close();
    const keeping = store.keep({ index: 0, first: 0, lookups: [{ type: 'name', value: 'Cafe' }] }, [
      result('Cafe'),
    ]);
    await expect(keeping).rejects.toMatchObject({
      exitCode: 1,
      message: expect.stringMatching(
        /^cannot keep the results for --each-line in the temporary folder: /,
      ),
    });
  });

  it('is refused with one clear error (exit 1) when the temporary folder takes no file', async () => {
    const before = process.env.TMPDIR;
    process.env.TMPDIR = '/nonexistent/svc-tmp';
    try {
      const opening = ResultStore.open();
      await expect(opening).rejects.toBeInstanceOf(CliError);
      await expect(ResultStore.open()).rejects.toMatchObject({
        exitCode: 1,
        message: expect.stringMatching(
          /^cannot keep the results for --each-line in the temporary folder: /,
        ),
      });
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
  });
});
