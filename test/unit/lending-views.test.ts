// The lending views of a report (transactions, income, balance, liabilities, score, verify,
// underwrite), built from the documented sample bodies and from odd ones: fields missing, of the
// wrong type, unknown, or hostile. Views are rendered as a pipe and as a terminal would see them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { balanceView } from '../../src/commands/reports/balance.js';
import { incomeView, monthlyCreditPoints } from '../../src/commands/reports/income.js';
import { liabilitiesView } from '../../src/commands/reports/liabilities.js';
import { scoreView } from '../../src/commands/reports/score.js';
import {
  countText,
  filtersText,
  transactionRow,
  transactionsOf,
  transactionsView,
} from '../../src/commands/reports/transactions.js';
import { loanText, underwritingView } from '../../src/commands/reports/underwrite.js';
import { verifyView } from '../../src/commands/reports/verify.js';
import { UnexpectedReplyError } from '../../src/core/errors.js';
import { printableDeep } from '../../src/core/output/format.js';
import { createPaint, type Paint } from '../../src/core/output/paint.js';
import { renderTable } from '../../src/core/output/render.js';
import { pipeRemarks, type View } from '../../src/core/output/view.js';
import { ReplyReading } from '../../src/service/reading.js';

const plain = await createPaint(false);
/** A palette that shows its colours as tags, so a test can read them. */
const tagged: Paint = {
  header: (t) => t,
  title: (t) => t,
  dim: (t) => `<dim>${t}</dim>`,
  good: (t) => `<good>${t}</good>`,
  warn: (t) => `<warn>${t}</warn>`,
  bad: (t) => `<bad>${t}</bad>`,
  accent: (t) => t,
};
const BAD_WORDS = /undefined|NaN|\[object Object\]/;

const pipe = (view: View, paint: Paint = plain) =>
  renderTable(view, { terminal: false, width: 120, paint });
const terminal = (view: View, paint: Paint = plain, width = 160) =>
  renderTable(view, { terminal: true, width, paint });
const reading = () => new ReplyReading('GET /v1/reports/rpt_1/x');
/** As `ctx.present` hands a body to a view: every string made printable. */
const forPeople = <T>(body: T): T => printableDeep(body);

const ID = 'rpt_9f2c41d07ab35e18';

