// What `merchants resolve` keeps of its input to know a repeat: the set of 64-bit keys
// (key-table.ts), the keys of lookups (lookup-set.ts: terminal numbers exactly, anything else by a
// 64-bit hash), the first-appearance record of a first reading, the reading that waits for the
// calls (batches.ts), and the input read twice (input.ts).
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';

import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';

import { UsageError } from '../../src/core/errors.js';
import { BatchesWhileReading } from '../../src/merchants/batches.js';
import { TwiceReadInput } from '../../src/merchants/input.js';
import { KeyTable64 } from '../../src/merchants/key-table.js';
import { type Lookup, LookupSet } from '../../src/merchants/lookup-set.js';
import { addLines } from '../../src/merchants/lookups.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-dedupe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A 64-bit key as its two halves, the high one never 0. */
const key = fc.tuple(
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).filter((high) => high !== 0),
);

describe('KeyTable64', () => {
  it('agrees with a plain Set on any keys, repeats included', () => {
    fc.assert(
      fc.property(
        fc.array(key, { maxLength: 400 }),
        fc.array(fc.nat(), { maxLength: 400 }),
        (keys, repeats) => {
          const table = new KeyTable64();
          const seen = new Set<string>();
          const given = [
            ...keys,
            ...repeats.filter(() => keys.length > 0).map((i) => keys[i % keys.length]!),
          ];
          for (const [low, high] of given) {
            const fresh = !seen.has(`${low},${high}`);
            seen.add(`${low},${high}`);
            expect(table.add(low, high)).toBe(fresh);
          }
          expect(table.size).toBe(seen.size);
          for (const [low, high] of keys) expect(table.has(low, high)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps every key across its merges into the sorted list, whichever half two keys share', () => {
    const table = new KeyTable64();
    // 300,000 keys (several merges): the same low half with every high, the same high half with
    // every low, neighbours, and the sign bits set and not.
    const keys: [number, number][] = [];
    for (let i = 0; i < 100_000; i++)
      keys.push([7, i + 1], [i + 1000, 8], [i ^ (0x80000000 | 0), -(i + 1)]);
    for (const [low, high] of keys) expect(table.add(low, high)).toBe(true);
    expect(table.size).toBe(300_000);
    let missing = 0;
    let added = 0;
    for (const [low, high] of keys) {
      if (!table.has(low, high)) missing++;
      if (table.add(low, high)) added++;
    }
    expect({ missing, added }).toEqual({ missing: 0, added: 0 });
    expect(table.has(8, 1)).toBe(false);
    expect(table.has(7, 100_001)).toBe(false);
  });

  it('takes little for a few keys, then grows by 8 bytes a key past a fixed 2 MiB, in pages only ever added', () => {
    const small = new KeyTable64();
    for (let i = 1; i <= 100; i++) small.add(i, i);
    expect(small.bytes).toBeLessThanOrEqual(8 * 1024);
    const table = new KeyTable64();
    let state = 1;
    const next = () => (state = Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0;
    for (let i = 0; i < 570_000; i++) table.add(next(), next() | 1);
    // 8 bytes a key in the list, in pages of 32,768 keys (the latest 65,536 at most wait in the
    // small table), beside at most 2 MiB: the small table at its largest, sorting room, an index.
    const fixed = 2 * 1024 * 1024 + 4;
    expect(table.bytes).toBeGreaterThanOrEqual((table.size - 65_536) * 8);
    expect(table.bytes).toBeLessThanOrEqual(fixed + (table.size + 32_768) * 8);
  });
});

describe('LookupSet keys', () => {
  it('never takes two terminal numbers of 16 to 18 digits for one another: their key is the number and its length', () => {
    const set = new LookupSet({ seeds: [0, 0] });
    // Leading zeros, the same digits at another length, neighbours at the halves' border.
    const terminals = [
      '0000000000000000',
      '00000000000000000',
      '000000000000000000',
      '0000000000000001',
      '00000000000000001',
      '1000000000000000',
      '0000001000000000',
      '0000000999999999',
      '999999999999999999',
      '0000000001000000000',
    ];
    for (const value of terminals) expect(set.add({ type: 'terminal', value })).toBe(true);
    for (const value of terminals) expect(set.add({ type: 'terminal', value })).toBe(false);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^\d{16,18}$/), { maxLength: 200 }),
        (values) => {
          const fresh = new LookupSet({ seeds: [1, 2] });
          for (const value of values) expect(fresh.add({ type: 'terminal', value })).toBe(true);
          expect(fresh.size).toBe(values.length);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('keys a terminal the same from its bytes as from its text, and tells it from a name of the same digits', () => {
    const set = new LookupSet({ seeds: [5, 6] });
    const bytes = Buffer.from('x9756038350856888\n12345678901234567890123\n');
    expect(set.addTerminalBytes(bytes, 1, 17)).toBe(true);
    expect(set.add({ type: 'terminal', value: '9756038350856888' })).toBe(false);
    // Longer than 18 digits: hashed, from the bytes and from the text alike.
    expect(set.addTerminalBytes(bytes, 18, 41)).toBe(true);
    expect(set.add({ type: 'terminal', value: '12345678901234567890123' })).toBe(false);
    expect(set.add({ type: 'name', value: '9756038350856888' })).toBe(true);
    expect(set.add({ type: 'name', value: '12345678901234567890123' })).toBe(true);
    expect({
      size: set.size,
      terminals: set.terminals,
      names: set.names,
      duplicates: set.duplicates,
    }).toEqual({ size: 4, terminals: 2, names: 2, duplicates: 2 });
  });

  it('keeps 200,000 names that differ by a character apart, whatever the seeds (no 64-bit hash collision among them)', () => {
    for (const seeds of [
      [0, 0],
      [1, 2],
      [0x7fffffff, -1],
    ] as const) {
      const set = new LookupSet({ keep: false, seeds });
      for (let i = 0; i < 200_000; i++) set.add({ type: 'name', value: `Shop ${i}` });
      expect(set.size).toBe(200_000);
      for (let i = 0; i < 200_000; i += 997)
        expect(set.add({ type: 'name', value: `Shop ${i}` })).toBe(false);
    }
  });

  it('hands out what waits in order as calls take it, and keeps nothing it need not', () => {
    const set = new LookupSet();
    for (let i = 0; i < 10_000; i++)
      set.add({ type: 'terminal', value: String(1_000_000_000_000_000n + BigInt(i % 7_000)) });
    expect(set.waiting).toBe(7_000);
    const taken: string[] = [];
    while (set.waiting > 0) taken.push(...set.take(1000).map((lookup) => lookup.value));
    expect(taken).toEqual(
      Array.from({ length: 7_000 }, (_, i) => String(1_000_000_000_000_000n + BigInt(i))),
    );
    expect([...set]).toEqual([]);
    // Counting only: nothing waits.
    const counting = new LookupSet({ keep: false });
    counting.add({ type: 'name', value: 'Cafe' });
    expect({ size: counting.size, waiting: counting.waiting }).toEqual({ size: 1, waiting: 0 });
  });
});

describe('a second reading replays the first', () => {
  it('gives the same distinct lookups in the same order, counted alike, without hashing', () => {
    const value = fc.oneof(
      fc.stringMatching(/^\d{16,19}$/),
      fc.string({ maxLength: 6 }).filter((s) => s.trim() !== ''),
      fc.constantFrom('Café', 'नमस्ते'),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), value), { maxLength: 300 }), (given) => {
        const lookups: Lookup[] = given.map(([terminal, v]) => ({
          type: terminal && /^\d{16,}$/.test(v) ? 'terminal' : 'name',
          value: v,
        }));
        const first = new LookupSet({ keep: false, record: true });
        for (const lookup of lookups) first.add(lookup);
        const again = first.replay();
        for (const lookup of lookups) again.add(lookup);
        const plain = new LookupSet();
        for (const lookup of lookups) plain.add(lookup);
        expect([...again]).toEqual([...plain]);
        expect({
          size: again.size,
          given: again.given,
          terminals: again.terminals,
          names: again.names,
        }).toEqual({
          size: first.size,
          given: first.given,
          terminals: first.terminals,
          names: first.names,
        });
      }),
      { numRuns: 150 },
    );
  });

  it('needs a recording set', () => {
    expect(() => new LookupSet().replay()).toThrow(/record/);
  });
});

describe('the reading waits for the calls', () => {
  it('stops while two calls’ worth of lookups wait, and reads on as calls take them', async () => {
    // 20 chunks of 500 new lookups each.
    const chunks = Array.from(
      { length: 20 },
      (_, c) =>
        Array.from({ length: 500 }, (_, i) =>
          String(2_000_000_000_000_000n + BigInt(c * 500 + i)),
        ).join('\n') + '\n',
    );
    let handedOut = 0;
    const input = Readable.from(
      (function* () {
        for (const chunk of chunks) {
          handedOut++;
          yield Buffer.from(chunk);
        }
      })(),
      { highWaterMark: 1 },
    );
    const set = new LookupSet();
    let mostWaiting = 0;
    let batches!: BatchesWhileReading;
    const reading = addLines(input, set, 'f.txt', {
      onChunk: () => {
        mostWaiting = Math.max(mostWaiting, set.waiting);
        return batches.grew();
      },
    });
    batches = new BatchesWhileReading(set, reading, 1000);
    for (let turn = 0; turn < 20; turn++) await tick();
    // Four chunks make two calls' worth: the reading waits (a chunk or two read ahead by the
    // stream).
    expect(set.size).toBe(2000);
    expect(handedOut).toBeLessThanOrEqual(6);
    const first = await batches.next();
    expect(first.value?.lookups).toHaveLength(1000);
    for (let turn = 0; turn < 20; turn++) await tick();
    expect(set.size).toBe(3000);
    let taken = 1000;
    for (let next = await batches.next(); !next.done; next = await batches.next())
      taken += next.value.lookups.length;
    expect(taken).toBe(10_000);
    expect(mostWaiting).toBeLessThanOrEqual(2000);
  });

  it('goes on to the end, unhindered, once released (the run is over)', async () => {
    const set = new LookupSet();
    const text = Array.from({ length: 5000 }, (_, i) =>
      String(3_000_000_000_000_000n + BigInt(i)),
    ).join('\n');
    const input = Readable.from([
      Buffer.from(text.slice(0, 40_000)),
      Buffer.from(text.slice(40_000)),
    ]);
    let batches!: BatchesWhileReading;
    const reading = addLines(input, set, 'f.txt', { onChunk: () => batches.grew() });
    batches = new BatchesWhileReading(set, reading, 1000);
    batches.release();
    await reading;
    expect(set.size).toBe(5000);
  });
});

describe('TwiceReadInput', () => {
  async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
    let text = '';
    for await (const chunk of stream as AsyncIterable<Buffer>) text += chunk.toString('utf8');
    return text;
  }

  it('reads a plain file twice, or three times, from its start', async () => {
    const path = join(dir, 'twice.txt');
    writeFileSync(path, 'Cafe\n1111222233334444\n');
    const input = await TwiceReadInput.open(path, Readable.from([]));
    try {
      expect(await readAll(input.first())).toBe('Cafe\n1111222233334444\n');
      expect(await readAll(await input.again())).toBe('Cafe\n1111222233334444\n');
      expect(await readAll(await input.again())).toBe('Cafe\n1111222233334444\n');
    } finally {
      await input.close();
    }
  });

  it('refuses a second reading of a file that changed in between (exit 2)', async () => {
    const path = join(dir, 'changing.txt');
    writeFileSync(path, 'Cafe\n');
    const input = await TwiceReadInput.open(path, Readable.from([]));
    try {
      await readAll(input.first());
      writeFileSync(path, 'Cafe\nTea\n');
      await expect(input.again()).rejects.toThrow(UsageError);
      await expect(input.again()).rejects.toThrow(/changed while it was read/);
    } finally {
      await input.close();
    }
  });

  it('copies standard input as it is first read, into a private file that is gone at once', async () => {
    const before = new Set(readdirSync(tmpdir()).filter((name) => name.startsWith('svc-lookups-')));
    const input = await TwiceReadInput.open(
      '-',
      Readable.from([Buffer.from('Cafe\n'), Buffer.from('Tea\n')]),
    );
    try {
      // The folder of the copy is removed as soon as the copy is open: nothing to find, nothing
      // left.
      expect(
        readdirSync(tmpdir()).filter(
          (name) => name.startsWith('svc-lookups-') && !before.has(name),
        ),
      ).toEqual([]);
      expect(await readAll(input.first())).toBe('Cafe\nTea\n');
      expect(await readAll(await input.again())).toBe('Cafe\nTea\n');
      // A third reading (--each-line) reads the same copy.
      expect(await readAll(await input.again())).toBe('Cafe\nTea\n');
    } finally {
      await input.close();
    }
  });

  it('refuses a missing file or a folder at once (exit 2)', async () => {
    await expect(TwiceReadInput.open(join(dir, 'nope.txt'), Readable.from([]))).rejects.toThrow(
      /cannot read --file .*nope\.txt: no such file/,
    );
    await expect(TwiceReadInput.open(dir, Readable.from([]))).rejects.toThrow(/it is a folder/);
  });

  it.runIf(process.getuid?.() !== 0)(
    'says so when no copy can be made (an unwritable TMPDIR)',
    async () => {
      const locked = mkdtempSync(join(dir, 'locked-'));
      chmodSync(locked, 0o500);
      const saved = process.env.TMPDIR;
      process.env.TMPDIR = locked;
      try {
        await expect(TwiceReadInput.open('-', Readable.from([]))).rejects.toThrow(
          /cannot keep a copy of standard input to read it twice/,
        );
      } finally {
        if (saved === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = saved;
        chmodSync(locked, 0o700);
      }
      expect(existsSync(locked)).toBe(true);
    },
  );
});
