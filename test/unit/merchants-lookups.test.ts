// Reading lookups: the line rule, the distinct set in order of first appearance, files read in
// any chunking, CSV columns, and the usage errors found before any request.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';

import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';

import { UsageError } from '../../src/core/errors.js';
import { type Lookup, LookupSet } from '../../src/merchants/lookup-set.js';
import {
  addLines,
  classify,
  collectLookups,
  type LookupSources,
  MAX_LOOKUP_BYTES,
  withoutCsvHeader,
} from '../../src/merchants/lookups.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-lookups-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const never = new AbortController().signal;

function sources(extra: Partial<LookupSources>): LookupSources {
  return { terminals: [], names: [], stdin: Readable.from([]), signal: never, ...extra };
}

async function collect(extra: Partial<LookupSources>): Promise<Lookup[]> {
  return [...(await collectLookups(sources(extra)))];
}

/**
 * What the rules say, written the plain way: trim, skip blanks, classify, keep the first of each.
 */
function reference(lines: string[]): Lookup[] {
  const seen = new Map<string, Lookup>();
  for (const line of lines) {
    const value = line.trim();
    if (value === '') continue;
    const type = /^\d{16,}$/.test(value) ? 'terminal' : 'name';
    if (!seen.has(type + value)) seen.set(type + value, { type, value });
  }
  return [...seen.values()];
}

/** A stream that hands the bytes over in the given chunk sizes. */
function chunked(bytes: Buffer, sizes: number[]): Readable {
  const chunks: Buffer[] = [];
  let at = 0;
  for (const size of sizes) {
    if (at >= bytes.length) break;
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  if (at < bytes.length) chunks.push(bytes.subarray(at));
  return Readable.from(chunks);
}

describe('classify', () => {
  it.each([
    ['9756038350856888', 'terminal'],
    ['  9756038350856888\t', 'terminal'],
    ['9207897817934353038', 'terminal'],
    ['975603835085688', 'name'], // 15 digits
    ['9756 0383 5085 6888', 'name'],
    ['Bhatbhateni Supermarket', 'name'],
    ['١٢٣٤٥٦٧٨٩٠١٢٣٤٥٦', 'name'], // digits, but not ASCII ones
  ])('%j is a %s', (raw, type) => {
    expect(classify(raw)?.type).toBe(type);
  });

  it('skips blank values', () => {
    expect(classify('   ')).toBeUndefined();
    expect(classify('')).toBeUndefined();
  });
});

describe('LookupSet', () => {
  it('keeps each lookup once, in order of first appearance, and counts what was given', () => {
    const set = new LookupSet();
    for (const value of ['1111222233334444', 'Cafe', '1111222233334444', 'cafe', 'Cafe'])
      set.add(classify(value)!);
    expect([...set]).toEqual([
      { type: 'terminal', value: '1111222233334444' },
      { type: 'name', value: 'Cafe' },
      { type: 'name', value: 'cafe' },
    ]);
    expect({
      size: set.size,
      given: set.given,
      duplicates: set.duplicates,
      terminals: set.terminals,
      names: set.names,
    }).toEqual({
      size: 3,
      given: 5,
      duplicates: 2,
      terminals: 1,
      names: 2,
    });
  });

  it('tells a terminal from a name written with the same characters', () => {
    const set = new LookupSet();
    set.add({ type: 'terminal', value: '1111222233334444' });
    set.add({ type: 'name', value: '1111222233334444' });
    expect(set.size).toBe(2);
  });

  it('agrees with a plain Set on any values, across its growth and rehashing', () => {
    const value = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.stringMatching(/^\d{16,19}$/),
      fc.constantFrom('Café', 'नमस्ते', '😀 shop'),
    );
    fc.assert(
      fc.property(fc.array(value, { maxLength: 3000 }), (values) => {
        const set = new LookupSet();
        for (const v of values) {
          const lookup = classify(v);
          if (lookup) set.add(lookup);
        }
        expect([...set]).toEqual(reference(values));
      }),
      { numRuns: 60 },
    );
  });

  it('holds 200,000 distinct lookups in order', () => {
    const set = new LookupSet();
    for (let i = 0; i < 200_000; i++) set.add({ type: 'terminal', value: String(1e15 + i * 7) });
    for (let i = 0; i < 200_000; i += 3) set.add({ type: 'terminal', value: String(1e15 + i * 7) });
    expect(set.size).toBe(200_000);
    let i = 0;
    let outOfOrder = 0;
    for (const lookup of set) if (lookup.value !== String(1e15 + 7 * i++)) outOfOrder++;
    expect(outOfOrder).toBe(0);
    expect(i).toBe(200_000);
  });
});

