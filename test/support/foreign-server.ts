// A stand-in for the real service that is NOT `svc mock`: it imports nothing from src/ and answers
// with the shapes the service's own documentation shows (its samples are in
// test/fixtures/documented/) wherever a shape is shown, and with field names of its own — other
// than the mock's — for everything the documents leave "not shown". A CLI that only works against
// its own mock fails here; a CLI that reads only documented fields and renders the rest
// generically passes.
//
// Switches (all chosen by the request, so one server serves every test):
// - the API key's secret selects a variant: FOREIGN_KEYS.emptyUsage answers `{}` to GET /v1/usage,
//   FOREIGN_KEYS.broken answers list replies whose list is of the wrong JSON type, and
//   FOREIGN_KEYS.rejected is answered 401 everywhere;
// - report ids: FOREIGN_IDS.newer / .older are full reports (newer / older transaction shapes),
//   .html is a 200 HTML page, .garbled a 200 truncated JSON body, .nested a 404 in the older nested
//   error envelope; any other id is a 404 in the flat envelope.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as received, with the reply the server gave it. */
export interface ForeignRequest {
  method: string;
  /** Path and query, as sent. */
  path: string;
  /** Path alone. */
  pathname: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** The request body as UTF-8 text ('' when none). */
  body: string;
  /** The reply: status and the exact body text sent. */
  status: number;
  reply: string;
}

export interface ForeignServer {
  /** Base URL, without /v1. */
  url: string;
  close(): Promise<void>;
  /** Every request so far, oldest first (empty it with `requests.length = 0`). */
  requests: ForeignRequest[];
}

const HEX32 = '0123456789abcdef0123456789abcdef';

/** Keys this server recognises; any other key of the documented forms works like `test`. */
export const FOREIGN_KEYS = {
  test: `svc_sk_test_${HEX32}`,
  live: `svc_sk_live_${HEX32}`,
  /** The sandbox guide's form of a test key. */
  bareTest: `sk_test_${HEX32}`,
  /** One page's form of a live key. */
  bareLive: `sk_live_${HEX32}`,
  /** GET /v1/usage answers `{}`. */
  emptyUsage: `svc_sk_test_${'e'.repeat(32)}`,
  /** List replies carry their list as the wrong JSON type. */
  broken: `svc_sk_test_${'b'.repeat(32)}`,
  /** Answered 401 INVALID_API_KEY. */
  rejected: `svc_sk_test_${'d'.repeat(32)}`,
} as const;

export const FOREIGN_IDS = {
  /** Full report, newer transaction shape, `bank_code` inside `statement`. */
  newer: 'cl_abc123',
  /** Full report, older transaction shape, `bank_code` at the top. */
  older: 'cl_old456',
  /** What `parse --async`'s poll_url points at: a report still processing. */
  pending: 'cl_async789',
  /** Made by `sandbox create`. */
  sandbox: 'cl_sbx001',
  /** 200 with an HTML page. */
  html: 'rpt_html',
  /** 200, JSON content type, truncated body. */
  garbled: 'rpt_garbled',
  /** 404 in the older nested envelope. */
  nested: 'rpt_nested',
} as const;

export const KNOWN_TERMINAL = '9756038350856888';

const KEY_FORM = /^(?:svc_)?sk_(live|test)_([A-Za-z0-9]{8,})$/;

const META = {
  source: 'Central Bank of the Republic',
  source_url: 'https://www.cbank.example.org/statistics/monthly',
  attribution:
    'Source: Central Bank — Monthly Banking Statistics (Table C6). Republished by the service with attribution.',
  as_of: '2026-03-31',
  licence_terms: 'open-data',
};

const CPI_META = {
  ...META,
  attribution:
    'Source: Central Bank — Consumer Price Index, SDMX feed (CPI). Republished with attribution.',
  as_of: '2026-03-31',
};

// ---------------------------------------------------------------------------------------------
// Reports

