// Replies whose rows each bring a field of their own, in-process, as a person at
// a terminal and as a script: a table shows its designed columns and at most 24 more, and says how
// many it left out (under it on a terminal, on stderr in a pipe); CSV past 1,000 columns is exit 10
// with nothing on stdout; NDJSON writes every record whole. And Ctrl-C during a long output stops
// it: exit 130. The sizes here make an output that grows with rows × rows take minutes, so such
// code fails without any test being timed.
import { describe, expect, it } from 'vitest';

import { ANSI, expectFailure, FakeService, MODES, plain, svc } from '../support/in-process.js';

const ID = 'rpt_9f2c41d07ab35e18';
const TRANSACTIONS = `/v1/reports/${ID}/transactions`;

/** A transaction of the documented shape, and one field no other has. */
const transaction = (i: number) => ({
  id: `txn_${i}`,
  date: '2026-01-01',
  description: `PAYMENT ${i}`,
  debit: 100.5,
  balance: 1000 + i,
  category: 'other',
  [`note_${i}`]: 'x',
});
const transactions = (count: number) => ({
  count,
  transactions: Array.from({ length: count }, (_, i) => transaction(i)),
});
const answering = (path: string, body: unknown) => new FakeService().expect('GET', path, { body });

/** The note of a table that left `count` columns out. */
const leftOut = (count: string) =>
  `${count} more columns left out, of the fields fewest rows have: --json or -o ndjson shows every field.`;

