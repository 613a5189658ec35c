// The streaming outputs: what the writers put out batch by batch (and that --json is one valid
// document of the merged shape), backpressure and a closed stdout, the progress line, and the
// unresolved file.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';

import { afterAll, describe, expect, it } from 'vitest';

import type { MerchantResult } from '../../src/api/merchants.js';
import { type FitColumn, fitWidths } from '../../src/core/output/fit.js';
import type { OutputFormat } from '../../src/core/output/render.js';
import { progressLine } from '../../src/core/stream/progress.js';
import { OutputSink, StdoutClosedError } from '../../src/core/stream/sink.js';
import { summaryLine } from '../../src/merchants/summary.js';
import {
  checkWritable,
  defaultUnresolvedPath,
  whyNot,
  writeUnresolved,
} from '../../src/merchants/unresolved.js';
import { createWriter } from '../../src/merchants/writers.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-output-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FOUND: MerchantResult = {
  input: '9756038350856888',
  type: 'terminal',
  matched: true,
  merchant: 'Himalayan Interiors',
  mcc: '5712',
  category: 'home',
  city: 'Kathmandu',
  terminal: '9756038350856888',
};
const QUOTED: MerchantResult = {
  ...FOUND,
  input: 'Say "Cheese", Cafe\u001b[31m',
  type: 'name',
  merchant: 'Cafe\tLine',
};
const MISSING: MerchantResult = { input: '1000000000000000', type: 'terminal', matched: false };
const META = { source: 'svc mock merchant directory', as_of: '2026-11-01' };

function collector(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.setEncoding('utf8').on('data', (d: string) => (text += d));
  return { stream, text: () => text };
}

async function render(
  format: OutputFormat,
  batches: MerchantResult[][],
  options: { terminal?: boolean; complete?: boolean; meta?: unknown } = {},
): Promise<string> {
  const out = collector();
  const writer = await createWriter({
    format,
    sink: new OutputSink(out.stream),
    terminal: options.terminal ?? false,
    width: 100,
    color: false,
  });
  for (const batch of batches) await writer.write(batch);
  await writer.finish('meta' in options ? options.meta : META, options.complete ?? true);
  await new Promise((resolve) => setImmediate(resolve));
  return out.text();
}

describe('--json', () => {
  it('writes the merged reply as one document, counts after the results', async () => {
    const text = await render('json', [[FOUND, QUOTED], [], [MISSING]]);
    expect(JSON.parse(text)).toEqual({
      data: { results: [FOUND, QUOTED, MISSING], count: 3, matched: 2 },
      meta: META,
    });
    // Pretty-printed with two spaces, as every --json output.
    expect(text).toBe(JSON.stringify(JSON.parse(text), null, 2) + '\n');
  });

  it('writes an empty result list when nothing is left to show (--unmatched, all matched)', async () => {
    expect(JSON.parse(await render('json', [[]]))).toEqual({
      data: { results: [], count: 0, matched: 0 },
      meta: META,
    });
  });

  it('closes the document over the results it has when the run stopped; nothing when it has none', async () => {
    expect(JSON.parse(await render('json', [[FOUND]], { complete: false })).data).toEqual({
      results: [FOUND],
      count: 1,
      matched: 1,
    });
    expect(await render('json', [], { complete: false, meta: undefined })).toBe('');
  });
});

describe('ndjson and csv', () => {
  it('ndjson: one compact result a line', async () => {
    const text = await render('ndjson', [[FOUND], [QUOTED, MISSING]]);
    expect(
      text
        .split('\n')
        .slice(0, -1)
        .map((line) => JSON.parse(line)),
    ).toEqual([FOUND, QUOTED, MISSING]);
  });

  it('csv: a header row, then raw values, quoted where RFC 4180 says', async () => {
    const text = await render('csv', [[FOUND, QUOTED], [MISSING]]);
    expect(text.split('\r\n')).toEqual([
      'input,type,matched,terminal,merchant,mcc,category,city',
      '9756038350856888,terminal,true,9756038350856888,Himalayan Interiors,5712,home,Kathmandu',
      '"Say ""Cheese"", Cafe\u001b[31m",name,true,9756038350856888,Cafe\tLine,5712,home,Kathmandu',
      '1000000000000000,terminal,false,,,,,',
      '',
    ]);
    expect(await render('csv', [[]])).toBe(
      'input,type,matched,terminal,merchant,mcc,category,city\r\n',
    );
  });
});