const NEWER_TRANSACTIONS = [
  {
    transaction_id: 'txn_0001',
    date: '2026-03-25',
    name: 'SALARY MAR 2026 HIMALAYAN TRADERS',
    amount: 72000,
    iso_currency_code: 'NPR',
    balance: 145200,
    merchant_name: null,
    payment_terminal_id: null,
    mcc: null,
    personal_finance_category: { primary: 'INCOME', detailed: 'INCOME_SALARY' },
    counterparties: [
      { type: 'institution', name: 'HIMALAYAN TRADERS PVT LTD', confidence_level: 'HIGH' },
    ],
    payment_channel: 'other',
    pending: false,
  },
  {
    transaction_id: 'txn_0002',
    date: '2026-03-27',
    name: 'MPAY 2222020006840462,492738040,MOB',
    amount: -1840.5,
    iso_currency_code: 'NPR',
    balance: 143359.5,
    merchant_name: 'BHAT-BHATENI SUPERMARKET',
    payment_terminal_id: KNOWN_TERMINAL,
    mcc: '5411',
    personal_finance_category: {
      primary: 'GENERAL_MERCHANDISE',
      detailed: 'GENERAL_MERCHANDISE_SUPERSTORES',
    },
    counterparties: [
      { type: 'merchant', name: 'BHAT-BHATENI SUPERMARKET', confidence_level: 'MEDIUM' },
    ],
    payment_channel: 'in store',
    pending: false,
  },
  {
    transaction_id: 'txn_0003',
    date: '2026-03-30',
    name: 'EMI NMB BANK LOAN 0042',
    amount: -21000,
    iso_currency_code: 'NPR',
    balance: 122359.5,
    merchant_name: null,
    payment_terminal_id: null,
    mcc: null,
    personal_finance_category: null,
    counterparties: [],
    payment_channel: 'online',
    pending: true,
  },
];

const OLDER_TRANSACTIONS = [
  {
    date: '2025-11-25',
    description: 'SALARY NOV 2025',
    debit: null,
    credit: 65000,
    balance: 88000,
    category: 'salary',
    merchant: null,
    merchantTerminal: null,
    mcc: null,
    merchantCategory: null,
  },
  {
    date: '2025-11-26',
    description: 'MPAY 2222020006840462,492738040,MOB',
    debit: 920,
    credit: null,
    balance: 87080,
    category: 'merchant_payment',
    merchant: 'BHAT-BHATENI SUPERMARKET',
    merchantTerminal: KNOWN_TERMINAL,
    mcc: '5411',
    merchantCategory: 'groceries',
  },
];

function fullReport(id: string, createdAt = '2026-05-27T10:23:41Z') {
  return {
    report_id: id,
    status: 'complete',
    created_at: createdAt,
    data_source: 'PARSED_STATEMENT',
    tamper_verifiable: true,
    statement: {
      bank: 'Nabil Bank',
      bank_code: 'NABIL',
      currency: 'NPR',
      period: { from: '2026-01-01', to: '2026-03-31' },
      opening_balance: 98200,
      closing_balance: 122359.5,
      total_transactions: NEWER_TRANSACTIONS.length,
    },
    signals: { salary_like_credits: 3, overdraft_days: 0, flags: ['emi_detected'] },
    monthly_summary: {
      '2026-01': { in: 72000, out: 51000 },
      '2026-02': { in: 72000, out: 60210 },
      '2026-03': { in: 72000, out: 71050.5 },
    },
    categories: [
      { name: 'salary', n: 3, sum: 216000 },
      { name: 'loan_repayment', n: 3, sum: 63000 },
    ],
    merchant_categories: {
      groceries: { count: 12, total: 8420 },
      dining: { count: 4, total: 3100.75 },
    },
    transactions: NEWER_TRANSACTIONS,
  };
}