describe('collectLookups from a file', () => {
  it('reads one value a line: LF or CRLF, a byte-order mark, blank lines and spaces ignored', async () => {
    const path = file(
      'mixed.txt',
      '\uFEFF9756038350856888\r\n\r\n  Joshi Tarkari Pasal  \n\t\n2784370393152911\nJoshi Tarkari Pasal\n9756038350856888',
    );
    expect(await collect({ file: path })).toEqual([
      { type: 'terminal', value: '9756038350856888' },
      { type: 'name', value: 'Joshi Tarkari Pasal' },
      { type: 'terminal', value: '2784370393152911' },
    ]);
  });

  it('ends a line at a lone CR too (old Mac files)', async () => {
    expect(
      await collect({ file: file('cr.txt', 'Cafe One\rCafe Two\r\n1111222233334444\r') }),
    ).toEqual([
      { type: 'name', value: 'Cafe One' },
      { type: 'name', value: 'Cafe Two' },
      { type: 'terminal', value: '1111222233334444' },
    ]);
  });

  it('gives the same lookups however the file is cut into chunks', async () => {
    const line = fc.oneof(
      fc.stringMatching(/^\d{16,19}$/),
      fc.stringMatching(/^\d{1,15}$/),
      // Separators apart (a file of such random lines may read as CSV with a header row:
      // csv-header.ts).
      fc.string({ maxLength: 20 }).filter((s) => !/[\r\n,;\t]/.test(s)),
      fc.constantFrom(
        '',
        '   ',
        'Café Namaste',
        'नमस्ते पसल',
        ' 1234567890123456 ',
        'Bhat-Bhateni Supermarket, Pvt. Ltd.',
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 60 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.array(fc.integer({ min: 1, max: 7 }), { maxLength: 200 }),
        async (lines, eol, sizes) => {
          const bytes = Buffer.from(lines.join(eol));
          const got = [
            ...(await collectLookups(sources({ file: '-', stdin: chunked(bytes, sizes) }))),
          ];
          expect(got).toEqual(reference(lines));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('refuses a line longer than 1 KiB with its number, and takes one of exactly 1 KiB', async () => {
    const longest = 'N'.repeat(MAX_LOOKUP_BYTES);
    expect(await collect({ file: file('longest.txt', `\uFEFF${longest}\n`) })).toEqual([
      { type: 'name', value: longest },
    ]);
    const tooLong =
      /too-long\.txt, line 3: more than 1024 bytes, the most a lookup \(a terminal number or a merchant name\) may have/;
    await expect(
      collect({
        file: file('too-long.txt', `Cafe\r\n1111222233334444\r\n${longest}x\r\nCafe\r\n`),
      }),
    ).rejects.toThrow(tooLong);
    // Still open at the end of the file, and lines ended by a lone CR.
    await expect(
      collect({ file: file('too-long.txt', `Cafe\rTea\r${'9'.repeat(MAX_LOOKUP_BYTES + 1)}`) }),
    ).rejects.toThrow(tooLong);
    await expect(
      collect({ file: file('too-long.txt', `Cafe\n\n${'9'.repeat(MAX_LOOKUP_BYTES + 1)}`) }),
    ).rejects.toBeInstanceOf(UsageError);
  });

  it('refuses a line that is not UTF-8 with its number, and takes any UTF-8 name', async () => {
    const latin1 = Buffer.concat([
      Buffer.from('1111222233334444\nCaf'),
      Buffer.from([0xe9]),
      Buffer.from(' Nepal\n'),
    ]);
    await expect(collect({ file: file('latin1.txt', latin1) })).rejects.toThrow(
      /latin1\.txt, line 2: not UTF-8 text \(save the file as UTF-8\)/,
    );
    expect(await collect({ file: file('utf8.txt', 'Café Nepal\nनेपाल\n') })).toEqual([
      { type: 'name', value: 'Café Nepal' },
      { type: 'name', value: 'नेपाल' },
    ]);
  });

  it('refuses a long line after reading at most one chunk past its first 1 KiB (linear time, whatever its length)', async () => {
    // 4 MiB on one line (its length does not matter), handed over 64 KiB at a time as it is asked
    // for.
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let read = 0;
    const oneLongLine = Readable.from(
      (function* () {
        for (let i = 0; i < 64; i++) {
          read++;
          yield chunk;
        }
      })(),
      { highWaterMark: 1 },
    );
    await expect(addLines(oneLongLine, new LookupSet(), 'huge.txt')).rejects.toThrow(
      /huge\.txt, line 1: more than 1024 bytes/,
    );
    expect(read).toBeLessThanOrEqual(2);
  });

  it('refuses a long line however the file is cut into chunks, naming its line', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('Cafe', '1111222233334444', '', ' '), { maxLength: 20 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.array(fc.integer({ min: 1, max: 700 }), { maxLength: 40 }),
        async (before, eol, sizes) => {
          const bytes = Buffer.from([...before, 'x'.repeat(MAX_LOOKUP_BYTES + 1), 'Tea'].join(eol));
          const reading = addLines(chunked(bytes, sizes), new LookupSet(), 'f.txt');
          await expect(reading).rejects.toThrow(`f.txt, line ${before.length + 1}: more than`);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('refuses a --name or a CSV cell longer than 1 KiB', async () => {
    await expect(collect({ names: ['n'.repeat(MAX_LOOKUP_BYTES + 1)] })).rejects.toThrow(
      /--name: more than 1024 bytes/,
    );
    await expect(
      collect({
        file: file('long.csv', `name\n${'n'.repeat(MAX_LOOKUP_BYTES + 1)}\n`),
        column: 'name',
      }),
    ).rejects.toThrow(/long\.csv, line 2: more than 1024 bytes/);
  });

  it('reads stdin with --file -', async () => {
    expect(
      await collect({ file: '-', stdin: Readable.from(['9756038350856888\nCafe', ' X\n']) }),
    ).toEqual([
      { type: 'terminal', value: '9756038350856888' },
      { type: 'name', value: 'Cafe X' },
    ]);
  });

  it('puts arguments first, then --name, then the file', async () => {
    const path = file('order.txt', 'From File\n1111222233334444\n');
    expect(
      await collect({ terminals: ['1111222233334444'], names: ['Given Name'], file: path }),
    ).toEqual([
      { type: 'terminal', value: '1111222233334444' },
      { type: 'name', value: 'Given Name' },
      { type: 'name', value: 'From File' },
    ]);
  });

  it('refuses a missing file, a folder, and an unreadable argument before any request', async () => {
    mkdirSync(join(dir, 'folder'), { recursive: true });
    await expect(collect({ file: join(dir, 'nope.txt') })).rejects.toThrow(
      /cannot read --file .*nope\.txt: no such file/,
    );
    await expect(collect({ file: join(dir, 'folder') })).rejects.toThrow(/it is a folder/);
    await expect(collect({ terminals: ['12345'] })).rejects.toThrow(UsageError);
    await expect(collect({ terminals: ['12345'] })).rejects.toThrow(
      /"12345" is not a terminal number/,
    );
    await expect(collect({ names: ['  '] })).rejects.toThrow(/--name is empty/);
    await expect(collect({ names: ['two\nlines'] })).rejects.toThrow(
      /--name: .* a lookup must be one line/,
    );
  });

  it('stops reading on Ctrl-C', async () => {
    const interrupt = new AbortController();
    interrupt.abort();
    await expect(
      collect({
        file: '-',
        stdin: Readable.from(['1111222233334444\n']),
        signal: interrupt.signal,
      }),
    ).rejects.toMatchObject({ exitCode: 130 });
  });
});

describe('collectLookups from a CSV column', () => {
  const csv =
    'date,narration,amount\r\n2026-10-01,"Joshi Tarkari Pasal, Bharatpur",120\r\n2026-10-02,9756038350856888,450\r\n2026-10-03,,10\r\n2026-10-04,"Say ""Cheese"" Cafe",90\r\n';

  it('takes the named column, quoted cells included, and skips empty cells', async () => {
    expect(await collect({ file: file('statement.csv', csv), column: 'narration' })).toEqual([
      { type: 'name', value: 'Joshi Tarkari Pasal, Bharatpur' },
      { type: 'terminal', value: '9756038350856888' },
      { type: 'name', value: 'Say "Cheese" Cafe' },
    ]);
  });

  it('reads CSV from stdin too', async () => {
    expect(await collect({ file: '-', column: 'amount', stdin: Readable.from([csv]) })).toEqual([
      { type: 'name', value: '120' },
      { type: 'name', value: '450' },
      { type: 'name', value: '10' },
      { type: 'name', value: '90' },
    ]);
  });

  it('refuses a column the header does not have, naming those it has', async () => {
    await expect(collect({ file: file('s2.csv', csv), column: 'merchant' })).rejects.toThrow(
      /--column merchant: the header row of .*s2\.csv has no such column \(it has "date", "narration", "amount"\)/,
    );
  });

  it('skips the lines above the header row (a heading, in UTF-8 or not), and tells so once', async () => {
    const heading = Buffer.from(
      'Soci\xe9t\xe9 G\xe9n\xe9rale Bank\r\nAccount Number: 0123456789012345\r\n\r\n',
      'latin1',
    );
    const notes: string[] = [];
    const path = file(
      'heading.csv',
      Buffer.concat([Buffer.from('\uFEFF'), heading, Buffer.from(csv)]),
    );
    expect(
      await collect({ file: path, column: 'narration', note: (line) => notes.push(line) }),
    ).toEqual([
      { type: 'name', value: 'Joshi Tarkari Pasal, Bharatpur' },
      { type: 'terminal', value: '9756038350856888' },
      { type: 'name', value: 'Say "Cheese" Cafe' },
    ]);
    expect(notes).toEqual([
      `Reading ${path} from its header row, line 4: the 3 lines above it are skipped.`,
    ]);
  });

  it('refuses a column no line near the start has, naming the header row found, or the first line', async () => {
    await expect(
      collect({ file: file('s5.csv', `Everest Bank\n${csv}`), column: 'merchant' }),
    ).rejects.toThrow(
      /--column merchant: the header row of .*s5\.csv \(line 2\) has no such column \(it has "date", "narration", "amount"\)/,
    );
    await expect(
      collect({ file: file('s6.csv', 'Big Mart\nCafe\n'), column: 'merchant' }),
    ).rejects.toThrow(
      /--column merchant: none of the first 20 lines of .*s6\.csv is a header row with such a column \(the first has "Big Mart"\)/,
    );
  });

  it('refuses a cell that spans lines, and malformed CSV, with where it is', async () => {
    await expect(
      collect({ file: file('s3.csv', 'name\n"two\nlines"\n'), column: 'name' }),
    ).rejects.toThrow(/s3\.csv, line 2: .*one line/);
    await expect(
      collect({ file: file('s4.csv', 'name\n"unclosed\n'), column: 'name' }),
    ).rejects.toThrow(/cannot read --file .*s4\.csv as CSV/);
  });
});

describe('a --file that reads as CSV with a header row, without --column', () => {
  const statement = (rows: number) =>
    'date,narration,amount\r\n' +
    Array.from(
      { length: rows },
      (_, i) =>
        `2026-10-${String((i % 28) + 1).padStart(2, '0')},"Shop ${i}, Pokhara",${i * 10}\r\n`,
    ).join('');

  it('is refused, from a file or stdin, before any lookup is taken', async () => {
    const refused =
      /statement\.csv looks like CSV with a header row \(date, narration, amount\): give --column NAME to take one column/;
    await expect(collect({ file: file('statement.csv', statement(5)) })).rejects.toThrow(refused);
    await expect(collect({ file: '-', stdin: Readable.from([statement(5)]) })).rejects.toThrow(
      /^standard input looks like CSV/,
    );
    await expect(
      collect({ file: '-', stdin: Readable.from([statement(5)]) }),
    ).rejects.toBeInstanceOf(UsageError);
  });

  it('is read one lookup a line with noHeader (--no-header)', async () => {
    expect(
      (await collect({ file: file('statement.csv', statement(2)), noHeader: true })).map(
        (x) => x.value,
      ),
    ).toEqual([
      'date,narration,amount',
      '2026-10-01,"Shop 0, Pokhara",0',
      '2026-10-02,"Shop 1, Pokhara",10',
    ]);
  });

  it('is told the same however the input comes in chunks, and what is handed on is the whole input', async () => {
    const names =
      'Bhat-Bhateni Supermarket, Pvt. Ltd.\n' +
      Array.from({ length: 5000 }, (_, i) => `Shop ${i}`).join('\n') +
      '\n';
    // Past 64 KiB, the rows of a statement are no different: the first 64 KiB decide.
    for (const [text, csv] of [
      [statement(3000), true],
      [names, false],
    ] as const) {
      const bytes = Buffer.from(text);
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 1, max: 9000 }), { maxLength: 40 }),
          async (sizes) => {
            const chunks = [];
            let at = 0;
            for (const size of sizes) chunks.push(bytes.subarray(at, (at += size)));
            chunks.push(bytes.subarray(at));
            const checked = withoutCsvHeader(
              Readable.from(chunks.filter((c) => c.length > 0)),
              'f',
            );
            if (csv) return void (await expect(checked).rejects.toThrow(/looks like CSV/));
            const passed: Buffer[] = [];
            for await (const chunk of await checked) passed.push(chunk);
            expect(Buffer.concat(passed).equals(bytes)).toBe(true);
          },
        ),
        { numRuns: 30 },
      );
    }
  });

  it('hands a stream of lookups on as soon as its first line decides it: calls start while a pipe is still written', async () => {
    let written = 0;
    const pipe = Readable.from(
      (async function* () {
        written++;
        yield Buffer.from('9756038350856888\n97560383508');
        // The writer has not written more yet, nor closed the pipe.
        await new Promise(() => {});
      })(),
    );
    const rest = await withoutCsvHeader(pipe, '-');
    expect(written).toBe(1);
    const first = await rest[Symbol.asyncIterator]().next();
    expect(String(first.value)).toBe('9756038350856888\n97560383508');
    pipe.destroy();
  });

  it('with a byte-order mark, CRLF line ends or a header longer than a chunk', async () => {
    await expect(collect({ file: file('bom.csv', '\uFEFF' + statement(3)) })).rejects.toThrow(
      /\(date, narration, amount\)/,
    );
    const wide = Array.from(
      { length: 30 },
      (_, i) =>
        `column ${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`,
    ).join(',');
    const row = Array.from({ length: 30 }, (_, i) => String(i)).join(',');
    await expect(
      collect({
        file: '-',
        stdin: Readable.from(Buffer.from(`${wide}\n${row}\n${row}\n`).toString().split('')),
      }),
    ).rejects.toThrow(/\(column aa, column ba, .*column la, and 18 more\)/);
  });
});

describe('CSV columns separated by semicolons or tabs', () => {
  it('takes the separator of the header row', async () => {
    expect(
      (
        await collect({
          file: file('semi.csv', 'date;narration\n2026-10-01;"Cafe; Bar"\n2026-10-02;Tea, Shop\n'),
          column: 'narration',
        })
      ).map((x) => x.value),
    ).toEqual(['Cafe; Bar', 'Tea, Shop']);
    expect(
      (
        await collect({
          file: file('tab.tsv', 'date\tnarration\n2026-10-01\tCafe, Bar\n'),
          column: 'narration',
        })
      ).map((x) => x.value),
    ).toEqual(['Cafe, Bar']);
  });
});
