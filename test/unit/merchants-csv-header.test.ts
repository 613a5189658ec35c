// Telling a CSV file with a header row from a file of one lookup a line, by its first 64 KiB:
// statements exported as CSV (any of three separators, quoted headers, quoted cells across lines)
// are taken for CSV; files of merchant names and narrations, commas and all, are not.
import { readFileSync } from 'node:fs';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  accountLineOf,
  columnRowOf,
  csvHeaderOf,
  csvRecords,
  headerDecided,
  separatorOf,
} from '../../src/merchants/csv-header.js';

const header = (text: string, whole = true) => csvHeaderOf(text, whole);
const statement = (name: string) =>
  readFileSync(new URL(`../fixtures/statements/${name}`, import.meta.url), 'utf8');

describe('csvRecords', () => {
  it('splits fields, honours quotes (a separator, a doubled quote, a line break inside), and skips blank lines', () => {
    expect(csvRecords('a,"b, c",d\r\n\r\n  \n"x ""y""","1\n2",\r"z"', ',', 10, true)).toEqual([
      ['a', 'b, c', 'd'],
      ['x "y"', '1\n2', ''],
      ['z'],
    ]);
  });

  it('counts a record still open at the end only when the text is the whole file', () => {
    expect(csvRecords('a,b\nc,d', ',', 10, false)).toEqual([['a', 'b']]);
    expect(csvRecords('a,b\nc,d', ',', 10, true)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(csvRecords('a,b\n"c\nd', ',', 10, false)).toEqual([['a', 'b']]);
  });

  it('is not CSV with that separator when a quoted field is followed by text, or never closed in a whole file', () => {
    expect(csvRecords('"a"b,c\n', ',', 10, true)).toBeUndefined();
    expect(csvRecords('a,"b\n', ',', 10, true)).toBeUndefined();
    expect(csvRecords('"a";"b"\n', ',', 10, true)).toBeUndefined();
    expect(csvRecords('"a";"b"\n', ';', 10, true)).toEqual([['a', 'b']]);
  });

  it('stops after `limit` records', () => {
    expect(csvRecords('a\nb\nc\n', ',', 2, true)).toEqual([['a'], ['b']]);
  });
});

describe('a CSV header row is found', () => {
  it.each([
    [
      'a statement',
      'date,narration,amount\n2026-10-01,"Bhat-Bhateni Supermarket, Pvt. Ltd.",120\n2026-10-02,9756038350856888,450\n',
      ',',
      ['date', 'narration', 'amount'],
      'narration',
    ],
    [
      'a bank export with quoted headers and CRLF',
      '"Txn Date","Value Date","Description","Cheque No","Withdrawal Amt","Deposit Amt","Balance"\r\n"01/10/2026","01/10/2026","MPAY 2222020006840462,492738040,MOB","","1,200.00","","45,300.50"\r\n',
      ',',
      [
        'Txn Date',
        'Value Date',
        'Description',
        'Cheque No',
        'Withdrawal Amt',
        'Deposit Amt',
        'Balance',
      ],
      'Description',
    ],
    [
      'separated by semicolons',
      'Datum;Beschreibung;Betrag\n01.10.2026;Himalayan Java;-4,50\n02.10.2026;Big Mart;12,00\n',
      ';',
      ['Datum', 'Beschreibung', 'Betrag'],
      'Beschreibung',
    ],
    [
      'separated by tabs (TSV)',
      'date\tdescription\tdebit\tcredit\n2026-10-01\tHimalayan Java\t450\t\n2026-10-02\tSalary\t\t72000\n',
      '\t',
      ['date', 'description', 'debit', 'credit'],
      'description',
    ],
    [
      'a byte-order-mark-free header alone (one line, usual names)',
      'Date,Narration,Amount\n',
      ',',
      ['Date', 'Narration', 'Amount'],
      'Narration',
    ],
    [
      'usual names over text only',
      'merchant,city\nBig Mart,Kathmandu\nHimalayan Java,Thamel\n',
      ',',
      ['merchant', 'city'],
      'merchant',
    ],
    [
      'an index column with an empty header (pandas)',
      ',date,narration\n0,2026-10-01,Big Mart\n1,2026-10-02,Himalayan Java\n',
      ',',
      ['', 'date', 'narration'],
      'narration',
    ],
    [
      'rows with their trailing cells left out',
      'date,narration,debit,credit\n2026-10-01,Big Mart,450\n2026-10-02,Salary,,72000\n',
      ',',
      ['date', 'narration', 'debit', 'credit'],
      'narration',
    ],
    [
      'a quoted cell across lines',
      'date,narration,amount\n2026-10-01,"two\nlines",5\n2026-10-02,plain,6\n',
      ',',
      ['date', 'narration', 'amount'],
      'narration',
    ],
    [
      'names in Nepali with numbers below',
      'मिति,विवरण,रकम\n2026-10-01,भाटभटेनी,120\n2026-10-02,बिग मार्ट,450\n',
      ',',
      ['मिति', 'विवरण', 'रकम'],
      'विवरण',
    ],
  ])('%s', (_name, text, separator, columns, suggested) => {
    expect(header(text)).toEqual({ separator, columns, suggested, line: 1 });
  });

  it('decides on complete records only when the text is cut', () => {
    const rows = Array.from(
      { length: 40 },
      (_, i) => `2026-10-${String((i % 28) + 1).padStart(2, '0')},Shop ${i},${i}`,
    ).join('\n');
    const text = `date,narration,amount\n${rows}`;
    expect(header(text.slice(0, text.length - 3), false)?.columns).toEqual([
      'date',
      'narration',
      'amount',
    ]);
  });
});

describe('a bank export: a heading (the bank, the account, the period) above the header row', () => {
  it.each([
    [
      'NIC Asia: CSV, quoted cells, CRLF',
      'nic-asia.csv',
      {
        separator: ',',
        columns: [
          'Tran Date',
          'Value Date',
          'Particulars',
          'Cheque No.',
          'Debit',
          'Credit',
          'Balance',
        ],
        suggested: 'Particulars',
        line: 9,
      },
    ],
    [
      'Nabil: separated by |, a header with digits (Date (2081/82)) and a column name with a slash',
      'nabil.txt',
      {
        separator: '|',
        columns: [
          'Date (2081/82)',
          'Value Date',
          'Description',
          'Cheque/Reference No',
          'Withdrawal Amount (NPR)',
          'Deposit Amount (NPR)',
          'Running Balance (NPR)',
        ],
        suggested: 'Description',
        line: 7,
      },
    ],
    [
      'Global IME: long column names, heading lines of empty cells',
      'global-ime.csv',
      {
        separator: ',',
        columns: [
          'Transaction Date',
          'Description / Narration of the Transaction',
          'Cheque Number',
          'Withdrawal Amount in Nepalese Rupees (NPR)',
          'Deposit Amount in Nepalese Rupees (NPR)',
          'Available Balance after Transaction',
        ],
        suggested: 'Description / Narration of the Transaction',
        line: 6,
      },
    ],
    [
      'Global IME in Nepali: a Devanagari header, separated by tabs',
      'global-ime-nepali.tsv',
      {
        separator: '\t',
        columns: ['मिति', 'विवरण', 'चेक नं', 'डेबिट', 'क्रेडिट', 'मौज्दात'],
        suggested: 'विवरण',
        line: 6,
      },
    ],
  ])('%s', (_name, fixture, found) => {
    const text = statement(fixture);
    expect(header(text)).toEqual(found);
    // However the file is cut, the start decides the same once headerDecided says so.
    for (let cut = 0; cut <= text.length; cut++)
      if (headerDecided(text.slice(0, cut)))
        expect(header(text.slice(0, cut), false)).toEqual(found);
  });

  it.each([
    [
      'a Devanagari header with no numbers below',
      'मिति,विवरण\nसाउन १,भाटभटेनी\n',
      { separator: ',', columns: ['मिति', 'विवरण'], suggested: 'विवरण', line: 1 },
    ],
    [
      'column names with years',
      'Date (2024/25),Narration,Balance as on 2025-07-16\n2024-07-17,Big Mart,"1,200.00"\n',
      {
        separator: ',',
        columns: ['Date (2024/25)', 'Narration', 'Balance as on 2025-07-16'],
        suggested: 'Narration',
        line: 1,
      },
    ],
    [
      'blank lines and a bank name above',
      '\n\nEverest Bank Ltd.\n\ndate;narration;amount\n2026-10-01;Big Mart;120\n',
      { separator: ';', columns: ['date', 'narration', 'amount'], suggested: 'narration', line: 5 },
    ],
    [
      'a header row in a markdown table',
      '| Date | Description | Amount |\n|---|---|---|\n| 2026-10-01 | Big Mart | 120 |\n',
      {
        separator: '|',
        columns: ['', 'Date', 'Description', 'Amount'],
        suggested: 'Description',
        line: 1,
      },
    ],
  ])('%s', (_name, text, found) => {
    expect(header(text)).toEqual(found);
  });

  it('a statement copied as text, without a header row, gives itself away by its account line', () => {
    const text = statement('pdf-copy.txt');
    expect(header(text)).toBeUndefined();
    expect(accountLineOf(text, true)).toBe(3);
  });

  it.each([
    ['Account Number: 0123456789012345', 1],
    ['A/C No.: 0123-4567-8901', 1],
    ['"Account No",: 012345678901', 1],
    ['खाता नं: 0123456789012345', 1],
    ['NABIL BANK\nAccount Number:,0123456789012345', 2],
    ['Account Services Ltd: open 24 hours', undefined],
    ['Account Name: RAM THAPA', undefined],
    ['9756038350856888\nAccount Number: 0123456789012345', undefined],
    [
      Array.from({ length: 20 }, (_, i) => `Shop ${i}`).join('\n') +
        '\nAccount Number: 0123456789012345',
      undefined,
    ],
  ])('account line in %j: %s', (text, line) => {
    expect(accountLineOf(text + '\n', true)).toBe(line);
  });

  it('a header row below other lines needs a record under it', () => {
    expect(header('Big Mart\nHimalayan Java\nDate,Narration,Amount\n')).toBeUndefined();
    expect(
      header('Big Mart\nHimalayan Java\nDate,Narration,Amount\n2026-10-01,Cafe,5\n')?.line,
    ).toBe(3);
  });

  it('is looked for in the first 20 lines that are not blank', () => {
    const heading = (n: number) =>
      Array.from({ length: n }, (_, i) => `Heading line ${i}\n\n`).join('');
    const table = 'Date,Narration,Amount\n2026-10-01,Big Mart,120\n';
    expect(header(heading(19) + table)?.line).toBe(39);
    expect(header(heading(20) + table)).toBeUndefined();
  });
});

describe('columnRowOf: the row --column takes its column from', () => {
  it.each([
    ['nic-asia.csv', 'Particulars', { separator: ',', line: 9 }],
    ['nabil.txt', 'Description', { separator: '|', line: 7 }],
    ['global-ime-nepali.tsv', 'विवरण', { separator: '\t', line: 6 }],
    ['nabil.txt', 'Narration', undefined],
  ])('%s, column %s', (fixture, column, found) => {
    const text = statement(fixture);
    const row = columnRowOf(text, column, true);
    expect(row && { separator: row.separator, line: row.line }).toEqual(found);
    if (row) expect(text.slice(row.start).split(/\r?\n/)[0]).toContain(column);
  });

  it('is the first line with a field equal to the column, split by the separator that gives the most fields', () => {
    expect(columnRowOf('Narration\na,b\n', 'Narration', true)).toEqual({
      separator: ',',
      start: 0,
      line: 1,
    });
    expect(columnRowOf('x\n"Date";"Narration, full";"Amount"\n', 'Narration, full', true)).toEqual({
      separator: ';',
      start: 2,
      line: 2,
    });
    expect(columnRowOf('Date, Narration\n', 'narration', true)).toBeUndefined();
  });
});

describe('a file of one lookup a line is not taken for CSV', () => {
  it.each([
    [
      'a first name with one comma',
      'Bhat-Bhateni Supermarket, Pvt. Ltd.\nHimalayan Java\n9756038350856888\n',
    ],
    ['a single name with a comma', 'Bhat-Bhateni Supermarket, Pvt. Ltd.\n'],
    ['a single name with a comma and no line end', 'Bhat-Bhateni Supermarket, Pvt. Ltd.'],
    [
      'names and branches, all text',
      'Big Mart, Baneshwor\nHimalayan Java, Thamel\nBhat-Bhateni, Maharajgunj\n',
    ],
    ['terminal numbers', '9756038350856888\n9756038350851234\n'],
    [
      'narrations whose first line has numbers',
      'MPAY 2222020006840462,492738040,MOB\nMPAY 2222020006840999,492738041,MOB\n',
    ],
    [
      'narrations of different shapes',
      'ESEWA LOAD,CASH,KTM\nATM WDL THAMEL\nMPAY 2222020006840462,492738040,MOB\n',
    ],
    [
      'a first line that is a sentence',
      'Cafe de Patan, serving since long ago, Lalitpur\nKathmandu Guest House\n',
    ],
    [
      'long first fields',
      'Shree Pashupati Traders and General Order Suppliers Pvt Ltd, Kathmandu\nBig Mart\n',
    ],
    ['an empty file', ''],
    ['blank lines', '\n \n\t\n'],
  ])('%s', (_name, text) => {
    expect(header(text)).toBeUndefined();
  });

  it('any file of names without a separator', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ maxLength: 30 }).filter((s) => !/[,;\t]/.test(s)),
          { maxLength: 30 },
        ),
        fc.constantFrom('\n', '\r\n', '\r'),
        (lines, eol) => {
          expect(header(lines.join(eol))).toBeUndefined();
        },
      ),
    );
  });

  it('any file whose first line has a comma and most lines below none', () => {
    const name = fc.stringMatching(/^[A-Za-z][A-Za-z .-]{0,20}$/);
    fc.assert(
      fc.property(name, name, fc.array(name, { minLength: 1, maxLength: 20 }), (a, b, rest) => {
        expect(header([`${a}, ${b}`, ...rest].join('\n') + '\n')).toBeUndefined();
      }),
    );
  });
});