function olderReport() {
  return {
    report_id: FOREIGN_IDS.older,
    status: 'complete',
    bank_code: 'NIC_ASIA',
    created_at: '2025-12-02T08:00:00Z',
    statement: {
      bank: 'NIC Asia Bank',
      currency: 'NPR',
      period: { from: '2025-11-01', to: '2025-11-30' },
      opening_balance: 23000,
      closing_balance: 87080,
      total_transactions: OLDER_TRANSACTIONS.length,
    },
    signals: null,
    monthly_summary: [],
    categories: { salary: 65000, merchant_payment: 920 },
    merchant_categories: { groceries: { count: 1, total: 920 } },
    transactions: OLDER_TRANSACTIONS,
  };
}

const REPORT_LIST = [
  {
    report_id: FOREIGN_IDS.newer,
    status: 'complete',
    bank_code: 'NABIL',
    created_at: '2026-05-27T10:23:41Z',
    pages: 4,
  },
  {
    report_id: FOREIGN_IDS.older,
    status: 'complete',
    bank_code: 'NIC_ASIA',
    created_at: '2025-12-02T08:00:00Z',
    pages: 2,
  },
  {
    report_id: FOREIGN_IDS.pending,
    status: 'processing',
    bank_code: 'KUMARI',
    created_at: '2026-05-28T06:00:00Z',
    pages: null,
  },
  {
    report_id: 'cl_fail001',
    status: 'failed',
    bank_code: 'PRABHU',
    created_at: '2026-05-20T12:30:00Z',
    failure: { reason: 'DOCUMENT_PARSE_FAILED' },
  },
];

function identityOf(id: string) {
  if (id === FOREIGN_IDS.older) {
    // The other documented form: `statement_period` instead of `period`.
    return {
      bank: 'NIC Asia Bank',
      bank_code: 'NIC_ASIA',
      account_holder: 'SITA KUMARI THAPA',
      account_number: '04410017700231',
      currency: 'NPR',
      statement_period: { from: '2025-11-01', to: '2025-11-30' },
    };
  }
  return {
    bank: 'Nabil Bank',
    bank_code: 'NABIL',
    account_holder: 'RAM PRASAD SHARMA',
    account_number: '09810017508391',
    currency: 'NPR',
    period: { from: '2026-01-01', to: '2026-03-31' },
    branch_hint: 'New Road',
  };
}

function authOf(id: string) {
  return {
    holder_name: id === FOREIGN_IDS.older ? 'SITA KUMARI THAPA' : 'RAM PRASAD SHARMA',
    acct_no: id === FOREIGN_IDS.older ? '04410017700231' : '09810017508391',
    bic: null,
    swift_note:
      'SWIFT/BIC withheld for this report: the account is a savings product without international transfers.',
    verification_status: 'DOCUMENT_EXTRACTED',
  };
}

function counterpartiesOf() {
  return {
    flows: [
      { kind: 'merchant', money_in: 0, money_out: 18450.25 },
      { kind: 'individual', money_in: 15000, money_out: 9000 },
      { kind: 'institution', money_in: 216000, money_out: 63000 },
      { kind: 'wallet', money_in: 0, money_out: 4200 },
      { kind: 'cash', money_in: 0, money_out: 30000 },
      { kind: 'self', money_in: 5000, money_out: 5000 },
    ],
    people: [
      { who: 'HARI BAHADUR KC', received: 15000, sent: 9000, seen: 4 },
      { who: 'GITA SHARMA', received: 0, sent: 0, seen: 1 },
    ],
    merchants: [{ label: 'BHAT-BHATENI SUPERMARKET', spend: 8420, visits: 12, mcc: '5411' }],
    generated: { at: '2026-05-27T10:24:00Z', model: 'cp-3' },
  };
}

