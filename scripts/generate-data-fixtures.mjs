#!/usr/bin/env node
// Generates the central-bank dataset fixtures of `svc mock` (src/mock/fixtures/data/<family>.json):
// plausible monthly figures from 2021-01 to the latest month for every dataset family. The output
// is deterministic: each family draws from its own seeded generator, so the same script and the
// same --latest month always write the same bytes. Run: node scripts/generate-data-fixtures.mjs
// [--latest YYYY-MM] [--out DIR]
//
// The figures are invented but shaped like the central bank's own tables: balance-sheet totals that
// balance, credit by sector and by product that add up to the same total, year-on-year growth and
// inflation computed from the levels they describe, rates that rose in 2022-23 and eased after.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const FIRST_MONTH = '2021-01';
/** Twelve months before the first published one, so year-on-year figures exist from the start. */
const HISTORY_MONTHS = 12;

const argument = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const LATEST_MONTH = argument('--latest', '2026-10');
const OUT_DIR = argument(
  '--out',
  fileURLToPath(new URL('../src/mock/fixtures/data/', import.meta.url)),
).replace(/\/?$/, '/');
if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(LATEST_MONTH ?? '')) {
  console.error('usage: generate-data-fixtures.mjs [--latest YYYY-MM] [--out DIR]');
  process.exit(2);
}

// --- months ---