describe.each(MODES)(
  'a reply of 1,000 rows that each bring a field of their own, for $mode',
  ({ tty }) => {
    it('reports transactions: the designed columns and 24 more; the note says 976 were left out', async () => {
      const result = await svc(['reports', 'transactions', ID], {
        tty,
        service: answering(TRANSACTIONS, transactions(1000)),
      });
      expect(result.code, result.stderr).toBe(0);
      if (tty) {
        const screen = plain(result.stdout);
        expect(screen.replace(/\n(?!\n)/g, ' ')).toContain(leftOut('976'));
        // The default columns at 80 columns: a line a row.
        expect(screen.split('\n').slice(0, 5)).toEqual([
          `Transactions of ${ID}`,
          expect.stringMatching(/^┌─/),
          expect.stringMatching(
            /^│ DATE +│ DESCRIPTION +│ DEBIT \(NPR\) │ CREDIT \(NPR\) │ BALANCE \(NPR\) │$/,
          ),
          expect.stringMatching(/^├─/),
          expect.stringMatching(/^│ 2026-01-01 │ PAYMENT 0 +│ +100\.50 │ +│ +1,000\.00 │$/),
        ]);
        expect(screen.split('\n').length).toBeLessThan(1000 + 12);
        // -o wide: 31 columns do not fit 80 columns: a card a row, each with the fields the row
        // has.
        const wide = await svc(['reports', 'transactions', ID, '-o', 'wide'], {
          tty,
          service: answering(TRANSACTIONS, transactions(1000)),
        });
        expect(plain(wide.stdout).split('\n\n')[0]).toBe(
          [
            `Transactions of ${ID}`,
            'DATE         2026-01-01',
            'DESCRIPTION  PAYMENT 0',
            'DEBIT        NPR 100.50',
            'BALANCE      NPR 1,000.00',
            'CATEGORY     other',
            'ID           txn_0',
            'NOTE 0       x',
          ].join('\n'),
        );
        expect(plain(wide.stdout).split('\n').length).toBeLessThan(1000 * 8);
      } else {
        const lines = result.stdout.split('\n').slice(0, -1);
        expect(lines).toHaveLength(1001);
        expect(lines[0]).toBe(
          [
            'DATE',
            'DESCRIPTION',
            'DEBIT',
            'CREDIT',
            'BALANCE',
            'CATEGORY',
            'ID',
            ...Array.from({ length: 24 }, (_, i) => `NOTE ${i}`),
          ].join('\t'),
        );
        for (const line of lines) expect(line.split('\t')).toHaveLength(7 + 24);
        expect(lines[1]).toBe(
          [
            '2026-01-01',
            'PAYMENT 0',
            '100.5',
            '',
            '1000',
            'other',
            'txn_0',
            'x',
            ...Array(23).fill(''),
          ].join('\t'),
        );
        expect(result.stdout).not.toMatch(ANSI);
        expect(result.stderr).toBe(leftOut('976') + '\n');
      }
    });

    it('consents list, a reply no document shows: 24 columns, the fields every row has first', async () => {
      const data = Array.from({ length: 1000 }, (_, i) => ({
        id: `cns_${i}`,
        status: 'active',
        [`grant_${i}`]: 'y',
      }));
      const result = await svc(['consents', 'list'], {
        tty,
        columns: 200,
        service: answering('/v1/consents', { data }),
      });
      expect(result.code, result.stderr).toBe(0);
      if (tty) {
        const screen = plain(result.stdout).split('\n');
        expect(screen).toContain(leftOut('978'));
        // One boxed table: a line a row, a header and its rule, the borders, and the note.
        expect(screen.length).toBeLessThan(1000 + 10);
        // The fields a terminal shows of a consent, then as many others as have room whole.
        expect(screen.slice(0, 3)).toEqual([
          'Consents',
          expect.stringMatching(/^┌─/),
          expect.stringMatching(/^│ STATUS │ ID +│ GRANT 0 │ GRANT 1 │ .* │ GRANT 16 │$/),
        ]);
      } else {
        const lines = result.stdout.split('\n').slice(0, -1);
        expect(lines).toHaveLength(1001);
        expect(lines[0]!.split('\t').slice(0, 3)).toEqual(['STATUS', 'ID', 'GRANT 0']);
        for (const line of lines) expect(line.split('\t')).toHaveLength(24);
        expect(result.stderr).toBe(leftOut('978') + '\n');
      }
    });

    it('-o ndjson: every record whole, one a line', async () => {
      const body = transactions(1000);
      const result = await svc(['reports', 'transactions', ID, '-o', 'ndjson'], {
        tty,
        service: answering(TRANSACTIONS, body),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(body.transactions.map((t) => JSON.stringify(t) + '\n').join(''));
      expect(result.stderr).toBe('');
    });
  },
);

describe.each(MODES)(
  '-o csv of rows that each bring a field of their own, for $mode',
  ({ tty }) => {
    it('past 1,000 columns: exit 10, pointing to -o ndjson, and nothing on stdout', async () => {
      const result = await svc(['reports', 'transactions', ID, '-o', 'csv'], {
        tty,
        service: answering(TRANSACTIONS, transactions(1000)),
      });
      expectFailure(
        result,
        10,
        'error: the records have more than 1,000 different fields, the most columns a CSV file is given; -o ndjson writes each record whole',
      );
    });

    it('1,000 columns: written, every row as wide as the header', async () => {
      // 6 fields every transaction has, and 994 of one transaction each.
      const result = await svc(['reports', 'transactions', ID, '-o', 'csv'], {
        tty,
        service: answering(TRANSACTIONS, transactions(994)),
      });
      expect(result.code, result.stderr).toBe(0);
      const lines = result.stdout.split('\r\n').slice(0, -1);
      expect(lines).toHaveLength(995);
      for (const line of lines) expect(line.split(',')).toHaveLength(1000);
      expect(result.stderr).toBe('');
    });
  },
);

describe.each(MODES)('Ctrl-C while a long output is written, for $mode', ({ tty }) => {
  it.each([[[]], [['-o', 'csv']], [['-o', 'ndjson']]])('%j: stops it, exit 130', async (flags) => {
    // Enough rows for several writes; a boxed table (a terminal's) takes fewer: drawn whole, 20,000
    // rows would take minutes.
    const count = tty && flags.length === 0 ? 2_000 : 20_000;
    const body = {
      count,
      transactions: Array.from({ length: count }, (_, i) => ({
        id: `txn_${i}`,
        date: '2026-01-01',
        description: `PAYMENT ${i}`,
        debit: 1,
        balance: i,
      })),
    };
    const ctrlC = new AbortController();
    const result = await svc(['reports', 'transactions', ID, ...flags], {
      tty,
      service: answering(TRANSACTIONS, body),
      signal: ctrlC.signal,
      onStdout: () => ctrlC.abort(),
    });
    expect(result.code, result.stderr).toBe(130);
    // The first piece was written, the rest never made.
    expect(result.stdout.length).toBeGreaterThan(0);
    expect(result.stdout).not.toContain(`txn_${count - 1}`);
    expect(result.stderr).toMatch(/^error: interrupted$|"error_code":"INTERRUPTED"/m);
  });
});