describe('the table', () => {
  it('in a pipe: a header line and tab-separated lines, control characters and tabs removed', async () => {
    const text = await render('table', [[FOUND], [QUOTED, MISSING]]);
    expect(text.split('\n')).toEqual([
      'INPUT\tTERMINAL\tMERCHANT\tMCC\tCATEGORY\tCITY\tMATCHED',
      '9756038350856888\t9756038350856888\tHimalayan Interiors\t5712\thome\tKathmandu\tyes',
      'Say "Cheese", Cafe[31m\t9756038350856888\tCafe Line\t5712\thome\tKathmandu\tyes',
      '1000000000000000\t\t\t\t\t\tno',
      '',
    ]);
  });

  it('on a terminal: aligned columns, a row a line, long inputs and merchant names cut to fit the width, terminal numbers whole', async () => {
    const long: MerchantResult = {
      ...FOUND,
      input: 'A very long merchant name as written on a statement line',
      merchant: 'Another very long clean merchant name for the table',
    };
    const lines = (await render('table', [[FOUND, long], [MISSING]], { terminal: true }))
      .trimEnd()
      .split('\n');
    expect(lines).toHaveLength(4);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(100);
    expect(lines[2]).toMatch(
      /^A very long merchant nam… 9756038350856888 Another very long clean… +5712 /,
    );
    expect(lines.at(-1)).toMatch(/^1000000000000000 +no$/);
  });

  it('-o wide on a terminal: aligned columns, long inputs and merchant names wrapped to fit the width, nothing cut, terminal numbers whole', async () => {
    const long: MerchantResult = {
      ...FOUND,
      input: 'A very long merchant name as written on a statement line',
      merchant: 'Another very long clean merchant name for the table',
    };
    const text = await render('wide', [[FOUND, long], [MISSING]], { terminal: true });
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^INPUT +TERMINAL +MERCHANT +MCC +CATEGORY +CITY +MATCHED$/);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(100);
    expect(lines[1]).toMatch(/^9756038350856888 +9756038350856888 +Himalayan Interiors/);
    expect(text).not.toContain('…');
    // The input and the merchant's name are wrapped between their words over the row's lines, never
    // cut.
    const [terminal, merchant, mcc] = [
      lines[0]!.indexOf('TERMINAL'),
      lines[0]!.indexOf('MERCHANT'),
      lines[0]!.indexOf('MCC'),
    ];
    expect(
      lines
        .slice(2, -1)
        .map((line) => line.slice(0, terminal).trim())
        .join(' ')
        .trim(),
    ).toBe(long.input);
    expect(
      lines
        .slice(2, -1)
        .map((line) => line.slice(merchant, mcc).trim())
        .join(' '),
    ).toBe(long.merchant);
    expect([lines[1], lines[2], lines.at(-1)].map((line) => line!.slice(mcc, mcc + 4))).toEqual([
      '5712',
      '5712',
      '    ',
    ]);
    expect(lines.at(-1)).toMatch(/^1000000000000000 +no$/);
  });

  it('narrows only the free-text columns', () => {
    // Columns of one header letter and one long word each: the width of their text.
    const columns = (widths: number[]): FitColumn[] =>
      widths.map((w, i) => ({
        fit: FLEX[i] ? 'wrap' : 'keep',
        header: 'H',
        cells: ['x'.repeat(w)],
      }));
    // 136 characters and 6 gaps of 2 are 48 too many for 100: the two free-text columns give 24
    // each.
    expect(fitWidths(columns([40, 19, 40, 4, 13, 13, 7]), 100 - 12)).toEqual([
      16, 19, 16, 4, 13, 13, 7,
    ]);
    expect(fitWidths(columns([10, 19, 10, 4, 13, 13, 7]), 100 - 12)).toEqual([
      10, 19, 10, 4, 13, 13, 7,
    ]);
  });
});

