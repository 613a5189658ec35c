// Numbers, in-process, as a person at a terminal and as a script (contract §3, §4a). A script gets
// the service's own values, every digit kept, in a pipe's table, in CSV and NDJSON and in the merged
// reply of `merchants resolve`, however JSON.parse would read them (125000.50,
// 12345678901234567890, 1e400, -0); a person gets amounts grouped in lakhs with two decimals,
// every digit of the integer part kept.
import { describe, expect, it } from 'vitest';
import { FakeService, MemoryCache, MODES, plain, svc } from '../support/in-process.js';

const ID = 'rpt_9f2c41d07ab35e18';
/** 20 digits: a double keeps 17 of them (…567000). */
const BIG = '12345678901234567890';
/** Its lakh grouping, for people. */
const BIG_FOR_PEOPLE = '1,23,45,67,89,01,23,45,67,890.00';

/** A service answering one GET with this text. */
const answering = (path: string, raw: string) => new FakeService().expect('GET', path, { raw });

/** The lines of stdout, without the colour a terminal gets. */
const linesOf = (stdout: string) => plain(stdout).split('\n');

describe('a designed table: reports transactions', () => {
  const raw = `{"count": 2, "transactions": [
    {"id": "txn_0001", "date": "2026-03-25", "description": "SALARY", "debit": null, "credit": ${BIG}, "balance": 125000.50, "category": "salary", "confidence": 0.950},
    {"id": "txn_0002", "date": "2026-03-26", "description": "ODD", "debit": 1e400, "credit": null, "balance": -0, "category": "other", "confidence": 1E-7}
  ]}`;
  const run = (tty: boolean, ...flags: string[]) => svc(['reports', 'transactions', ID, ...flags], { tty, service: answering(`/v1/reports/${ID}/transactions`, raw) });

  it('gives a script every number as the service wrote it, in the table of a pipe', async () => {
    const r = await run(false);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      'DATE\tDESCRIPTION\tDEBIT\tCREDIT\tBALANCE\tCATEGORY\tID\tCONFIDENCE\n' +
        `2026-03-25\tSALARY\t\t${BIG}\t125000.50\tsalary\ttxn_0001\t0.950\n` +
        '2026-03-26\tODD\t1e400\t\t-0\tother\ttxn_0002\t1E-7\n',
    );
  });

  it('shows a person the amounts as money, every digit kept; a number no double holds as it came', async () => {
    const r = await run(true);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const screen = plain(r.stdout);
    expect(screen).toContain(BIG_FOR_PEOPLE);
    expect(screen).toContain('1,25,000.50');
    expect(screen).toContain('1e400');
    expect(screen).not.toMatch(/Infinity|NaN|null|567000/);
  });

  it.each(MODES)('-o csv and -o ndjson write the numbers as received, for $mode', async ({ tty }) => {
    const csv = await run(tty, '-o', 'csv');
    expect(csv.code, csv.stderr).toBe(0);
    expect(plain(csv.stdout).split('\r\n').slice(1, 3)).toEqual([`txn_0001,2026-03-25,SALARY,,${BIG},125000.50,salary,0.950`, 'txn_0002,2026-03-26,ODD,1e400,,-0,other,1E-7']);
    const ndjson = await run(tty, '-o', 'ndjson');
    expect(ndjson.code, ndjson.stderr).toBe(0);
    expect(plain(ndjson.stdout)).toContain(`"credit":${BIG},"balance":125000.50`);
    expect(plain(ndjson.stdout)).toContain('"debit":1e400,');
  });
});

