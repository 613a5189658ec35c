// Properties of the transactions file of `svc enrich --file`: any list of good transactions,
// written as CSV (quoted cells, blank lines, LF or CRLF) or as JSON (a list or an object holding
// it), reads back as the same transactions; spoil some of them and the error names the first
// spoiled one, by its CSV line or its JSON index.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { type EnrichTransaction, parseTransactions } from '../../src/commands/enrich/input.js';
import { UsageError } from '../../src/core/errors.js';

const date = fc
  .record({
    year: fc.integer({ min: 1990, max: 2099 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
  })
  .map(
    ({ year, month, day }) =>
      `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
  );
/** Any text but a blank one; no CR (CSV line ends are made LF, inside quotes too). */
const description = fc
  .string({ minLength: 1, maxLength: 30 })
  .map((s) => s.replace(/\r/g, ''))
  .filter((s) => s.trim() !== '');
const amount = fc.integer({ min: 0, max: 10_000_000_00 }).map((cents) => cents / 100);
const balance = fc.integer({ min: -10_000_000_00, max: 10_000_000_00 }).map((cents) => cents / 100);

const transaction: fc.Arbitrary<EnrichTransaction> = fc
  .record({ date, description, amount, credit: fc.boolean(), balance })
  .map(({ date, description, amount, credit, balance }) => ({
    date,
    description,
    ...(credit ? { credit: amount } : { debit: amount }),
    balance,
  }));

const transactions = fc.array(transaction, { minLength: 1, maxLength: 25 });

/** The ways a transaction breaks a rule: each as CSV cells and as a JSON item. */
const SPOILERS: ((t: EnrichTransaction) => EnrichTransaction)[] = [
  (t) => ({ ...t, date: '2026-02-30' }),
  (t) => ({ ...t, date: `${t.date}T00:00` }),
  (t) => ({ ...t, description: '  ' }),
  (t) => ({ ...t, credit: 1, debit: 2 }),
  (t) => {
    const { credit: _c, debit: _d, ...rest } = t;
    return rest;
  },
  (t) => ({ ...t, ...('credit' in t ? { credit: -1 } : { debit: -0.5 }) }),
  (t) => ({ ...t, balance: undefined as unknown as number }),
];

function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = String(value);
  return /[",\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

interface CsvFile {
  text: string;
  /** The line each transaction starts on. */
  lines: number[];
}

/** The transactions as CSV, each after 0 to 2 blank lines, lines ended by `eol`. */
function csvFile(
  items: readonly EnrichTransaction[],
  blanks: readonly number[],
  eol: string,
): CsvFile {
  let text = 'date,description,credit,debit,balance' + eol;
  let line = 2;
  const lines: number[] = [];
  items.forEach((t, i) => {
    const before = blanks[i % blanks.length] ?? 0;
    text += eol.repeat(before);
    line += before;
    lines.push(line);
    const row = [t.date, t.description, t.credit, t.debit, t.balance].map(csvCell).join(',');
    text += row.replace(/\n/g, eol) + eol;
    line += 1 + (t.description.match(/\n/g)?.length ?? 0);
  });
  return { text, lines };
}

function messageOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  return undefined;
}

const blanks = fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 5 });
const eol = fc.constantFrom('\n', '\r\n');

describe('good files read back as their transactions', () => {
  it('CSV, with quoted cells, blank lines, LF or CRLF (property)', () => {
    fc.assert(
      fc.property(transactions, blanks, eol, (items, gaps, end) => {
        expect(parseTransactions(csvFile(items, gaps, end).text, 'tx.csv')).toEqual(items);
      }),
      { numRuns: 300 },
    );
  });

  it('JSON, as a list or as an object holding "transactions" (property)', () => {
    fc.assert(
      fc.property(transactions, fc.boolean(), (items, wrapped) => {
        const text = JSON.stringify(
          wrapped ? { transactions: items } : items,
          null,
          wrapped ? 2 : undefined,
        );
        expect(parseTransactions(text, 'tx.json')).toEqual(items);
      }),
      { numRuns: 300 },
    );
  });
});

/** Good transactions with some spoiled: the list, and the index of the first spoiled one. */
const spoiled = transactions.chain((items) =>
  fc
    .uniqueArray(fc.integer({ min: 0, max: items.length - 1 }), {
      minLength: 1,
      maxLength: Math.min(3, items.length),
    })
    .chain((at) =>
      fc
        .array(fc.integer({ min: 0, max: SPOILERS.length - 1 }), {
          minLength: at.length,
          maxLength: at.length,
        })
        .map((how) => ({ at, how })),
    )
    .map(({ at, how }) => {
      const copy = [...items];
      at.forEach((index, k) => (copy[index] = SPOILERS[how[k]!]!(copy[index]!)));
      return { items: copy, first: Math.min(...at) };
    }),
);

describe('the first bad transaction is named', () => {
  it('by its CSV line (property)', () => {
    fc.assert(
      fc.property(spoiled, blanks, eol, ({ items, first }, gaps, end) => {
        const file = csvFile(items, gaps, end);
        const message = messageOf(() => parseTransactions(file.text, 'tx.csv'));
        expect(message).toMatch(new RegExp(`^tx\\.csv, line ${file.lines[first]}: `));
      }),
      { numRuns: 300 },
    );
  });

  it('by its JSON index (property)', () => {
    fc.assert(
      fc.property(spoiled, fc.boolean(), ({ items, first }, wrapped) => {
        const message = messageOf(() =>
          parseTransactions(JSON.stringify(wrapped ? { transactions: items } : items), 'tx.json'),
        );
        expect(message).toMatch(new RegExp(`^tx\\.json, index ${first}: `));
      }),
      { numRuns: 300 },
    );
  });

  it('and a message is always one line (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const message = messageOf(() =>
          parseTransactions(`date,description,credit,debit,balance\n${text}`, 'tx'),
        );
        if (message !== undefined) expect(message).not.toMatch(/[\r\n]/);
      }),
      { numRuns: 300 },
    );
  });
});