const monthIndex = (month) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
const monthName = (index) =>
  `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
const FIRST = monthIndex(FIRST_MONTH);
const LAST = monthIndex(LATEST_MONTH);
const PUBLISHED = LAST - FIRST + 1;
/** Months generated, history included; index i is month FIRST - HISTORY_MONTHS + i. */
const SPAN = PUBLISHED + HISTORY_MONTHS;
const calendarMonth = (i) => (FIRST - HISTORY_MONTHS + i) % 12; // 0 = January
const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A date in the month after the latest one: when that month's figures were published. */
function asOf(day) {
  return `${monthName(LAST + 1)}-${String(day).padStart(2, '0')}`;
}

// --- seeded randomness ---

function seedOf(text) {
  let h = 2166136261;
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}

/** mulberry32: small, fast and good enough for invented statistics. */
function generator(seed) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = () => {
    const u = Math.max(next(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
  };
  return {
    between: (lo, hi) => lo + (hi - lo) * next(),
    normal,
    /** A level that grows `annual` a year with monthly noise of `noise` (relative). */
    growing(start, annual, noise) {
      const out = [];
      let level = start;
      for (let i = 0; i < SPAN; i++) {
        out.push(level);
        level *= (1 + annual) ** (1 / 12) * (1 + noise * normal());
      }
      return out;
    },
    /**
     * A level on a smooth growth path with independent monthly noise (flows: trade, remittances).
     */
    trend(start, annual, noise) {
      return Array.from(
        { length: SPAN },
        (_, i) => start * (1 + annual) ** (i / 12) * (1 + noise * normal()),
      );
    },
    /** A mean-reverting wander around a path given per month. */
    around(path, noise, stickiness = 0.7) {
      const out = [];
      let deviation = 0;
      for (let i = 0; i < SPAN; i++) {
        deviation = stickiness * deviation + noise * normal();
        out.push(path(i) + deviation);
      }
      return out;
    },
  };
}

// --- shapes over time ---

/** 0 at the start, 1 at the end. */
const progress = (i) => i / (SPAN - 1);
/** The rate cycle of 2022-23: a hump peaking around mid-2023 (index of 2023-06 in the span). */
const PEAK = monthIndex('2023-06') - (FIRST - HISTORY_MONTHS);
const hump = (i, width = 14) => Math.exp(-(((i - PEAK) / width) ** 2));
/** Seasonality of trade and remittances around the festivals of October-November. */
const festive = (i) =>
  [0, -0.02, 0.01, 0.02, 0, -0.03, -0.04, -0.02, 0.02, 0.07, 0.06, 0.01][calendarMonth(i)];

const round = (value, digits) => Number(value.toFixed(digits));
const published = (series, digits) => series.slice(HISTORY_MONTHS).map((v) => round(v, digits));
const yoy = (series) => series.map((v, i) => (i >= 12 ? (v / series[i - 12] - 1) * 100 : 0));

/**
 * Splits totals into parts by shares that drift slowly; the parts add up to the total exactly
 * (after rounding, the last part absorbs the rest).
 */
function splitByShares(rng, totals, baseShares, drift, digits) {
  const keys = Object.keys(baseShares);
  const shares = keys.map((k) =>
    rng.around((i) => baseShares[k] * (1 + drift[k] * progress(i)), baseShares[k] * 0.015, 0.8),
  );
  const parts = Object.fromEntries(keys.map((k) => [k, []]));
  for (let i = 0; i < SPAN; i++) {
    const raw = keys.map((_, j) => Math.max(shares[j][i], 0.0005));
    const sum = raw.reduce((a, b) => a + b, 0);
    let given = 0;
    keys.forEach((k, j) => {
      const value =
        j === keys.length - 1 ? totals[i] - given : round((totals[i] * raw[j]) / sum, digits);
      parts[k].push(round(value, digits));
      given = round(given + value, digits);
    });
  }
  return parts;
}

const item = (key, label, section, unit, series, digits, extra = {}) => ({
  key,
  label,
  section,
  unit,
  ...extra,
  values: published(series, digits),
});

// --- families ---

const NPR_M = 'NPR millions';
const PCT = 'percent';

function balanceSheet(rng) {
  const deposits = rng.growing(4_350_000, 0.095, 0.006);
  const depositParts = splitByShares(
    rng,
    deposits.map((v) => round(v, 1)),
    { current: 0.085, savings: 0.31, fixed: 0.5, call: 0.09, other: 0.015 },
    { current: -0.1, savings: -0.12, fixed: 0.14, call: 0.05, other: 0 },
    1,
  );
  const paidUp = rng.growing(340_000, 0.045, 0.002);
  const reserves = rng.growing(190_000, 0.11, 0.004);
  const borrowings = rng.around((i) => 120_000 + 40_000 * hump(i, 20), 6_000);
  const otherLiabilities = rng.around((i) => 260_000 * (1 + 0.35 * progress(i)), 9_000);
  const total = deposits.map(
    (d, i) => round(d, 1) + paidUp[i] + reserves[i] + borrowings[i] + otherLiabilities[i],
  );
  const loans = deposits.map(
    (d, i) => d * (0.86 - 0.08 * progress(i) + 0.04 * hump(i) + 0.01 * rng.normal()),
  );
  const cash = deposits.map((d) => d * (0.018 + 0.002 * rng.normal()));
  const atNrb = deposits.map((d, i) => d * (0.055 + 0.01 * (1 - hump(i)) + 0.004 * rng.normal()));
  const atBfis = deposits.map((d) => d * (0.03 + 0.004 * rng.normal()));
  const investments = deposits.map(
    (d, i) => d * (0.15 + 0.07 * progress(i) + 0.004 * rng.normal()),
  );
  const fixedAssets = rng.growing(95_000, 0.06, 0.002);
  const r = (a) => a.map((v) => round(v, 1));
  const [L, C, N, B, I, F] = [
    r(loans),
    r(cash),
    r(atNrb),
    r(atBfis),
    r(investments),
    r(fixedAssets),
  ];
  // Other assets balance the sheet, as the "other assets" line does in the published tables.
  const otherAssets = total.map((t, i) => round(t - L[i] - C[i] - N[i] - B[i] - I[i] - F[i], 1));
  const totalRounded = total.map((t) => round(t, 1));
  const LIAB = 'Capital and liabilities';
  const ASSETS = 'Assets';
  return {
    title: 'Consolidated balance sheet of banks and financial institutions',
    unit: NPR_M,
    note: 'Commercial banks, development banks and finance companies together, at the end of each month.',
    items: [
      item('paid-up-capital', 'Paid-up capital', LIAB, NPR_M, paidUp, 1),
      item('reserves-and-funds', 'Reserves and funds', LIAB, NPR_M, reserves, 1),
      item('deposits-current', 'Current deposits', LIAB, NPR_M, depositParts.current, 1),
      item('deposits-savings', 'Savings deposits', LIAB, NPR_M, depositParts.savings, 1),
      item('deposits-fixed', 'Fixed deposits', LIAB, NPR_M, depositParts.fixed, 1),
      item('deposits-call', 'Call deposits', LIAB, NPR_M, depositParts.call, 1),
      item('deposits-other', 'Other deposits', LIAB, NPR_M, depositParts.other, 1),
      item('total-deposits', 'Total deposits', LIAB, NPR_M, deposits, 1),
      item('borrowings', 'Borrowings', LIAB, NPR_M, borrowings, 1),
      item('other-liabilities', 'Other liabilities', LIAB, NPR_M, otherLiabilities, 1),
      item('total-liabilities', 'Total capital and liabilities', LIAB, NPR_M, totalRounded, 1),
      item('cash-in-hand', 'Cash in hand', ASSETS, NPR_M, C, 1),
      item('balance-with-nrb', 'Balance with Nepal Rastra Bank', ASSETS, NPR_M, N, 1),
      item(
        'balance-with-bfis',
        'Balance with banks and financial institutions',
        ASSETS,
        NPR_M,
        B,
        1,
      ),
      item('investments', 'Investments', ASSETS, NPR_M, I, 1),
      item('loans-and-advances', 'Loans and advances', ASSETS, NPR_M, L, 1),
      item('fixed-assets', 'Fixed assets', ASSETS, NPR_M, F, 1),
      item('other-assets', 'Other assets', ASSETS, NPR_M, otherAssets, 1),
      item('total-assets', 'Total assets', ASSETS, NPR_M, totalRounded, 1),
    ],
    levels: { deposits, loans },
  };
}

function profitAndLoss(rng) {
  // Monthly flows, then cumulated from August, the first full month of the fiscal year (mid-July).
  const interestIncome = rng.around(
    (i) => 42_000 * (1 + 0.45 * progress(i)) * (1 + 0.35 * hump(i)),
    1_200,
  );
  const interestExpense = interestIncome.map(
    (v, i) => v * (0.6 + 0.08 * hump(i) + 0.01 * rng.normal()),
  );
  const fees = rng.around((i) => 3_600 * (1 + 0.3 * progress(i)), 250);
  const otherOperating = rng.around(() => 1_500, 220);
  const staff = rng.around((i) => 5_200 * (1 + 0.35 * progress(i)), 180);
  const otherExpenses = rng.around((i) => 3_900 * (1 + 0.3 * progress(i)), 200);
  const impairment = rng.around((i) => 1_200 + 3_800 * progress(i) ** 1.5, 500);
  const nonOperating = rng.around(() => 300, 90);
  const flows = {
    interestIncome,
    interestExpense,
    fees,
    otherOperating,
    staff,
    otherExpenses,
    impairment: impairment.map((v) => Math.max(v, 100)),
    nonOperating,
  };
  const cumulative = Object.fromEntries(
    Object.entries(flows).map(([k, series]) => {
      let running = 0;
      return [
        k,
        series.map((v, i) => (running = (calendarMonth(i) === 7 ? 0 : running) + round(v, 1))),
      ];
    }),
  );
  const c = Object.fromEntries(
    Object.entries(cumulative).map(([k, s]) => [k, s.map((v) => round(v, 1))]),
  );
  const sub = (a, b) => a.map((v, i) => round(v - b[i], 1));
  const add = (...xs) =>
    xs[0].map((_, i) =>
      round(
        xs.reduce((s, x) => s + x[i], 0),
        1,
      ),
    );
  const nii = sub(c.interestIncome, c.interestExpense);
  const totalOperating = add(nii, c.fees, c.otherOperating);
  const beforeProvision = sub(sub(totalOperating, c.staff), c.otherExpenses);
  const operatingProfit = sub(beforeProvision, c.impairment);
  const beforeTax = add(operatingProfit, c.nonOperating);
  const tax = beforeTax.map((v) => round(Math.max(v, 0) * 0.3, 1));
  const net = sub(beforeTax, tax);
  const INCOME = 'Income';
  const EXPENSES = 'Expenses and provisions';
  const PROFIT = 'Profit';
  return {
    title: 'Consolidated profit and loss of banks and financial institutions',
    unit: NPR_M,
    note: 'Cumulative from the start of the fiscal year (mid-July); figures restart each August.',
    items: [
      item('interest-income', 'Interest income', INCOME, NPR_M, c.interestIncome, 1),
      item('interest-expense', 'Interest expense', EXPENSES, NPR_M, c.interestExpense, 1),
      item('net-interest-income', 'Net interest income', INCOME, NPR_M, nii, 1),
      item('fee-and-commission-income', 'Fee and commission income', INCOME, NPR_M, c.fees, 1),
      item('other-operating-income', 'Other operating income', INCOME, NPR_M, c.otherOperating, 1),
      item('total-operating-income', 'Total operating income', INCOME, NPR_M, totalOperating, 1),
      item('staff-expenses', 'Staff expenses', EXPENSES, NPR_M, c.staff, 1),
      item(
        'other-operating-expenses',
        'Other operating expenses',
        EXPENSES,
        NPR_M,
        c.otherExpenses,
        1,
      ),
      item(
        'impairment-charges',
        'Impairment charges (provisions)',
        EXPENSES,
        NPR_M,
        c.impairment,
        1,
      ),
      item(
        'operating-profit-before-provision',
        'Operating profit before provisions',
        PROFIT,
        NPR_M,
        beforeProvision,
        1,
      ),
      item('operating-profit', 'Operating profit', PROFIT, NPR_M, operatingProfit, 1),
      item('non-operating-income', 'Non-operating income', PROFIT, NPR_M, c.nonOperating, 1),
      item('profit-before-tax', 'Profit before tax', PROFIT, NPR_M, beforeTax, 1),
      item('income-tax', 'Income tax', PROFIT, NPR_M, tax, 1),
      item('net-profit', 'Net profit', PROFIT, NPR_M, net, 1),
    ].sort(
      (a, b) =>
        [INCOME, EXPENSES, PROFIT].indexOf(a.section) -
        [INCOME, EXPENSES, PROFIT].indexOf(b.section),
    ),
  };
}

const SECTORS = {
  'sector-agriculture': ['Agriculture and forestry', 0.07, 0.25],
  'sector-mining': ['Mining', 0.004, 0],
  'sector-manufacturing': ['Manufacturing (production)', 0.15, -0.05],
  'sector-construction': ['Construction', 0.06, 0.05],
  'sector-energy': ['Electricity, gas and water', 0.045, 0.35],
  'sector-metal-products': ['Metal products, machinery and electronics', 0.012, 0],
  'sector-transport': ['Transport, communication and public utilities', 0.025, -0.1],
  'sector-wholesale-retail': ['Wholesale and retail trade', 0.22, -0.08],
  'sector-finance-insurance-real-estate': ['Finance, insurance and real estate', 0.09, -0.05],
  'sector-tourism': ['Hotels and restaurants (tourism)', 0.045, 0.1],
  'sector-other-services': ['Other services', 0.05, 0],
  'sector-consumption': ['Consumable loans', 0.12, -0.15],
  'sector-local-government': ['Local government', 0.001, 0],
  'sector-others': ['Others', 0.107, 0],
};

const PRODUCTS = {
  'product-term-loan': ['Term loans', 0.2, 0.1],
  'product-overdraft': ['Overdraft', 0.14, -0.05],
  'product-trust-receipt': ['Trust receipt (import) loans', 0.035, -0.2],
  'product-demand-working-capital': ['Demand and other working capital loans', 0.25, 0],
  'product-residential-real-estate': ['Residential real estate (personal home loans)', 0.06, 0],
  'product-real-estate': ['Real estate loans', 0.045, -0.1],
  'product-margin-lending': ['Margin lending', 0.03, -0.15],
  'product-hire-purchase': ['Hire purchase loans', 0.04, -0.2],
  'product-deprived-sector': ['Deprived sector loans', 0.055, 0.05],
  'product-bills-purchased': ['Bills purchased', 0.004, 0],
  'product-other': ['Other products', 0.141, 0.05],
};

function credit(rng, levels) {
  // Credit to the private sector is most of the loans and advances of the balance sheet.
  const total = levels.loans.map((v) => v * (0.965 + 0.003 * rng.normal()));
  const totalRounded = total.map((v) => round(v, 1));
  const toShares = (table) =>
    Object.fromEntries(Object.entries(table).map(([k, [, share]]) => [k, share]));
  const toDrift = (table) =>
    Object.fromEntries(Object.entries(table).map(([k, [, , drift]]) => [k, drift]));
  const sectors = splitByShares(rng, totalRounded, toShares(SECTORS), toDrift(SECTORS), 1);
  const products = splitByShares(rng, totalRounded, toShares(PRODUCTS), toDrift(PRODUCTS), 1);
  return {
    title: 'Credit of banks and financial institutions by sector and by product',
    unit: NPR_M,
    note: 'Outstanding at the end of each month; sectors and products each add up to the total.',
    items: [
      item('total-credit', 'Total credit to the private sector', 'Total', NPR_M, totalRounded, 1),
      ...Object.entries(SECTORS).map(([key, [label]]) =>
        item(key, label, 'By sector', NPR_M, sectors[key], 1),
      ),
      ...Object.entries(PRODUCTS).map(([key, [label]]) =>
        item(key, label, 'By product', NPR_M, products[key], 1),
      ),
    ],
    levels: { credit: total },
  };
}

function indicators(rng, levels) {
  const depositGrowth = yoy(levels.deposits);
  const creditGrowth = yoy(levels.credit);
  const CAPITAL = 'Capital adequacy';
  const ASSET = 'Asset quality';
  const LIQUIDITY = 'Liquidity';
  const EARNINGS = 'Earnings';
  const RATES = 'Rates and growth';
  const npl = rng.around((i) => 1.4 + 3.4 * progress(i) ** 1.8, 0.06, 0.9);
  return {
    title: 'C4 banking indicators of banks and financial institutions',
    unit: PCT,
    note: null,
    items: [
      item(
        'capital-adequacy-ratio',
        'Capital adequacy ratio',
        CAPITAL,
        PCT,
        rng.around((i) => 13.6 - 0.6 * hump(i) + 0.4 * progress(i), 0.12),
        2,
      ),
      item(
        'core-capital-ratio',
        'Core capital (Tier 1) ratio',
        CAPITAL,
        PCT,
        rng.around((i) => 10.8 - 0.5 * hump(i) + 0.5 * progress(i), 0.1),
        2,
      ),
      item('npl-ratio', 'Non-performing loans to total loans', ASSET, PCT, npl, 2),
      item(
        'loan-loss-provision-to-npl',
        'Loan loss provision to non-performing loans',
        ASSET,
        PCT,
        rng.around((i) => 190 - 70 * progress(i), 4),
        2,
      ),
      item(
        'ccd-ratio',
        'Credit to core capital and deposits (CCD)',
        LIQUIDITY,
        PCT,
        rng.around((i) => 86 - 7 * progress(i) + 3 * hump(i), 0.6),
        2,
      ),
      item(
        'liquid-assets-to-deposits',
        'Liquid assets to total deposits',
        LIQUIDITY,
        PCT,
        rng.around((i) => 24 + 6 * progress(i) - 3 * hump(i), 0.5),
        2,
      ),
      item(
        'net-liquid-assets-ratio',
        'Net liquid assets to total deposits',
        LIQUIDITY,
        PCT,
        rng.around((i) => 19 + 6 * progress(i) - 3 * hump(i), 0.5),
        2,
      ),
      item(
        'return-on-equity',
        'Return on equity (annualised)',
        EARNINGS,
        PCT,
        rng.around((i) => 12.5 - 5.5 * progress(i), 0.3),
        2,
      ),
      item(
        'return-on-assets',
        'Return on assets (annualised)',
        EARNINGS,
        PCT,
        rng.around((i) => 1.45 - 0.55 * progress(i), 0.04),
        2,
      ),
      item(
        'interest-spread',
        'Interest spread',
        RATES,
        PCT,
        rng.around((i) => 4.2 - 0.5 * hump(i) - 0.3 * progress(i), 0.05),
        2,
      ),
      item('deposit-growth-yoy', 'Deposit growth, year on year', RATES, PCT, depositGrowth, 2),
      item('credit-growth-yoy', 'Credit growth, year on year', RATES, PCT, creditGrowth, 2),
    ],
  };
}

function centralBankSurvey(rng) {
  const claims = rng.growing(1_420_000, 0.11, 0.008).map((v, i) => v * (1 - 0.12 * hump(i, 8)));
  const liabilities = rng.around((i) => 95_000 + 30_000 * progress(i), 4_000);
  const reserveMoney = rng
    .growing(1_050_000, 0.065, 0.012)
    .map((v, i) => v * (1 + 0.4 * festive(i)));
  const currency = reserveMoney.map((v, i) => v * (0.66 + 0.15 * festive(i) + 0.01 * rng.normal()));
  const bankDeposits = reserveMoney.map(
    (v, i) => v * (0.3 - 0.15 * festive(i) + 0.008 * rng.normal()),
  );
  const r = (a) => a.map((v) => round(v, 1));
  const [CL, LI, RM, CU, BD] = [
    r(claims),
    r(liabilities),
    r(reserveMoney),
    r(currency),
    r(bankDeposits),
  ];
  const otherDeposits = RM.map((v, i) => round(v - CU[i] - BD[i], 1));
  const nfa = CL.map((v, i) => round(v - LI[i], 1));
  const nda = RM.map((v, i) => round(v - nfa[i], 1));
  const government = r(
    rng.around((i) => 95_000 + 140_000 * hump(i, 12) - 60_000 * progress(i), 18_000),
  );
  const banks = r(
    rng.around((i) => 25_000 + 160_000 * hump(i, 9), 14_000).map((v) => Math.max(v, 2_000)),
  );
  const privateSector = r(rng.growing(16_000, 0.05, 0.01));
  const otherItems = nda.map((v, i) => round(v - government[i] - banks[i] - privateSector[i], 1));
  const NFA = 'Net foreign assets';
  const NDA = 'Net domestic assets';
  const RMS = 'Reserve money';
  return {
    title: 'Central bank survey (monetary authority balance sheet)',
    unit: NPR_M,
    note: 'Series codes follow the SDMX feed of the central bank survey: CBS.<concept>[.<breakdown>].',
    items: [
      item('CBS.NFA', 'Net foreign assets', NFA, NPR_M, nfa, 1),
      item('CBS.NFA.CLAIMS', 'Claims on non-residents (foreign assets)', NFA, NPR_M, CL, 1),
      item('CBS.NFA.LIAB', 'Liabilities to non-residents', NFA, NPR_M, LI, 1),
      item('CBS.NDA', 'Net domestic assets', NDA, NPR_M, nda, 1),
      item('CBS.NDA.CGOV', 'Net claims on central government', NDA, NPR_M, government, 1),
      item('CBS.NDA.ODC', 'Claims on banks and financial institutions', NDA, NPR_M, banks, 1),
      item('CBS.NDA.PVT', 'Claims on the private sector', NDA, NPR_M, privateSector, 1),
      item('CBS.NDA.OIN', 'Other items, net', NDA, NPR_M, otherItems, 1),
      item('CBS.RM', 'Reserve money', RMS, NPR_M, RM, 1),
      item('CBS.RM.CURR', 'Currency in circulation', RMS, NPR_M, CU, 1),
      item('CBS.RM.ODC', 'Deposits of banks and financial institutions', RMS, NPR_M, BD, 1),
      item('CBS.RM.OTH', 'Other deposits at the central bank', RMS, NPR_M, otherDeposits, 1),
    ],
  };
}

const CPI_GROUPS = [
  ['overall', 'Overall index', 'Overall', 1],
  ['food-and-beverage', 'Food and beverage', 'Food and beverage', 1.15],
  ['cereal-grains', 'Cereal grains and their products', 'Food and beverage', 0.9],
  ['vegetables', 'Vegetables', 'Food and beverage', 1.6],
  ['meat-and-fish', 'Meat and fish', 'Food and beverage', 1.1],
  ['milk-products-and-eggs', 'Milk products and eggs', 'Food and beverage', 0.95],
  ['non-food-and-services', 'Non-food and services', 'Non-food and services', 0.85],
  ['clothes-and-footwear', 'Clothes and footwear', 'Non-food and services', 0.9],
  ['housing-and-utilities', 'Housing and utilities', 'Non-food and services', 0.8],
  ['transport', 'Transport', 'Non-food and services', 1.3],
  ['education', 'Education', 'Non-food and services', 0.9],
  ['health', 'Health', 'Non-food and services', 0.6],
];
const INDEX = 'index, 2014/15 = 100';

function consumerPrices(rng) {
  // Monthly inflation: about 3.5 % a year in 2020-21, a peak near 8 % in 2022-23, about 4 % after.
  const monthlyInflation = (i) => (3.5 + 4.6 * hump(i, 11) + 0.5 * progress(i)) / 1200;
  const levels = {};
  for (const [key, , , volatility] of CPI_GROUPS) {
    const series = [];
    let level = key === 'overall' ? 127 : rng.between(118, 140);
    for (let i = 0; i < SPAN; i++) {
      series.push(level);
      const seasonal =
        key === 'vegetables' ? 0.05 * Math.sin(((calendarMonth(i) - 3) / 12) * 2 * Math.PI) : 0;
      level *=
        1 + monthlyInflation(i) * volatility + 0.0025 * volatility * rng.normal() + seasonal * 0.3;
    }
    levels[key] = series;
  }
  return {
    title: 'Consumer price index by group',
    unit: INDEX,
    note: 'National urban and rural index, base fiscal year 2014/15 = 100.',
    items: CPI_GROUPS.map(([key, label, section]) =>
      item(key, label, section, INDEX, levels[key], 1),
    ),
    levels: { cpi: levels.overall },
  };
}

function interestRates(rng) {
  const POLICY = 'Policy and market rates';
  const BANK = 'Bank lending and deposit rates';
  const policy = (i) => (i < PEAK - 20 ? 5 : i < PEAK + 8 ? 7 : i < PEAK + 20 ? 6.5 : 5);
  return {
    title: 'Interest rates of banks and financial institutions',
    unit: PCT,
    note: 'Weighted averages of commercial banks, end of month.',
    items: [
      item(
        'policy-rate',
        'Policy rate',
        POLICY,
        PCT,
        Array.from({ length: SPAN }, (_, i) => policy(i)),
        2,
      ),
      item(
        'interbank',
        'Interbank rate (weighted average)',
        POLICY,
        PCT,
        rng
          .around((i) => 1.5 + 6 * hump(i, 10) + 1.2 * progress(i), 0.45, 0.5)
          .map((v) => Math.max(v, 0.8)),
        2,
      ),
      item(
        'tbill-91',
        '91-day treasury bill rate',
        POLICY,
        PCT,
        rng
          .around((i) => 1.8 + 8.5 * hump(i, 10) + 0.6 * progress(i), 0.35, 0.6)
          .map((v) => Math.max(v, 0.5)),
        2,
      ),
      item(
        'base-rate',
        'Base rate (average)',
        BANK,
        PCT,
        rng.around((i) => 6.9 + 3.7 * hump(i, 15) - 1.2 * progress(i), 0.08, 0.9),
        2,
      ),
      item(
        'spread-rate',
        'Interest spread rate',
        BANK,
        PCT,
        rng.around((i) => 4.1 - 0.3 * hump(i) - 0.2 * progress(i), 0.04, 0.8),
        2,
      ),
      item(
        'wavg-deposit',
        'Weighted average deposit rate',
        BANK,
        PCT,
        rng.around((i) => 5.6 + 3.2 * hump(i, 15) - 1.6 * progress(i), 0.07, 0.9),
        2,
      ),
      item(
        'wavg-credit',
        'Weighted average lending rate',
        BANK,
        PCT,
        rng.around((i) => 9.4 + 3.6 * hump(i, 15) - 1.4 * progress(i), 0.07, 0.9),
        2,
      ),
    ],
  };
}

const SITC = [
  ['0', 'Food and live animals', 0.2, 0.13],
  ['1', 'Beverages and tobacco', 0.02, 0.01],
  ['2', 'Crude materials, inedible, except fuels', 0.05, 0.04],
  ['3', 'Mineral fuels, lubricants and related materials', 0.01, 0.22],
  ['4', 'Animal and vegetable oils, fats and waxes', 0.22, 0.05],
  ['5', 'Chemicals and related products', 0.05, 0.12],
  ['6', 'Manufactured goods classified chiefly by material', 0.3, 0.17],
  ['7', 'Machinery and transport equipment', 0.02, 0.19],
  ['8', 'Miscellaneous manufactured articles', 0.12, 0.06],
  ['9', 'Commodities and transactions not classified elsewhere', 0.01, 0.01],
];

function trade(rng) {
  const exports = rng
    .trend(13_500, 0.06, 0.06)
    .map((v, i) => v * (1 + festive(i)) * (1 + 0.45 * Math.exp(-(((i - 22) / 6) ** 2))));
  const imports = rng
    .trend(118_000, 0.05, 0.04)
    .map((v, i) => v * (1 + festive(i)) * (1 - 0.12 * hump(i, 9)));
  const X = exports.map((v) => round(v, 1));
  const M = imports.map((v) => round(v, 1));
  const shares = (which) =>
    Object.fromEntries(SITC.map(([code, , x, m]) => [code, which === 'x' ? x : m]));
  // Edible oil re-exports boomed in 2021-22 and faded: section 4 of exports shrinks over the years.
  const exportDrift = Object.fromEntries(
    SITC.map(([code]) => [code, code === '4' ? -0.75 : code === '6' ? 0.25 : 0]),
  );
  const importDrift = Object.fromEntries(SITC.map(([code]) => [code, code === '3' ? 0.1 : 0]));
  const byX = splitByShares(rng, X, shares('x'), exportDrift, 1);
  const byM = splitByShares(rng, M, shares('m'), importDrift, 1);
  const TOTALS = 'Totals';
  return {
    title: 'Merchandise trade: exports (FOB) and imports (CIF) by SITC section',
    unit: NPR_M,
    note: 'Trade in the month; SITC sections add up to the totals.',
    items: [
      item('exports-fob', 'Total exports (FOB)', TOTALS, NPR_M, X, 1),
      item('imports-cif', 'Total imports (CIF)', TOTALS, NPR_M, M, 1),
      item(
        'trade-balance',
        'Trade balance (exports less imports)',
        TOTALS,
        NPR_M,
        X.map((x, i) => round(x - M[i], 1)),
        1,
      ),
      ...SITC.map(([code, label]) =>
        item(
          `exports-sitc-${code}`,
          `${code} ${label}`,
          'Exports (FOB) by SITC section',
          NPR_M,
          byX[code],
          1,
        ),
      ),
      ...SITC.map(([code, label]) =>
        item(
          `imports-sitc-${code}`,
          `${code} ${label}`,
          'Imports (CIF) by SITC section',
          NPR_M,
          byM[code],
          1,
        ),
      ),
    ],
  };
}

function macro(rng, levels) {
  const inflation = yoy(levels.cpi);
  const remittance = rng.trend(80, 0.13, 0.05).map((v, i) => v * (1 + 1.5 * festive(i)));
  const reserves = rng.growing(11_600, 0.1, 0.012).map((v, i) => v * (1 - 0.18 * hump(i, 9)));
  // Months of imports: reserves over the imports of goods and services of a month, both in USD.
  const monthlyImports = rng.growing(1_150, 0.03, 0.02).map((v, i) => v * (1 + 0.12 * hump(i, 9)));
  const importCover = reserves.map((v, i) => v / monthlyImports[i]);
  const bop = rng.around((i) => 18 - 45 * hump(i, 8) + 12 * progress(i), 9, 0.3);
  const currentAccount = rng.around(
    (i) => -40 + 35 * progress(i) - 12 * Math.exp(-(((i - PEAK + 14) / 7) ** 2)),
    6,
    0.4,
  );
  const m2Growth = rng.around((i) => 18 - 7 * hump(i, 12) - 4 * progress(i), 0.4);
  const privateCreditGrowth = yoy(levels.credit);
  const EXTERNAL = 'External sector';
  const PRICES = 'Prices';
  const MONEY = 'Money and credit';
  const series = [
    ['inflation', 'Consumer price inflation, year on year', PRICES, PCT, inflation, 2],
    ['m2-growth', 'Broad money (M2) growth, year on year', MONEY, PCT, m2Growth, 2],
    [
      'private-credit-growth',
      'Private sector credit growth, year on year',
      MONEY,
      PCT,
      privateCreditGrowth,
      2,
    ],
    ['remittance', 'Remittance inflows in the month', EXTERNAL, 'NPR billions', remittance, 1],
    ['reserves', 'Gross foreign exchange reserves', EXTERNAL, 'USD millions', reserves, 1],
    [
      'import-cover',
      'Reserves in months of imports of goods and services',
      EXTERNAL,
      'months',
      importCover,
      1,
    ],
    [
      'bop',
      'Balance of payments, surplus (+) or deficit (-) in the month',
      EXTERNAL,
      'NPR billions',
      bop,
      1,
    ],
    [
      'current-account',
      'Current account balance in the month',
      EXTERNAL,
      'NPR billions',
      currentAccount,
      1,
    ],
  ];
  const month = `${MONTH_NAMES[LAST % 12]} ${Math.floor(LAST / 12)}`;
  // Each indicator quoted the way the monthly report words it, with the figures it describes.
  const rs = (v) => `Rs. ${Math.abs(v).toFixed(1)} billion`;
  const pct = (v) => `${v.toFixed(2)} percent`;
  const side = (v, plus, minus) => (v >= 0 ? plus : minus);
  const QUOTES = {
    inflation: (now, before) =>
      `The y-o-y consumer price inflation stood at ${pct(now)} in ${month} compared to ${pct(before)} a year ago.`,
    'm2-growth': (now, before) =>
      `Broad money (M2) expanded ${pct(now)} on y-o-y basis in ${month} compared to ${pct(before)} a year ago.`,
    'private-credit-growth': (now, before) =>
      `Credit to the private sector from banks and financial institutions increased ${pct(now)} on y-o-y basis in ${month} compared to ${pct(before)} a year ago.`,
    remittance: (now, before) =>
      `Remittance inflows amounted to ${rs(now)} in ${month} compared to ${rs(before)} in the same month of the previous year.`,
    reserves: (now, before) =>
      `Gross foreign exchange reserves stood at USD ${now.toFixed(1)} million in ${month} compared to USD ${before.toFixed(1)} million a year ago.`,
    'import-cover': (now) =>
      `The foreign exchange reserves are sufficient to cover the prospective merchandise and services imports of ${now.toFixed(1)} months.`,
    bop: (now, before) =>
      `The balance of payments remained at a ${side(now, 'surplus', 'deficit')} of ${rs(now)} in ${month} compared to a ${side(before, 'surplus', 'deficit')} of ${rs(before)} a year ago.`,
    'current-account': (now, before) =>
      `The current account remained at a ${side(now, 'surplus', 'deficit')} of ${rs(now)} in ${month} compared to a ${side(before, 'surplus', 'deficit')} of ${rs(before)} a year ago.`,
  };
  return {
    title: 'Macroeconomic indicators (Current Macroeconomic and Financial Situation)',
    unit: null,
    note: `Figures as quoted in the central bank's monthly report on the macroeconomic situation, based on data up to ${month}.`,
    items: series.map(([key, label, section, unit, values, digits]) => {
      const shown = published(values, digits);
      return {
        key,
        label,
        section,
        unit,
        source_quote: QUOTES[key](shown.at(-1), shown.at(-13)),
        values: shown,
      };
    }),
  };
}