function recurringOf() {
  return {
    streams: [
      {
        payee: 'HIMALAYAN TRADERS SALARY',
        direction: 'in',
        every: 'monthly',
        mean: 72000,
        status: 'MATURE',
        active: true,
        next_expected: '2026-04-25',
      },
      {
        payee: 'NMB BANK EMI',
        direction: 'out',
        every: 'monthly',
        mean: 21000,
        status: 'MATURE',
        active: true,
        next_expected: '2026-04-30',
      },
      {
        payee: 'NETFLIX.COM',
        direction: 'out',
        every: 'monthly',
        mean: 1499,
        status: 'EARLY_DETECTION',
        active: false,
        next_expected: null,
      },
    ],
  };
}

function matchOf(name: string) {
  const matched = /sharma/i.test(name) && /ram/i.test(name);
  return matched
    ? {
        match_score: 94,
        result: 'match',
        statement_name: 'RAM PRASAD SHARMA',
        reasons: ['word order differs', 'honorific ignored'],
      }
    : {
        match_score: 12,
        result: 'no_match',
        statement_name: 'RAM PRASAD SHARMA',
        reasons: ['surname differs'],
      };
}

// ---------------------------------------------------------------------------------------------
// Statements, merchants, usage

const STATEMENTS = [
  {
    ref: 'stm_7c1f',
    content_hash: 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    verify_url: 'https://verify.example.com/s/stm_7c1f',
    status: 'issued',
    issued_on: '2026-04-02',
  },
  {
    ref: 'stm_0a9e',
    content_hash: 'sha256:60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752',
    verify_url: 'https://verify.example.com/s/stm_0a9e',
    status: 'revoked',
    issued_on: '2026-01-15',
    revoked: { on: '2026-02-01', why: 'reissued' },
  },
];

function resolveLookups(terminals: string[], names: string[]) {
  const results = [
    ...terminals.map((t) =>
      t === KNOWN_TERMINAL
        ? {
            input: t,
            type: 'terminal',
            matched: true,
            merchant: 'BHAT-BHATENI SUPERMARKET',
            mcc: '5411',
            category: 'groceries',
            city: 'Kathmandu',
            terminal: t,
          }
        : {
            input: t,
            type: 'terminal',
            matched: false,
            merchant: null,
            mcc: null,
            category: null,
            city: null,
            terminal: t,
          },
    ),
    ...names.map((n) =>
      /bhat/i.test(n)
        ? {
            input: n,
            type: 'name',
            matched: true,
            merchant: 'BHAT-BHATENI SUPERMARKET',
            mcc: '5411',
            category: 'groceries',
            city: 'Kathmandu',
            terminal: null,
            score: 0.91,
          }
        : {
            input: n,
            type: 'name',
            matched: false,
            merchant: null,
            mcc: null,
            category: null,
            city: null,
            terminal: null,
          },
    ),
  ];
  return {
    data: { count: results.length, matched: results.filter((r) => r.matched).length, results },
    meta: { source: 'National QR payment network directory', billed_units: 1 },
  };
}

const USAGE = {
  plan: 'sandbox',
  quota: 100,
  used: 23,
  remaining: 77,
  period: '2026-05',
  resets_at: '2026-06-01T00:00:00Z',
};

const SCENARIOS = {
  scenarios: [
    'salaried',
    'thin_file',
    'high_risk',
    'remittance',
    'error_unsupported_bank',
    'error_unsupported_document',
    'error_password_required',
    'error_image_not_readable',
  ],
};

// ---------------------------------------------------------------------------------------------
// Datasets