describe('OutputSink', () => {
  it('waits for drain when the stream is full', async () => {
    const chunks: string[] = [];
    let release!: () => void;
    const slow = new Writable({
      highWaterMark: 4,
      write(chunk, _encoding, callback) {
        chunks.push(String(chunk));
        release = callback;
      },
    });
    const sink = new OutputSink(slow);
    let written = false;
    const write = sink.write('0123456789').then(() => (written = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toBe(false);
    release();
    await write;
    expect(written).toBe(true);
    expect(chunks).toEqual(['0123456789']);
  });

  it('ends with StdoutClosedError when the reader went away', async () => {
    const closing = new Writable({
      highWaterMark: 1,
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    const sink = new OutputSink(closing);
    await expect(sink.write('first')).rejects.toThrow(StdoutClosedError);
    await expect(sink.write('second')).rejects.toThrow(StdoutClosedError);
  });
});

/** Which merchant columns are free text: input and merchant. */
const FLEX = [true, false, true, false, false, false, false];

describe('the line that sums a run up', () => {
  const tally = {
    lookups: 2_500,
    answered: 2_500,
    matched: 2_032,
    duplicates: 416,
    calls: 3,
    seconds: 1.23,
  };

  it('names the lookups, those matched and not found, the duplicates, the calls and the time, the time in tenths rounded up', () => {
    expect(summaryLine(tally, true, 80)).toBe(
      '2,500 lookups, 2,032 matched, 468 not found, 416 duplicates, 3 calls in 1.3s',
    );
    expect(summaryLine({ ...tally, seconds: 0.01 }, true, 80)).toMatch(/ in 0\.1s$/);
    expect(summaryLine({ ...tally, seconds: 75 }, true, 80)).toMatch(/ in 1m15s$/);
  });

  it('leaves out the duplicates, then the lookups not found, where the line has no room; never the calls or the time', () => {
    expect(summaryLine(tally, true, 60)).toBe(
      '2,500 lookups, 2,032 matched, 468 not found, 3 calls in 1.3s',
    );
    expect(summaryLine(tally, true, 50)).toBe('2,500 lookups, 2,032 matched, 3 calls in 1.3s');
    expect(summaryLine(tally, true, 20)).toBe('2,500 lookups, 2,032 matched, 3 calls in 1.3s');
  });

  it('after a run that stopped, says what was answered before it did', () => {
    expect(summaryLine({ ...tally, answered: 1_000, matched: 813 }, false, 80)).toBe(
      '1,000 lookups answered before the run stopped: 813 matched, 187 not found',
    );
  });
});

describe('progressLine', () => {
  it('shows lookups and calls done of all, the rate and the time left', () => {
    expect(
      progressLine(
        { items: 12_000, calls: 12 },
        { items: 25_000, calls: 25, noun: 'lookups' },
        3,
        120,
      ),
    ).toBe(
      '[██████████████················] 12,000/25,000 lookups · 12/25 calls · 4,000/s · ETA 4s',
    );
  });

  it('before any call has ended it knows no rate', () => {
    expect(
      progressLine(
        { items: 0, calls: 0 },
        { items: 2_00_000, calls: 200, noun: 'lookups' },
        0,
        120,
      ),
    ).toContain('0/2,00,000 lookups · 0/200 calls · …/s · ETA …');
  });

  it('never writes past the terminal width', () => {
    expect(
      [...progressLine({ items: 5, calls: 1 }, { items: 10, calls: 2, noun: 'lookups' }, 1, 30)]
        .length,
    ).toBeLessThan(30);
  });
});

describe('the unresolved file', () => {
  it('is named after the time, in the current folder', () => {
    expect(defaultUnresolvedPath(new Date('2026-11-22T09:15:03.120Z'))).toBe(
      join(process.cwd(), 'svc-unresolved-20261122-091503.txt'),
    );
  });

  it('holds one lookup a line, in order, written through a temporary file', async () => {
    const path = join(dir, 'out.txt');
    writeFileSync(path, 'old content\n');
    const lookups = [
      { type: 'terminal' as const, value: '9756038350856888' },
      { type: 'name' as const, value: 'Joshi Tarkari Pasal' },
    ];
    expect(await writeUnresolved(path, lookups, true)).toEqual({ path, count: 2 });
    expect(readFileSync(path, 'utf8')).toBe('9756038350856888\nJoshi Tarkari Pasal\n');
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('under the default name never replaces a file that is there', async () => {
    const path = join(dir, 'svc-unresolved-x.txt');
    writeFileSync(path, 'keep me\n');
    const written = await writeUnresolved(path, [{ type: 'name', value: 'Cafe' }], false);
    expect(written).toEqual({ path: join(dir, 'svc-unresolved-x-2.txt'), count: 1 });
    expect(readFileSync(path, 'utf8')).toBe('keep me\n');
    expect(readFileSync(written.path, 'utf8')).toBe('Cafe\n');
  });

  it('refuses a --failed-out in a missing folder or that is a folder, before any request', async () => {
    await expect(checkWritable(join(dir, 'no', 'such', 'out.txt'))).rejects.toThrow(
      /--failed-out .*: the folder .* does not exist/,
    );
    // A folder that is there but takes no file, and a read-only one, are named for what they are.
    expect(whyNot(Object.assign(new Error('x'), { code: 'ENOENT' }), '/proc')).toBe(
      'the folder /proc takes no new file',
    );
    expect(whyNot(Object.assign(new Error('x'), { code: 'EROFS' }), '/mnt/ro')).toBe(
      'cannot write in /mnt/ro (a read-only file system)',
    );
    await expect(checkWritable(dir)).rejects.toThrow(/it is a directory/);
    await expect(checkWritable(join(dir, 'fine.txt'))).resolves.toBeUndefined();
    expect(existsSync(join(dir, 'fine.txt'))).toBe(false);
  });
});