// --- the families, as the service serves them ---

const SOURCE_URL = 'https://www.nrb.org.np';

function build() {
  const rng = (name) => generator(seedOf(`svc-data-fixtures:${name}`));
  const sheet = balanceSheet(rng('balance-sheet'));
  const loans = credit(rng('credit'), sheet.levels);
  const prices = consumerPrices(rng('cpi'));
  const levels = {
    deposits: sheet.levels.deposits,
    credit: loans.levels.credit,
    cpi: prices.levels.cpi,
  };
  const strip = ({ levels: _levels, ...rest }) => rest;
  return [
    [
      'balance-sheet',
      'banking/balance-sheet',
      'key',
      16,
      `${SOURCE_URL}/category/monthly-statistics/`,
      strip(sheet),
    ],
    [
      'pnl',
      'banking/pnl',
      'key',
      16,
      `${SOURCE_URL}/category/monthly-statistics/`,
      profitAndLoss(rng('pnl')),
    ],
    [
      'credit',
      'banking/credit',
      'key',
      16,
      `${SOURCE_URL}/category/monthly-statistics/`,
      strip(loans),
    ],
    [
      'indicators',
      'banking/indicators',
      'indicator',
      18,
      `${SOURCE_URL}/category/banking-financial-statistics/`,
      indicators(rng('indicators'), levels),
    ],
    [
      'cbs',
      'cbs',
      'indicator',
      12,
      `${SOURCE_URL}/category/monetary-survey/`,
      centralBankSurvey(rng('cbs')),
    ],
    ['cpi', 'cpi', 'indicator', 14, `${SOURCE_URL}/category/consumer-price-index/`, strip(prices)],
    [
      'interest-rates',
      'interest-rates',
      'metric',
      12,
      `${SOURCE_URL}/category/interest-rates/`,
      interestRates(rng('interest-rates')),
    ],
    ['trade', 'trade', 'key', 20, `${SOURCE_URL}/category/external-sector/`, trade(rng('trade'))],
    [
      'macro',
      'macro',
      'indicator',
      21,
      `${SOURCE_URL}/category/current-macroeconomic-situation/`,
      macro(rng('macro'), levels),
    ],
  ].map(([family, path, selectorParam, day, sourceUrl, body]) => ({
    family,
    path,
    selector_param: selectorParam,
    title: body.title,
    unit: body.unit,
    note: body.note,
    source_url: sourceUrl,
    as_of: asOf(day),
    first_month: FIRST_MONTH,
    last_month: LATEST_MONTH,
    items: body.items,
  }));
}

/**
 * JSON with one line per item, its values on that line: readable in a diff, not 20 000 lines long.
 */
function serialize(dataset) {
  const { items, ...head } = dataset;
  const headText = JSON.stringify(head, null, 2).slice(0, -2);
  const itemLines = items.map((it) => `    ${JSON.stringify(it)}`).join(',\n');
  return `${headText},\n  "items": [\n${itemLines}\n  ]\n}\n`;
}

mkdirSync(OUT_DIR, { recursive: true });
for (const dataset of build()) {
  for (const it of dataset.items) {
    if (it.values.length !== PUBLISHED || it.values.some((v) => !Number.isFinite(v)))
      throw new Error(`bad values for ${dataset.family}/${it.key}`);
  }
  writeFileSync(`${OUT_DIR}${dataset.family}.json`, serialize(dataset));
}
console.log(`wrote ${OUT_DIR} (${FIRST_MONTH} to ${LATEST_MONTH}, ${PUBLISHED} months)`);