/** The `data` of a family's latest reply; undefined for a path that is not a family. */
function latestDataOf(path: string, query: Record<string, string>): unknown {
  switch (path) {
    case 'cpi':
      return {
        month: '2026-03',
        indicators: [
          {
            indicator: 'PCPI_IX',
            label: 'Overall index, index',
            value: 106.96442,
            scale: 0,
            absolute: 106.96442,
            unit: 'index',
          },
          {
            indicator: 'PCPI_FOOD_IX',
            label: 'Food and beverages, index',
            value: 109.12,
            scale: 0,
            absolute: 109.12,
            unit: 'index',
          },
        ],
      };
    case 'interest-rates':
      return [
        { metric: 'base-rate', label: 'Base Rate', value: 5.0, unit: 'percent' },
        {
          metric: 'wavg-deposit',
          label: 'Weighted Avg. Deposit Rate',
          value: 3.4,
          unit: 'percent',
        },
      ];
    case 'banking/pnl':
      return {
        month: '2025-07',
        line_items: [
          {
            key: 'income.interest-income',
            label: 'Interest Income',
            value: 567193.568,
            unit: 'NPR_mn',
            section: 'Income',
            code: '1',
          },
          {
            key: 'expense.interest-expense',
            label: 'Interest Expense',
            value: 351204.1,
            unit: 'NPR_mn',
            section: 'Expense',
            code: '2',
          },
        ],
      };
    case 'banks/pnl': {
      const bank = (query.bank ?? 'nabil').toLowerCase();
      return {
        month: '2025-07',
        bank,
        line_items: [
          {
            key: `${bank}.income.interest-income`,
            bank: bank.toUpperCase(),
            line_item: 'Interest Income',
            value: 40470.486,
            unit: 'NPR_mn',
            section: 'Income',
            code: '1',
          },
          {
            key: `${bank}.expense.staff-expense`,
            bank: bank.toUpperCase(),
            line_item: 'Staff Expense',
            value: 3120.5,
            unit: 'NPR_mn',
            section: 'Expense',
            code: '4.1',
          },
        ],
      };
    }
    case 'banking/balance-sheet':
      return {
        as_at: '2025-07',
        rows: [
          { code: 'A1', name: 'Cash in hand', amount: 61234.5 },
          { code: 'L3', name: 'Total deposits', amount: 6712345.25 },
        ],
      };
    case 'banking/credit':
      return {
        month_bs: '2082-04',
        by_sector: [{ sector: 'Agriculture', npr_mn: 512340.1 }],
        by_product: [{ product: 'Trust receipt loan', npr_mn: 170020 }],
      };
    case 'banking/indicators':
      return [
        { ratio: 'npl', title: 'Non-performing loans to total loans', pct: 4.1 },
        { ratio: 'car', title: 'Capital adequacy ratio', pct: 12.6 },
      ];
    case 'cbs':
      return {
        obs_month: '2026-02',
        codes: {
          'CBS.RM': { title: 'Reserve money', v: 1234567.8 },
          'CBS.NFA': { title: 'Net foreign assets', v: 2345678.9 },
        },
      };
    case 'trade':
      return {
        period: { year: 2082, month: 3 },
        exports_fob: 12345.6,
        imports_cif: 150234.9,
        sitc: [
          { section: '0', desc: 'Food and live animals', x: 3456.7, m: 25678.1 },
          { section: '7', desc: 'Machinery and transport equipment', x: 120.4, m: 40321 },
        ],
      };
    case 'macro':
      return {
        report: 'Current Macroeconomic and Financial Situation',
        items: [
          {
            name: 'inflation',
            reading: '4.82',
            quote: 'The y-o-y consumer price inflation stood at 4.82 percent in mid-March.',
          },
          {
            name: 'remittance',
            reading: '1,234.5 bn',
            quote: 'Remittance inflows increased 8.2 percent.',
          },
        ],
      };
    default:
      return undefined;
  }
}

/** A family's latest reply: its data in the `{data, meta}` envelope. */
function latestOf(path: string, query: Record<string, string>): unknown {
  const data = latestDataOf(path, query);
  return data === undefined ? undefined : { data, meta: path === 'cpi' ? CPI_META : META };
}

const FAMILY_PATHS = [
  'banking/balance-sheet',
  'banking/pnl',
  'banking/credit',
  'banking/indicators',
  'cbs',
  'cpi',
  'interest-rates',
  'trade',
  'macro',
  'banks/pnl',
];

