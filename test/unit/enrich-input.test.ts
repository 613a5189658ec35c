// The transactions file of `svc enrich --file`: JSON (a list, or an object holding `transactions`)
// or CSV with a header row; each transaction checked, the first bad one named by its CSV line or
// its JSON index (exit 2), before any request.
import { describe, expect, it } from 'vitest';

import { isCalendarDate } from '../../src/commands/args.js';
import { inputForm, MAX_TRANSACTIONS, parseTransactions } from '../../src/commands/enrich/input.js';
import { EXIT, UsageError } from '../../src/core/errors.js';

/** The message of the usage error the text gives; fails the test when it gives none. */
function refusal(text: string, source = 'tx'): string {
  try {
    parseTransactions(text, source);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(EXIT.usage);
    return (error as UsageError).message;
  }
  throw new Error('no usage error');
}

const HEADER = 'date,description,credit,debit,balance';

describe('the form of the file', () => {
  it('is JSON when it opens with [ or {, after a byte-order mark and white space; CSV otherwise', () => {
    expect(inputForm('[]')).toBe('json');
    expect(inputForm('\uFEFF  \n {"transactions":[]}')).toBe('json');
    expect(inputForm(HEADER)).toBe('csv');
    expect(inputForm('')).toBe('csv');
  });
});

describe('CSV', () => {
  it('reads a header row and one transaction a line, credit or debit, amounts as numbers', () => {
    const text = `${HEADER}\n2026-03-25,SALARY MARCH,72000,,145200\n2026-03-26,MPAY 2222020006840462,,492.50,144707.5\n`;
    expect(parseTransactions(text, 'tx.csv')).toEqual([
      { date: '2026-03-25', description: 'SALARY MARCH', credit: 72000, balance: 145200 },
      { date: '2026-03-26', description: 'MPAY 2222020006840462', debit: 492.5, balance: 144707.5 },
    ]);
  });

  it('finds the columns by name, in any order and case; other columns are left out', () => {
    const text = '\uFEFFBalance, Date ,note,Debit,Description\r\n-300,2026-01-02,x,100,ATM\r\n';
    expect(parseTransactions(text, 'tx.csv')).toEqual([
      { date: '2026-01-02', description: 'ATM', debit: 100, balance: -300 },
    ]);
  });

  it('takes a file with a credit column only, or a debit column only', () => {
    expect(
      parseTransactions('date,description,credit,balance\n2026-01-01,IN,5,5\n', 'tx.csv'),
    ).toHaveLength(1);
    expect(
      parseTransactions('date,description,debit,balance\n2026-01-01,OUT,5,-5\n', 'tx.csv'),
    ).toHaveLength(1);
  });

  it('skips blank lines, and quoted cells keep their commas and line breaks', () => {
    const text = `${HEADER}\n\n2026-01-01,"RENT, FLAT 2\nKATHMANDU",,15000,1000\n\n`;
    expect(parseTransactions(text, 'tx.csv')).toEqual([
      { date: '2026-01-01', description: 'RENT, FLAT 2\nKATHMANDU', debit: 15000, balance: 1000 },
    ]);
  });

  it('names the line of the first bad transaction, blank lines, quoted line breaks and CRLF counted', () => {
    const text = `${HEADER}\r\n2026-01-01,A,1,,1\r\n\r\n2026-01-02,"B\r\nB",1,,2\n2026-01-03,C,1,,3\n2026-02-30,D,1,,4\n2026-01-05,,1,,5\n`;
    expect(refusal(text, 'tx.csv')).toBe(
      'tx.csv, line 7: date "2026-02-30" is not a date of the form YYYY-MM-DD',
    );
  });

  it('names the line where a multi-line record starts', () => {
    const text = `${HEADER}\n2026-01-01,"A\nA\nA",1,2,1\n`;
    expect(refusal(text)).toBe(
      'tx, line 2: both credit and debit are given: a transaction is one or the other (leave the other empty)',
    );
  });

  it.each([
    ['2026-1-5,A,1,,1', 'tx, line 2: date "2026-1-5" is not a date of the form YYYY-MM-DD'],
    [',A,1,,1', 'tx, line 2: the date is missing (YYYY-MM-DD)'],
    ['2026-01-05,  ,1,,1', 'tx, line 2: the description is empty'],
    [
      '2026-01-05,A,1,2,1',
      'tx, line 2: both credit and debit are given: a transaction is one or the other (leave the other empty)',
    ],
    ['2026-01-05,A,,,1', 'tx, line 2: neither credit nor debit is given'],
    [
      '2026-01-05,A,-1,,1',
      'tx, line 2: credit -1 is negative: credit and debit are amounts of 0 or more',
    ],
    [
      '2026-01-05,A,"1,250.00",,1',
      'tx, line 2: credit "1,250.00" is not a number (write amounts as plain numbers, such as 1250.50)',
    ],
    [
      '2026-01-05,A,,1e3,1',
      'tx, line 2: debit "1e3" is not a number (write amounts as plain numbers, such as 1250.50)',
    ],
    ['2026-01-05,A,1,,', 'tx, line 2: the balance is missing'],
    ['2026-01-05,A,1', 'tx, line 2: the balance is missing'],
    [
      '2026-01-05,A,1,,NPR 5',
      'tx, line 2: balance "NPR 5" is not a number (write amounts as plain numbers, such as 1250.50)',
    ],
  ])('refuses %j', (row, message) => {
    expect(refusal(`${HEADER}\n${row}\n`)).toBe(message);
  });

  it('takes a credit or debit of 0', () => {
    expect(parseTransactions(`${HEADER}\n2026-01-05,FEE WAIVED,,0,10\n`, 'tx')).toEqual([
      { date: '2026-01-05', description: 'FEE WAIVED', debit: 0, balance: 10 },
    ]);
  });

  it('refuses a header row without the columns it needs, naming them and the ones it has', () => {
    expect(refusal('2026-01-01,A,1,,1\n')).toBe(
      'the header row of tx has no column "date", "description", "balance", "credit" or "debit" (it has "2026-01-01", "A", "1", "", "1")',
    );
    expect(refusal('date,description,amount,balance\n')).toBe(
      'the header row of tx has no column "credit" or "debit" (it has "date", "description", "amount", "balance")',
    );
  });

  it('refuses a file with no transactions, and a CSV it cannot read', () => {
    expect(refusal('')).toBe(`tx holds no transactions (give 1 to ${MAX_TRANSACTIONS})`);
    expect(refusal(`${HEADER}\n\n`)).toBe(
      `tx holds no transactions (give 1 to ${MAX_TRANSACTIONS})`,
    );
    expect(refusal(`${HEADER}\n2026-01-01,"A,1,,1\n`)).toMatch(
      /^cannot read tx as CSV: Quote Not Closed/,
    );
  });
});