describe('reports transactions', () => {
  const documented = {
    count: 2,
    transactions: [
      {
        id: 'txn_0001',
        date: '2026-03-25',
        description: 'SALARY MAR 2026',
        debit: null,
        credit: 72000,
        balance: 145200,
        category: 'salary',
        confidence: 0.95,
      },
      {
        id: 'txn_0002',
        date: '2026-03-26',
        description: 'MPAY 2222020006840462,492738040,MOB',
        debit: 1250.5,
        credit: null,
        balance: 143949.5,
        category: 'merchant_payment',
        confidence: 0.8,
      },
    ],
  };

  it('shows the documented listing: date, description, debit, credit, balance, category, then the fields no column shows', () => {
    const view = transactionsView(documented, reading(), {
      id: ID,
      filters: { category: 'salary', limit: 10 },
    });
    expect(pipe(view)).toBe(
      'DATE\tDESCRIPTION\tDEBIT\tCREDIT\tBALANCE\tCATEGORY\tID\tCONFIDENCE\n' +
        '2026-03-25\tSALARY MAR 2026\t\t72000\t145200\tsalary\ttxn_0001\t0.95\n' +
        '2026-03-26\tMPAY 2222020006840462,492738040,MOB\t1250.5\t\t143949.5\tmerchant_payment\ttxn_0002\t0.8\n',
    );
    // People read the amounts as money.
    expect(terminal(view)).toMatch(/│ +72,000\.00 │ +1,45,200\.00 │/);
  });

  it('puts the count and the filters in force under the table on a terminal only', () => {
    const view = transactionsView(documented, reading(), {
      id: ID,
      filters: { category: 'salary', direction: 'credit', since: '2026-01-01', limit: 10 },
    });
    const text = terminal(view);
    expect(text.split('\n')[0]).toBe(`Transactions of ${ID}`);
    expect(text).toContain('2 transactions.');
    expect(text).toContain('Filters: category salary, credits only, since 2026-01-01, limit 10.');
    expect(pipe(view)).not.toContain('Filters');
  });

  it('says how many it shows when the count differs, and when no filter is in force', () => {
    expect(countText(1, 1)).toBe('1 transaction.');
    expect(countText(500, 1200)).toBe('500 transactions shown; the reply counts 1,200.');
    expect(filtersText({})).toMatch(/^No filters/);
    expect(filtersText({ merchant_category: 'dining', until: '2026-02-28' })).toBe(
      'Filters: merchant category dining, until 2026-02-28.',
    );
  });

  it('reads the newer shape: name, a signed amount of its own, the primary category, the merchant name', () => {
    const newer = {
      count: 1,
      transactions: [
        {
          transaction_id: 'txn_0001',
          date: '2026-03-25',
          name: 'DARAZ ONLINE',
          amount: -2450,
          iso_currency_code: 'NPR',
          balance: 10000,
          merchant_name: 'Daraz',
          personal_finance_category: { primary: 'merchant_payment', detailed: 'online_shopping' },
          pending: false,
        },
      ],
    };
    expect(pipe(transactionsView(newer, reading()))).toBe(
      'DATE\tDESCRIPTION\tAMOUNT\tBALANCE\tCATEGORY\tMERCHANT\tID\tISO CURRENCY CODE\tPERSONAL FINANCE CATEGORY.DETAILED\tPENDING\n' +
        '2026-03-25\tDARAZ ONLINE\t-2450\t10000\tmerchant_payment\tDaraz\ttxn_0001\tNPR\tonline_shopping\tno\n',
    );
    expect(terminal(transactionsView(newer, reading()))).toContain('-2,450.00');
  });

  it('reads both shapes in one list, and the older shape with its merchant', () => {
    const mixed = {
      transactions: [
        {
          date: '2026-03-01',
          description: 'ATM',
          debit: 5000,
          credit: null,
          balance: 1000,
          category: 'cash_withdrawal',
          merchant: 'NABIL ATM',
        },
        { date: '2026-03-02', name: 'REFUND', amount: 300, balance: 1300 },
      ],
    };
    const text = pipe(transactionsView(mixed, reading()));
    expect(text.split('\n')[0]).toBe(
      'DATE\tDESCRIPTION\tDEBIT\tCREDIT\tAMOUNT\tBALANCE\tCATEGORY\tMERCHANT',
    );
    expect(text.split('\n')[2]).toBe('2026-03-02\tREFUND\t\t\t300\t1300\t\t');
  });

  it('shows a known field of the wrong type as it came, and unknown items whole', () => {
    const odd = {
      transactions: [
        {
          date: 20260301,
          description: { text: 'x' },
          debit: 'n/a',
          credit: true,
          balance: '1200.50',
        },
        'a string',
        null,
        7,
      ],
    };
    const text = pipe(transactionsView(odd, reading()));
    expect(text).not.toMatch(BAD_WORDS);
    expect(text.split('\n')[1]).toBe('20260301\t{"text":"x"}\tn/a\tyes\t1200.50\t\t');
    expect(text).toContain('a string');
    expect(terminal(transactionsView(odd, reading()))).not.toMatch(BAD_WORDS);
  });

  it('keeps the rest of the reply beside the table: under it on a terminal, on stderr from a pipe', () => {
    const view = transactionsView(
      { count: 'many', transactions: [], next_cursor: 'abc' },
      reading(),
    );
    expect(terminal(view)).toMatch(/Next cursor\s+abc/);
    expect(pipe(view)).not.toContain('next_cursor');
    expect(pipeRemarks(view)).toEqual(expect.arrayContaining(['count: many', 'next_cursor: abc']));
  });

  it('says so when no transaction matches', () => {
    expect(
      terminal(
        transactionsView({ count: 0, transactions: [] }, reading(), {
          filters: { direction: 'debit' },
        }),
      ),
    ).toContain('No transactions match these filters.');
    expect(
      terminal(transactionsView({ count: 0, transactions: [] }, reading(), { filters: {} })),
    ).toContain('The report has no transactions.');
  });

  it('walks the list: without it, or with another type, the reply is exit 10', () => {
    for (const body of [
      {},
      { transactions: {} },
      { transactions: 'x' },
      [],
      'text',
      null,
      { data: [] },
    ]) {
      expect(() => transactionsView(body, reading())).toThrow(UnexpectedReplyError);
      expect(() => transactionsOf(body, reading())).toThrow(
        /"transactions" should be a list|the body should be an object/,
      );
    }
    expect(transactionsOf(documented, reading())).toBe(documented.transactions);
  });

  it('hides nothing of hostile items: __proto__, control characters, odd keys', () => {
    const hostile = JSON.parse(
      '{"transactions":[{"date":"2026-03-01","description":"\\u001b[2JWIPE\\u0007","__proto__":{"x":1},"constructor":"c","category":"\\u009b31mred"}]}',
    ) as unknown;
    const text = pipe(transactionsView(forPeople(hostile), reading()));
    expect(text).not.toMatch(/[\u001b\u0007\u009b]/);
    expect(text).toContain('[2JWIPE');
    expect(text.split('\n')[0]).toMatch(/\t {2}PROTO {2}\.X\tCONSTRUCTOR$/);
    expect(text.split('\n')[1]).toMatch(/\t1\tc$/);
    expect(text).toContain('CONSTRUCTOR');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('row reading keeps the fields it did not show', () => {
    const row = transactionRow({
      date: 'd',
      description: 'a',
      name: 'b',
      personal_finance_category: { primary: 'p' },
    });
    expect(row.description).toBe('a');
    expect(row.category).toBe('p');
    expect({ ...row.rest }).toEqual({ name: 'b' });
  });
});

describe('reports income', () => {
  const documented = {
    salary_detected: true,
    salary_amount: 72000,
    salary_regularity: 'monthly',
    salary_day_of_month: 25,
    avg_monthly_credit: 85000,
    income_stability_score: 82,
    remittance_detected: false,
    monthly_credits: [
      { month: '2026-01', total_credits: 80000 },
      { month: '2026-02', total_credits: 84500.5 },
      { month: '2026-03', total_credits: 90000 },
    ],
    income_transactions: [],
  };

  it('shows the salary facts, then the monthly credits, then the income transactions', () => {
    const text = pipe(incomeView(documented, reading(), ID));
    expect(text).toBe(
      'FIELD\tVALUE\n' +
        'salary_detected\tyes\n' +
        'salary_amount\t72000\n' +
        'salary_regularity\tmonthly\n' +
        'salary_day_of_month\t25\n' +
        'income_stability_score\t82\n' +
        'remittance_detected\tno\n' +
        'avg_monthly_credit\t85000\n' +
        '\nMonthly credits\nMONTH\tCREDITS\n2026-01\t80000\n2026-02\t84500.5\n2026-03\t90000\n' +
        '\nIncome transactions\nDATE\tDESCRIPTION\tDEBIT\tCREDIT\tBALANCE\tCATEGORY\n',
    );
    const boxed = terminal(incomeView(documented, reading(), ID), tagged);
    for (const shown of ['72,000.00', '25th of the month', '82 / 100', '85,000.00', '84,500.50'])
      expect(boxed).toContain(shown);
    expect(boxed).toContain('Salary regularity');
    expect(boxed).toContain('<good>monthly</good>');
    expect(boxed).toContain('No income transactions.');
  });

  it('draws the monthly credits that have a number, in order', () => {
    expect(monthlyCreditPoints(documented)).toEqual([
      { period: '2026-01', value: 80000 },
      { period: '2026-02', value: 84500.5 },
      { period: '2026-03', value: 90000 },
    ]);
    expect(
      monthlyCreditPoints({
        monthly_credits: [{ month: '2026-01', total_credits: 'n/a' }, { total_credits: '5' }],
      }),
    ).toEqual([{ period: '?', value: 5 }]);
    expect(monthlyCreditPoints({ monthly_credits: { '2026-01': 5 } })).toEqual([]);
    expect(monthlyCreditPoints(null)).toEqual([]);
  });

  it('leaves blank what is missing, notes it for --debug, and shows what it does not know', () => {
    const r = reading();
    const text = pipe(
      incomeView({ salary_detected: false, employer: 'ACME', monthly_credits: { jan: 1 } }, r),
    );
    expect(text).toContain('salary_amount\t\n');
    expect(text).toContain('employer\tACME');
    expect(text).toContain('monthly_credits.jan\t1');
    expect(r.debugLines().join('\n')).toContain('"salary_amount"');
    expect(text).not.toMatch(BAD_WORDS);
  });

  it('puts a currency the reply names before its amounts', () => {
    expect(terminal(incomeView({ salary_amount: 72000, currency: 'NPR' }, reading()))).toMatch(
      /Salary +NPR 72,000\.00\n/,
    );
    expect(pipe(incomeView({ salary_amount: 72000, currency: 'NPR' }, reading()))).toContain(
      'salary_amount\t72000\n',
    );
  });
});

describe('reports balance', () => {
  const documented = {
    currency: 'NPR',
    period: { from: '2026-01-01', to: '2026-03-31' },
    opening_balance: 88566.46,
    closing_balance: 241986.21,
    avg_daily_balance: 12450.3,
    trend: 'growing',
  };

  it('shows period, currency, the three balances and the trend', () => {
    expect(pipe(balanceView(documented, reading(), ID))).toBe(
      'FIELD\tVALUE\n' +
        'period\t2026-01-01 → 2026-03-31\n' +
        'currency\tNPR\n' +
        'opening_balance\t88566.46\n' +
        'closing_balance\t241986.21\n' +
        'avg_daily_balance\t12450.3\n' +
        'trend\tgrowing\n',
    );
    const text = terminal(balanceView(documented, reading(), ID));
    for (const shown of ['NPR 88,566.46', 'NPR 2,41,986.21', 'NPR 12,450.30'])
      expect(text).toContain(shown);
  });

  it('paints a growing trend good and a declining one bad; an unknown one plain', () => {
    expect(terminal(balanceView(documented, reading()), tagged)).toContain('<good>growing</good>');
    expect(
      terminal(balanceView({ ...documented, trend: 'declining' }, reading()), tagged),
    ).toContain('<bad>declining</bad>');
    expect(terminal(balanceView({ ...documented, trend: 'sideways' }, reading()), tagged)).toMatch(
      /Trend *<\/dim> +sideways\n/,
    );
  });

  it('reads statement_period too, keeps what else a period holds, and shows a period of another type as it came', () => {
    const text = pipe(
      balanceView(
        { statement_period: { from: '2026-01-01', to: '2026-01-31', days: 31 } },
        reading(),
      ),
    );
    expect(text).toContain('period\t2026-01-01 → 2026-01-31');
    expect(text).toContain('statement_period.days\t31');
    expect(pipe(balanceView({ period: 'Q1 2026' }, reading()))).toContain('period\tQ1 2026');
    expect(pipe(balanceView({ opening_balance: 'twelve', trend: ['up'] }, reading()))).not.toMatch(
      BAD_WORDS,
    );
  });
});

describe('reports liabilities', () => {
  const documented = {
    monthly_emi_total: 21000,
    emi_load_pct: 24.5,
    bounce_count: 0,
    lenders: [
      { lender: 'NMB Bank', total: 63000, count: 3, monthly_avg: 21000 },
      { lender: 'Nabil Bank', total: 1500, count: 1, monthly_avg: 500, product: 'card' },
    ],
    liability_transactions: [
      {
        date: '2026-03-05',
        description: 'EMI NMB',
        debit: 21000,
        credit: null,
        balance: 50000,
        category: 'loan_repayment',
      },
    ],
  };

  it('shows the EMI total, the load, the bounces, the lenders and the EMI transactions', () => {
    expect(pipe(liabilitiesView(documented, reading(), ID))).toBe(
      'FIELD\tVALUE\n' +
        'monthly_emi_total\t21000\n' +
        'emi_load_pct\t24.5\n' +
        'bounce_count\t0\n' +
        '\nLenders\nLENDER\tTOTAL\tPAYMENTS\tMONTHLY AVG\tPRODUCT\n' +
        'NMB Bank\t63000\t3\t21000\t\n' +
        'Nabil Bank\t1500\t1\t500\tcard\n' +
        '\nLiability transactions\nDATE\tDESCRIPTION\tDEBIT\tCREDIT\tBALANCE\tCATEGORY\n' +
        '2026-03-05\tEMI NMB\t21000\t\t50000\tloan_repayment\n',
    );
    const text = terminal(liabilitiesView(documented, reading(), ID));
    for (const shown of ['21,000.00', '24.5%', '63,000.00', '500.00', '50,000.00'])
      expect(text).toContain(shown);
  });

  it('paints bounces: none good, any bad', () => {
    expect(terminal(liabilitiesView(documented, reading()), tagged)).toContain('<good>0</good>');
    expect(
      terminal(liabilitiesView({ ...documented, bounce_count: 2 }, reading()), tagged),
    ).toContain('<bad>2</bad>');
  });

  it('shows lenders that are no list of objects with the rest', () => {
    const text = pipe(liabilitiesView({ lenders: ['NMB', 'Nabil'] }, reading()));
    expect(text).toContain('lenders\tNMB, Nabil');
    expect(text).not.toMatch(BAD_WORDS);
  });
});

describe('reports score', () => {
  const documented = {
    score: 782,
    band: 'good',
    factors: [
      { factor: 'salary_regularity', impact: 45, detail: 'Salary every month on the 25th' },
      { factor: 'emi_load', impact: -60 },
      { factor: 'balance_trend', impact: 20.5 },
      { factor: 'bounces', impact: 0 },
    ],
  };

  it('shows the score of 1000 and the band, and the factors by the size of their impact with signs', () => {
    expect(pipe(scoreView(documented, reading(), ID))).toBe(
      'FIELD\tVALUE\n' +
        'score\t782\n' +
        'band\tgood\n' +
        '\nFactors\nFACTOR\tIMPACT\tDETAIL\n' +
        'emi_load\t-60\t\n' +
        'salary_regularity\t45\tSalary every month on the 25th\n' +
        'balance_trend\t20.5\t\n' +
        'bounces\t0\t\n',
    );
    const text = terminal(scoreView(documented, reading(), ID));
    for (const shown of ['782 / 1000', '+45', '+20.5']) expect(text).toContain(shown);
  });

  it('paints the score and band by the band, and impacts by their sign', () => {
    const text = terminal(scoreView(documented, reading()), tagged);
    expect(text).toContain('<good>782 / 1000</good>');
    expect(text).toContain('<bad>-60</bad>');
    expect(text).toContain('<good>+45</good>');
    expect(terminal(scoreView({ score: 300, band: 'very_poor' }, reading()), tagged)).toContain(
      '<bad>300 / 1000</bad>',
    );
    expect(terminal(scoreView({ score: 600, band: 'fair' }, reading()), tagged)).toContain(
      '<warn>fair</warn>',
    );
  });

  it('puts factors without a numeric impact last, in their order, and leaves out DETAIL when none has one', () => {
    const text = pipe(
      scoreView(
        {
          factors: [{ factor: 'a', impact: 'high' }, { factor: 'b', impact: -1 }, { factor: 'c' }],
        },
        reading(),
      ),
    );
    expect(text).toContain('FACTOR\tIMPACT\nb\t-1\na\thigh\nc\t\n');
  });

  it('shows odd scores without failing', () => {
    for (const body of [
      { score: '782' },
      { score: null, band: 5 },
      { factors: 'none' },
      [],
      'x',
      null,
    ]) {
      expect(pipe(scoreView(body, reading()))).not.toMatch(BAD_WORDS);
    }
    expect(terminal(scoreView({ score: '782' }, reading()))).toMatch(/Score +782 \/ 1000\n/);
  });
});

describe('reports verify', () => {
  const documented = {
    verdict: 'authentic',
    confidence: 0.93,
    checks: [
      { check: 'balance_chain_integrity', passed: true, severity: 'high' },
      { check: 'font_consistency', passed: false, severity: 'medium' },
      { check: 'metadata_producer', passed: true, severity: 'low' },
    ],
  };

  it('shows the verdict, the confidence as a percentage, and each check', () => {
    expect(pipe(verifyView(documented, reading(), ID))).toBe(
      'FIELD\tVALUE\n' +
        'verdict\tauthentic\n' +
        'confidence\t0.93\n' +
        '\nChecks\nCHECK\tRESULT\tSEVERITY\n' +
        'balance_chain_integrity\tpass\thigh\n' +
        'font_consistency\tfail\tmedium\n' +
        'metadata_producer\tpass\tlow\n',
    );
  });

  it('paints the verdict, failed checks and their severity, and counts the failures on a terminal', () => {
    const text = terminal(verifyView(documented, reading()), tagged);
    expect(text).toMatch(/Confidence *<\/dim> +93%\n/);
    expect(text).toContain('<good>authentic</good>');
    expect(text).toContain('<bad>fail</bad>');
    expect(text).toContain('<warn>medium</warn>');
    expect(text).toContain('<dim>high</dim>');
    expect(text).toContain('1 of 3 checks failed.');
    expect(terminal(verifyView({ verdict: 'suspicious' }, reading()), tagged)).toContain(
      '<bad>suspicious</bad>',
    );
  });

  it('shows a confidence out of range and a result of another type as they came', () => {
    const text = pipe(
      verifyView({ confidence: 93, checks: [{ check: 'x', passed: 'skipped' }] }, reading()),
    );
    expect(text).toContain('confidence\t93\n');
    expect(text).toContain('x\tskipped\t\n');
  });
});

describe('reports underwrite', () => {
  const reply = {
    verdict: 'review',
    reasons: ['FOIR above ceiling', 'Irregular salary'],
    foir: 0.46,
    max_supportable_emi: 18000,
    risk_flags: [{ flag: 'high_emi_load', severity: 'medium' }],
    name_match: { result: 'match', match_score: 96 },
  };

  it('shows the verdict first, then the reply as it comes', () => {
    const text = pipe(underwritingView(reply, { id: ID }));
    expect(text.split('\n').slice(0, 7)).toEqual([
      'FIELD\tVALUE',
      'verdict\treview',
      'reasons\tFOIR above ceiling, Irregular salary',
      'foir\t0.46',
      'max_supportable_emi\t18000',
      'name_match.result\tmatch',
      'name_match.match_score\t96',
    ]);
    expect(text).toContain('Risk flags\nFLAG\tSEVERITY\nhigh_emi_load\tmedium\n');
    expect(terminal(underwritingView({ ...reply, verdict: 'approve' }), tagged)).toContain(
      '<good>approve</good>',
    );
    expect(terminal(underwritingView({ verdict: 'decline' }), tagged)).toContain(
      '<bad>decline</bad>',
    );
  });

  it('names the loan in the title', () => {
    const loan = { principal: 500000, tenor_months: 36, annual_rate_pct: 12.5 };
    expect(loanText(loan)).toBe('NPR 5,00,000.00 over 36 months at 12.5% a year');
    expect(terminal(underwritingView(reply, { id: ID, loan })).split('\n')[0]).toBe(
      `Underwriting of ${ID}: NPR 5,00,000.00 over 36 months at 12.5% a year`,
    );
  });

  it('shows a reply without a verdict of one word by the generic view alone', () => {
    const text = pipe(
      underwritingView({ decision: { verdict: 'approve' }, verdict: { code: 'x' } }),
    );
    expect(text).toBe('FIELD\tVALUE\ndecision.verdict\tapprove\nverdict.code\tx\n');
  });
});

describe('every lending view', () => {
  const views: [string, (body: unknown) => View][] = [
    ['income', (b) => incomeView(b, reading(), ID)],
    ['balance', (b) => balanceView(b, reading(), ID)],
    ['liabilities', (b) => liabilitiesView(b, reading(), ID)],
    ['score', (b) => scoreView(b, reading(), ID)],
    ['verify', (b) => verifyView(b, reading(), ID)],
    ['underwrite', (b) => underwritingView(b, { id: ID })],
  ];

  it('shows any JSON reply, as a pipe and on a terminal, without failing and without undefined, NaN or [object Object]', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(...views), (body, [, view]) => {
        // A reply that itself says "NaN" (a key, a string) may show it.
        fc.pre(!BAD_WORDS.test(JSON.stringify(body)));
        const v = view(forPeople(body));
        expect(pipe(v, tagged)).not.toMatch(BAD_WORDS);
        expect(terminal(v, tagged, 80)).not.toMatch(BAD_WORDS);
      }),
      { numRuns: 400 },
    );
  });

  it('shows any JSON in the documented fields of each view without failing', () => {
    const names = [
      'salary_detected',
      'salary_amount',
      'salary_regularity',
      'salary_day_of_month',
      'avg_monthly_credit',
      'income_stability_score',
      'remittance_detected',
      'monthly_credits',
      'income_transactions',
      'currency',
      'period',
      'statement_period',
      'opening_balance',
      'closing_balance',
      'avg_daily_balance',
      'trend',
      'monthly_emi_total',
      'emi_load_pct',
      'bounce_count',
      'lenders',
      'liability_transactions',
      'score',
      'band',
      'factors',
      'verdict',
      'confidence',
      'checks',
    ];
    const body = fc.dictionary(fc.constantFrom(...names), fc.jsonValue({ maxDepth: 3 }));
    fc.assert(
      fc.property(body, fc.constantFrom(...views), (b, [, view]) => {
        fc.pre(!BAD_WORDS.test(JSON.stringify(b)));
        const v = view(forPeople(b));
        expect(pipe(v)).not.toMatch(BAD_WORDS);
        expect(terminal(v, plain, 80)).not.toMatch(BAD_WORDS);
      }),
      { numRuns: 400 },
    );
  });

  it('shows any list of items as transactions, whatever they hold', () => {
    const item = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.record(
        {
          date: fc.jsonValue({ maxDepth: 1 }),
          description: fc.string(),
          debit: fc.jsonValue({ maxDepth: 1 }),
          amount: fc.double({ noNaN: true, noDefaultInfinity: true }),
          personal_finance_category: fc.jsonValue({ maxDepth: 2 }),
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 5 }), (items) => {
        const v = transactionsView(forPeople({ transactions: items }), reading());
        expect(pipe(v)).not.toMatch(BAD_WORDS);
        expect(terminal(v, plain, 80)).not.toMatch(BAD_WORDS);
      }),
      { numRuns: 300 },
    );
  });
});