function monthsBetween(from: string | undefined, to: string | undefined): string[] {
  const months: string[] = [];
  for (let y = 2023; y <= 2026; y++) {
    for (let m = 1; m <= 12; m++) {
      const month = `${y}-${String(m).padStart(2, '0')}`;
      if (month > '2026-03') break;
      if (from && month < from) continue;
      if (to && month >= to) continue;
      months.push(month);
    }
  }
  return months;
}

function seriesOf(path: string, query: Record<string, string>): unknown {
  const selector = query.key ?? query.indicator ?? query.metric ?? query.line;
  const months = monthsBetween(query.from, query.to);
  const value = (i: number) => Math.round((101.25 + i * 0.5) * 100) / 100;
  switch (path) {
    case 'interest-rates':
      // `data` an array here, of a month-like field and a number under names no document gives.
      return {
        data: months.map((ym, i) => ({ ym, pct: Math.round((5 + i * 0.05) * 100) / 100 })),
        meta: META,
      };
    case 'banking/balance-sheet':
      return {
        data: {
          key: selector,
          unit: 'NPR_mn',
          observations: months.map((when, i) => ({ when, amt: 6700000 + i * 1250.5 })),
        },
        meta: META,
      };
    default:
      return {
        data: { series: months.map((date, i) => ({ date, obs: value(i) })), indicator: selector },
        meta: path === 'cpi' ? CPI_META : META,
      };
  }
}

// ---------------------------------------------------------------------------------------------
// Errors

let requestCounter = 0;

function requestId(): string {
  requestCounter += 1;
  return `req_${requestCounter.toString(16).padStart(32, '0')}`;
}