describe('JSON', () => {
  const item = { date: '2026-03-25', description: 'SALARY', credit: 72000, balance: 145200 };

  it('reads a list of transactions, or an object holding "transactions"', () => {
    expect(parseTransactions(JSON.stringify([item]), 'tx.json')).toEqual([item]);
    expect(
      parseTransactions(JSON.stringify({ transactions: [item], note: 'x' }), 'tx.json'),
    ).toEqual([item]);
  });

  it('leaves out a null credit or debit and keeps other fields as given', () => {
    const older = { ...item, debit: null, category: 'salary', merchant: null };
    expect(parseTransactions(JSON.stringify([older]), 'tx.json')).toEqual([
      {
        date: '2026-03-25',
        description: 'SALARY',
        credit: 72000,
        balance: 145200,
        category: 'salary',
        merchant: null,
      },
    ]);
  });

  it('names the index of the first bad transaction', () => {
    const items = [item, item, { ...item, credit: -5 }, { ...item, date: 'x' }];
    expect(refusal(JSON.stringify(items), 'tx.json')).toBe(
      'tx.json, index 2: credit -5 is negative: credit and debit are amounts of 0 or more',
    );
    expect(refusal(JSON.stringify({ transactions: [item, 7] }), 'tx.json')).toBe(
      'tx.json, index 1: a transaction is an object, not a number',
    );
  });

  it.each([
    [{ ...item, credit: '72000' }, 'index 0: credit should be a number, not a text ("72000")'],
    [{ ...item, balance: undefined }, 'index 0: the balance is missing'],
    [{ ...item, balance: null }, 'index 0: the balance is missing'],
    [{ ...item, date: 20260325 }, 'index 0: date should be a text, not a number (20260325)'],
    [
      { ...item, date: '2026-03-25T00:00:00Z' },
      'index 0: date "2026-03-25T00:00:00Z" is not a date of the form YYYY-MM-DD',
    ],
    [{ ...item, description: '' }, 'index 0: the description is empty'],
    [
      { ...item, debit: 1 },
      'index 0: both credit and debit are given: a transaction is one or the other (leave the other empty)',
    ],
    [{ ...item, credit: null }, 'index 0: neither credit nor debit is given'],
  ])('refuses %j', (bad, message) => {
    expect(refusal(JSON.stringify([bad]), 'tx.json')).toBe(`tx.json, ${message}`);
  });

  it('refuses a number JSON reads as infinite', () => {
    expect(refusal('[{"date":"2026-01-01","description":"A","credit":1e400,"balance":1}]')).toBe(
      'tx, index 0: credit is too large a number',
    );
  });

  it('refuses JSON of another shape, and text that is no JSON', () => {
    expect(refusal('{"data":[]}')).toBe(
      'tx: the JSON is neither a list of transactions nor an object holding "transactions"',
    );
    expect(refusal('{"transactions":{}}')).toBe(
      'tx: "transactions" should be a list, but it is an object',
    );
    expect(refusal('[]')).toBe(`tx holds no transactions (give 1 to ${MAX_TRANSACTIONS})`);
    expect(refusal('[{"date":')).toMatch(/^cannot read tx as JSON: /);
  });

  it('takes 5000 transactions and refuses 5001', () => {
    expect(
      parseTransactions(JSON.stringify(Array(MAX_TRANSACTIONS).fill(item)), 'tx'),
    ).toHaveLength(MAX_TRANSACTIONS);
    expect(refusal(JSON.stringify(Array(MAX_TRANSACTIONS + 1).fill(item)))).toBe(
      'tx holds 5001 transactions; enrich takes at most 5000 per call',
    );
  });
});

describe('dates', () => {
  it.each([
    ['2024-02-29', true],
    ['2025-02-29', false],
    ['2000-02-29', true],
    ['1900-02-29', false],
    ['0000-02-29', true],
    ['2026-04-31', false],
    ['2026-12-31', true],
    ['2026-00-10', false],
    ['2026-13-01', false],
    ['2026-01-00', false],
    ['26-01-01', false],
    ['2026-01-01 ', false],
  ])('%s is a date: %s', (text, expected) => {
    expect(isCalendarDate(text)).toBe(expected);
  });
});