describe('a plain list of lookups is never taken for a statement', () => {
  // Names as merchants are written, in English and in Nepali, some with a comma and a place.
  const word = fc.constantFrom(
    'Bhat-Bhateni',
    'Supermarket',
    'Himalayan',
    'Java',
    'Coffee',
    'Big',
    'Mart',
    'Pvt.',
    'Ltd.',
    'Kathmandu',
    'Guest',
    'House',
    'Traders',
    'Cafe',
    'de',
    'Patan',
    'Sherpa',
    'Momo',
    'Store',
    'Pharmacy',
    'Hardware',
    'Nepal',
    'Telecom',
    'Daraz',
    'Foodmandu',
    'Bank',
    'of',
    'Kathmandu',
    'Value',
    'City',
    'Day',
    'Fresh',
  );
  const nepali = fc.constantFrom(
    'भाटभटेनी',
    'सुपरमार्केट',
    'हिमालयन',
    'जाभा',
    'कफी',
    'बिग',
    'मार्ट',
    'काठमाडौं',
    'पसल',
    'तरकारी',
    'मोमो',
    'औषधि',
    'पोखरा',
  );
  const place = fc.constantFrom(
    'Koteshwor',
    'Thamel',
    'Baneshwor',
    'Lalitpur',
    'Pokhara',
    'कोटेश्वर',
    'ठमेल',
    'Ward 4',
    'Pvt. Ltd.',
  );
  const name = fc
    .array(fc.oneof(word, nepali), { minLength: 1, maxLength: 5 })
    .map((words) => words.join(' '));
  const line = fc.oneof(
    name,
    fc.tuple(name, place).map(([n, p]) => `${n}, ${p}`),
    fc.stringMatching(/^\d{16,19}$/),
    fc.constantFrom('', '  '),
  );

  it('lines of names (a comma and a place in some, or in all) and terminal numbers, in any order', () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 60 }),
        fc.constantFrom('\n', '\r\n'),
        (lines, eol) => {
          const text = lines.join(eol) + eol;
          expect(header(text)).toBeUndefined();
          expect(accountLineOf(text, true)).toBeUndefined();
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('separatorOf', () => {
  it.each([
    ['date,narration,amount\n', ','],
    ['date;narration;amount\n', ';'],
    ['date\tnarration\tamount\n', '\t'],
    ['"a;b",c,d\n', ','],
    ['narration\n', ','],
    ['"Date";"Narration, full";"Amount"\n', ';'],
  ])('%j is separated by %j', (text, separator) => {
    expect(separatorOf(text, true)).toBe(separator);
  });
});

describe('headerDecided: when reading more cannot change the answer', () => {
  it.each([
    ['a terminal number first', '9756038350856888\nBig Mart, Baneshwor\n', true],
    ['a name without a separator', 'Himalayan Java\n', false],
    [
      'a first name with a comma, then a name without',
      'Bhat-Bhateni, Pvt. Ltd.\nHimalayan Java\n',
      false,
    ],
    ['20 names', 'Himalayan Java\n'.repeat(20), true],
    ['a first line not ended yet', '9756038350856888', false],
    ['a header with a few rows', 'date,narration,amount\n2026-10-01,Big Mart,120\n', false],
    [
      'a header with 20 rows',
      'date,narration,amount\n' + '2026-10-01,Big Mart,120\n'.repeat(20),
      true,
    ],
    [
      'a first name with a comma, then more alike',
      'Bhat-Bhateni, Pvt. Ltd.\nBig Mart, Baneshwor\n',
      false,
    ],
  ])('%s: %s', (_name, text, decided) => {
    expect(headerDecided(text)).toBe(decided);
  });

  it('agrees with csvHeaderOf on the whole sample whenever it says so', () => {
    const line = fc.oneof(
      fc.constantFrom(
        'date,narration,amount',
        'Bhat-Bhateni, Pvt. Ltd.',
        'Big Mart, Baneshwor',
        '9756038350856888',
        '"a, b",c',
        '2026-10-01,Big Mart,120',
        '',
        'x;y;z',
        'NABIL BANK LTD',
        'Account Number: 0123456789012345',
        'Date|Description|Amount',
        '2026-10-01|Big Mart|120',
        '*** end of statement ***',
      ),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), fc.nat(), (lines, cut) => {
        const text = lines.join('\n') + '\n';
        const prefix = text.slice(0, cut % (text.length + 1));
        if (!headerDecided(prefix)) return;
        expect(csvHeaderOf(prefix, false)).toEqual(csvHeaderOf(text, true));
        expect(accountLineOf(prefix, false)).toEqual(accountLineOf(text, true));
      }),
      { numRuns: 2000 },
    );
  });
});