function flatError(type: string, code: string, message: string, suggested?: string) {
  return {
    error_type: type,
    error_code: code,
    error_message: message,
    display_message: null,
    request_id: requestId(),
    documentation_url: `https://docs.example.com/concepts/errors#${code.toLowerCase()}`,
    ...(suggested ? { suggested_action: suggested } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Server

interface Reply {
  status: number;
  body: string;
  contentType: string;
}

const json = (status: number, value: unknown): Reply => ({
  status,
  body: JSON.stringify(value),
  contentType: 'application/json; charset=utf-8',
});
const notFound = (what: string) =>
  json(404, flatError('INVALID_REQUEST_ERROR', 'NOT_FOUND', `${what} was not found.`));
const invalid = (message: string) =>
  json(400, flatError('INVALID_REQUEST_ERROR', 'INVALID_REQUEST', message));

function parseJsonBody(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

const stringArray = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;

function route(
  method: string,
  pathname: string,
  query: Record<string, string>,
  body: string,
  headers: IncomingMessage['headers'],
  baseUrl: string,
): Reply {
  const auth = headers.authorization ?? '';
  const key = auth.startsWith('Bearer ') ? auth.slice('Bearer '.length) : '';
  const form = KEY_FORM.exec(key);
  if (!form || key === FOREIGN_KEYS.rejected) {
    return json(
      401,
      flatError(
        'AUTHENTICATION_ERROR',
        'INVALID_API_KEY',
        'Unknown API key.',
        'Check your API key in the Authorization header.',
      ),
    );
  }
  const mode = form[1] as 'live' | 'test';
  const broken = key === FOREIGN_KEYS.broken;
  const segments = pathname
    .split('/')
    .slice(1)
    .map((s) => decodeURIComponent(s));
  if (segments[0] !== 'v1') return notFound('The route');
  const [, resource, id, view, extra] = segments;

  if (resource === 'sandbox' && mode === 'live') {
    return json(
      403,
      flatError(
        'PERMISSION_ERROR',
        'TEST_KEY_REQUIRED',
        'Sandbox routes take test keys only.',
        'Use a test key.',
      ),
    );
  }

  if (method === 'GET' && pathname === '/v1/usage') {
    return json(200, key === FOREIGN_KEYS.emptyUsage ? {} : USAGE);
  }

  if (resource === 'reports' && id === undefined && method === 'GET') {
    if (broken) return json(200, { data: { items: REPORT_LIST }, has_more: false });
    const limit = query.limit ? Number(query.limit) : 50;
    const data = REPORT_LIST.filter((r) => !query.status || r.status === query.status).slice(
      0,
      limit,
    );
    return json(200, { data, has_more: false, next: null });
  }

  if (resource === 'reports' && id !== undefined) {
    if (id === FOREIGN_IDS.html) {
      return {
        status: 200,
        body: '<!DOCTYPE html><html><head><title>Welcome</title></head><body><h1>It works!</h1></body></html>',
        contentType: 'text/html; charset=utf-8',
      };
    }
    if (id === FOREIGN_IDS.garbled)
      return {
        status: 200,
        body: '{"report_id": "rpt_garbled", "status": "compl',
        contentType: 'application/json',
      };
    if (id === FOREIGN_IDS.nested)
      return json(404, { error: { code: 'not_found', message: 'No report with this id.' } });
    const report =
      id === FOREIGN_IDS.newer
        ? fullReport(id)
        : id === FOREIGN_IDS.older
          ? olderReport()
          : id === FOREIGN_IDS.sandbox
            ? fullReport(id, '2026-05-28T09:00:00Z')
            : id === FOREIGN_IDS.pending
              ? { report_id: id, status: 'processing', queued: { position: 2 } }
              : undefined;
    if (!report) return notFound('The report');
    if (view === undefined && method === 'GET') return json(200, report);
    if (method === 'GET' && extra === undefined) {
      if (view === 'identity') return json(200, identityOf(id));
      if (view === 'auth') return json(200, authOf(id));
      if (view === 'counterparties') return json(200, counterpartiesOf());
      if (view === 'recurring') return json(200, recurringOf());
    }
    if (method === 'POST' && view === 'identity' && extra === 'match') {
      const name = parseJsonBody(body)?.name;
      if (typeof name !== 'string' || name.trim() === '') return invalid('`name` is required.');
      return json(200, matchOf(name));
    }
    return notFound('The route');
  }

  if (method === 'POST' && pathname === '/v1/parse') {
    if (!/^multipart\/form-data;\s*boundary=/i.test(String(headers['content-type'] ?? '')))
      return invalid('Send the statement as multipart/form-data.');
    if (!/name="file"/.test(body) || !body.includes('%PDF-'))
      return json(
        400,
        flatError('INVALID_REQUEST_ERROR', 'DOCUMENT_PARSE_FAILED', 'The file is not a statement.'),
      );
    if (/name="async"[^\r\n]*\r\n(?:[^\r\n]+\r\n)*\r\ntrue\r\n/.test(body))
      return json(202, { poll_url: `/v1/reports/${FOREIGN_IDS.pending}` });
    return json(200, fullReport(FOREIGN_IDS.newer));
  }

  if (method === 'GET' && pathname === '/v1/statements') {
    if (broken) return json(200, { statements: { count: STATEMENTS.length } });
    return json(200, {
      statements: STATEMENTS.filter((s) => !query.status || s.status === query.status),
      total: 2,
    });
  }

  if (method === 'POST' && pathname === '/v1/merchants/resolve') {
    const request = parseJsonBody(body);
    const terminals = request?.terminals === undefined ? [] : stringArray(request.terminals);
    const names = request?.names === undefined ? [] : stringArray(request.names);
    if (!terminals || !names || terminals.length + names.length === 0)
      return invalid('Send `terminals` and/or `names` as arrays of strings.');
    if (terminals.length + names.length > 1000) return invalid('At most 1000 lookups per call.');
    const reply = resolveLookups(terminals, names);
    return json(200, broken ? { data: [reply.data], meta: reply.meta } : reply);
  }

  if (method === 'POST' && pathname === '/v1/connect/request') {
    const request = parseJsonBody(body);
    if (!stringArray(request?.scopes) || typeof request?.redirect_uri !== 'string')
      return invalid('`scopes` and `redirect_uri` are required.');
    return json(200, {
      request_token: 'creq_4f1d9a0b7c',
      connect_url: `${baseUrl}/connect?token=creq_4f1d9a0b7c`,
      expires_in_s: 900,
    });
  }

  if (resource === 'sandbox') {
    if (method === 'GET' && pathname === '/v1/sandbox/scenarios') return json(200, SCENARIOS);
    if (method === 'POST' && pathname === '/v1/sandbox/reports') {
      const scenario = body === '' ? {} : parseJsonBody(body);
      if (!scenario) return invalid('The body is not a JSON object.');
      if (
        scenario.scenario !== undefined &&
        !SCENARIOS.scenarios.includes(String(scenario.scenario))
      )
        return invalid('Unknown scenario.');
      return json(201, fullReport(FOREIGN_IDS.sandbox, '2026-05-28T09:00:00Z'));
    }
    if (
      method === 'POST' &&
      id === 'reports' &&
      segments[4] === 'fire_webhook' &&
      segments.length === 5
    ) {
      const target = segments[3]!;
      if (![FOREIGN_IDS.newer, FOREIGN_IDS.older, FOREIGN_IDS.sandbox].includes(target as never))
        return notFound('The report');
      const request = body === '' ? {} : parseJsonBody(body);
      if (!request) return invalid('The body is not a JSON object.');
      return json(200, {
        fired: typeof request.event === 'string' ? request.event : 'report.ready',
        report_id: target,
        environment: 'test',
      });
    }
    return notFound('The route');
  }

  if (method === 'GET' && pathname.startsWith('/v1/data/cbank/')) {
    const rest = pathname.slice('/v1/data/cbank/'.length);
    if (rest === 'banking/snapshot') {
      return json(200, {
        data: {
          month: query.month ?? '2025-07',
          c4: [
            { slug: 'car', caption: 'Capital adequacy ratio', figure: 12.6, unit: '%' },
            { slug: 'npl', caption: 'Non-performing loans to total loans', figure: 4.1, unit: '%' },
          ],
        },
        meta: META,
      });
    }
    const leaf = rest.split('/').at(-1);
    const family = rest.slice(0, rest.length - (leaf?.length ?? 0) - 1);
    if (!FAMILY_PATHS.includes(family)) return notFound('The dataset');
    if (leaf === 'latest') {
      const reply = latestOf(family, query);
      return reply === undefined ? notFound('The dataset') : json(200, reply);
    }
    if (leaf === 'series') {
      const selector = query.key ?? query.indicator ?? query.metric ?? query.line;
      if (!selector) return invalid('Name the series.');
      if (selector === 'missing') return notFound('The series');
      return json(200, seriesOf(family, query));
    }
    return notFound('The dataset');
  }

  return notFound('The route');
}

export function startForeignServer(): Promise<ForeignServer> {
  const requests: ForeignRequest[] = [];
  let baseUrl = '';
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const target = req.url ?? '/';
      const url = new URL(target, 'http://127.0.0.1');
      const query = Object.fromEntries(url.searchParams);
      let reply: Reply;
      try {
        reply = route(req.method ?? 'GET', url.pathname, query, body, req.headers, baseUrl);
      } catch (error) {
        reply = json(
          500,
          flatError('API_ERROR', 'INTERNAL_ERROR', `The foreign server failed: ${String(error)}`),
        );
      }
      requests.push({
        method: req.method ?? '',
        path: target,
        pathname: url.pathname,
        query,
        headers: { ...req.headers },
        body,
        status: reply.status,
        reply: reply.body,
      });
      res.writeHead(reply.status, {
        'Content-Type': reply.contentType,
        'X-Request-Id': requestId(),
      });
      res.end(reply.body);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      baseUrl = `http://127.0.0.1:${port}`;
      resolve({
        url: baseUrl,
        requests,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