describe('the data families: a list the command picks out of the reply', () => {
  const raw = `{"data": {"month": "2026-02", "line_items": [
    {"key": "total-deposits", "label": "Total deposits", "value": ${BIG}, "unit": "NPR_mn"},
    {"key": "reserves", "label": "Reserves", "value": 1e400, "unit": "NPR_mn"},
    {"key": "capital", "label": "Capital", "value": 20603.190, "unit": "NPR_mn"}
  ]}, "meta": {"source": "Nepal Rastra Bank"}}`;
  const run = (tty: boolean, ...flags: string[]) =>
    svc(['data', 'latest', 'balance-sheet', ...flags], { tty, columns: 120, cache: new MemoryCache(), service: answering('/v1/data/cbank/banking/balance-sheet/latest', raw) });

  it('a script gets the values as received in the table of a pipe', async () => {
    const r = await run(false);
    expect(r.code, r.stderr).toBe(0);
    const lines = linesOf(r.stdout);
    expect(lines).toContain(`2026-02\ttotal-deposits\tTotal deposits\t${BIG}`);
    expect(lines).toContain('2026-02\treserves\tReserves\t1e400');
    expect(lines).toContain('2026-02\tcapital\tCapital\t20603.190');
  });

  it('a person sees them grouped, every digit kept', async () => {
    const r = await run(true);
    expect(r.code, r.stderr).toBe(0);
    expect(plain(r.stdout)).toContain(BIG_FOR_PEOPLE);
    expect(plain(r.stdout)).toMatch(/│ reserves +│ Reserves +│ +1e400 │/);
    expect(plain(r.stdout)).toContain('20,603.19');
  });

  it.each(MODES)('-o ndjson and -o csv write each line item with its value as received, for $mode', async ({ tty }) => {
    const ndjson = await run(tty, '-o', 'ndjson');
    expect(ndjson.code, ndjson.stderr).toBe(0);
    expect(plain(ndjson.stdout).split('\n').slice(0, 3)).toEqual([
      `{"key":"total-deposits","label":"Total deposits","value":${BIG},"unit":"NPR_mn"}`,
      '{"key":"reserves","label":"Reserves","value":1e400,"unit":"NPR_mn"}',
      '{"key":"capital","label":"Capital","value":20603.190,"unit":"NPR_mn"}',
    ]);
    const csv = await run(tty, '-o', 'csv');
    expect(csv.code, csv.stderr).toBe(0);
    expect(plain(csv.stdout).split('\r\n').slice(0, 4)).toEqual(['key,label,value,unit', `total-deposits,Total deposits,${BIG},NPR_mn`, 'reserves,Reserves,1e400,NPR_mn', 'capital,Capital,20603.190,NPR_mn']);
  });
});

describe('merchants resolve: replies merged into one', () => {
  const T1 = '9756038350856888';
  const raw = `{"data": {"count": 1, "matched": 1, "results": [{"input": "${T1}", "type": "terminal", "matched": true, "merchant": "Big Mart", "mcc": 5411, "limit": ${BIG}, "risk": 1e400, "rate": 0.10, "delta": -0}]}, "meta": {"source": "svc merchant directory", "version": 2.0}}`;
  const run = (tty: boolean, ...flags: string[]) => svc(['merchants', 'resolve', T1, ...flags], { tty, service: new FakeService().expect('POST', '/v1/merchants/resolve', { raw }) });

  it.each(MODES)('--json writes the merged reply with every number as received, for $mode', async ({ tty }) => {
    const r = await run(tty, '--json');
    expect(r.code, r.stderr).toBe(0);
    const text = plain(r.stdout);
    expect(text).toContain(`"limit": ${BIG},`);
    expect(text).toContain('"risk": 1e400,');
    expect(text).toContain('"rate": 0.10,');
    expect(text).toContain('"delta": -0\n');
    expect(text).toContain('"version": 2.0\n');
    expect(text).not.toMatch(/null|Infinity|567000/);
  });

  it.each(MODES)('-o ndjson and -o csv write them as received too, for $mode', async ({ tty }) => {
    const ndjson = await run(tty, '-o', 'ndjson');
    expect(ndjson.code, ndjson.stderr).toBe(0);
    expect(plain(ndjson.stdout)).toBe(`{"input":"${T1}","type":"terminal","matched":true,"merchant":"Big Mart","mcc":5411,"limit":${BIG},"risk":1e400,"rate":0.10,"delta":-0}\n`);
  });
});
