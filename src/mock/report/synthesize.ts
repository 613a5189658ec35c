// The transactions of a statement, made up from what its fixture says about it: every occurrence
// of its recurring streams (on its date, for its amount), its named people and merchants (their
// counts and totals), then the rest of each flow by counterparty type (counts and totals of
// `by_type`). So the counterparties and recurring views of a report describe its transactions.
import { addDays, addMonths, DAY_MS } from '../dates.js';
import type {
  CounterpartiesFixture,
  CounterpartyType,
  NamedCounterparty,
  Period,
  RecurringFixture,
  RecurringStreamFixture,
} from '../fixtures.js';
import { merchantDirectory } from '../merchants/directory.js';
import { type Draft, type Ledger, ledger } from './ledger.js';
import { type Random, seededRandom } from './random.js';
import { type Category, type Direction, type MerchantRef, money } from './transaction.js';

export interface StatementProfile {
  period: Period;
  counterparties: CounterpartiesFixture;
  recurring: RecurringFixture;
  /** Absent: the lowest balance of the period stays a little above zero. */
  opening_balance?: number;
}

interface StreamKind {
  type: CounterpartyType;
  category: Category;
  /** Paid the same amount every time (a salary, an EMI), or varying around the average. */
  fixed: boolean;
  narration: (name: string, date: string, random: Random) => string;
}

const up = (name: string) => name.toUpperCase();
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const monthName = (date: string) => `${MONTHS[Number(date.slice(5, 7)) - 1]} ${date.slice(0, 4)}`;
const mobile = (random: Random) => `98${random.digits(8)}`;

/** What each kind of recurring stream of the fixtures is, by its `category`. */
const STREAM_KINDS: Record<string, StreamKind> = {
  salary: {
    type: 'institution',
    category: 'salary',
    fixed: true,
    narration: (n, d) => `SALARY ${up(n)} ${monthName(d)}`,
  },
  pension: {
    type: 'institution',
    category: 'other',
    fixed: true,
    narration: (n, d) => `PENSION ${up(n)} ${monthName(d)}`,
  },
  remittance: {
    type: 'institution',
    category: 'remittance',
    fixed: false,
    narration: (n, _d, r) => `INWARD REMIT ${up(n)} REF ${r.digits(10)}`,
  },
  interest: {
    type: 'institution',
    category: 'interest',
    fixed: false,
    narration: () => 'INTEREST CAPITALISED',
  },
  business_income: {
    type: 'institution',
    category: 'other',
    fixed: false,
    narration: (n, _d, r) => `${up(n)} ${r.digits(8)}`,
  },
  gig_income: {
    type: 'institution',
    category: 'other',
    fixed: false,
    narration: (n, _d, r) => `${up(n)} PAYOUT ${r.digits(8)}`,
  },
  family_support: { type: 'individual', category: 'transfer', fixed: true, narration: () => '' },
  rent: { type: 'individual', category: 'transfer', fixed: true, narration: () => '' },
  loan_emi: {
    type: 'institution',
    category: 'loan_repayment',
    fixed: true,
    narration: (n, d) => `EMI ${up(n)} ${monthName(d)}`,
  },
  // A recurring deposit is an account of the holder's own.
  savings: {
    type: 'self',
    category: 'investment',
    fixed: true,
    narration: (n) => `RD INSTALMENT ${up(n)}`,
  },
  insurance: {
    type: 'institution',
    category: 'other',
    fixed: true,
    narration: (n, _d, r) => `PREMIUM ${up(n)} ${r.digits(8)}`,
  },
  education: {
    type: 'institution',
    category: 'other',
    fixed: true,
    narration: (n, d) => `FEE ${up(n)} ${monthName(d)}`,
  },
  utilities: {
    type: 'institution',
    category: 'utility',
    fixed: false,
    narration: (n, _d, r) => `${up(n)} BILL ${r.digits(8)}`,
  },
  subscription: {
    type: 'merchant',
    category: 'merchant_payment',
    fixed: true,
    narration: () => '',
  },
  mobile_recharge: {
    type: 'wallet',
    category: 'utility',
    fixed: true,
    narration: (n, _d, r) => `TOPUP ${up(n)} ${mobile(r)}`,
  },
  wallet_topup: {
    type: 'wallet',
    category: 'wallet',
    fixed: false,
    narration: (n, _d, r) => `${up(n)} LOAD ${mobile(r)}`,
  },
};
const OTHER_STREAM: StreamKind = {
  type: 'institution',
  category: 'other',
  fixed: true,
  narration: (n) => up(n),
};

/** People a statement may pay or be paid by, besides its named ones. */
const PEOPLE = [
  'Manoj Basnet',
  'Bijay Khadka',
  'Dipendra Bhandari',
  'Sarita Gurung',
  'Sabina Tamang',
  'Anjana Rai',
  'Rojina Shahi',
  'Suresh Chaudhary',
  'Kabita Lama',
  'Nabin KC',
];
const WALLETS = ['eSewa', 'Khalti', 'IME Pay'];
const ATM_PLACES = [
  'NEW ROAD',
  'BANESHWOR',
  'LAZIMPAT',
  'LAKESIDE',
  'PUTALISADAK',
  'CHABAHIL',
  'KUPONDOLE',
];
/** A categorisation is surer for a known stream than for a one-off transfer. */
const CONFIDENCE: Record<CounterpartyType, number> = {
  merchant: 0.92,
  individual: 0.8,
  institution: 0.6,
  wallet: 0.88,
  cash: 0.99,
  self: 0.9,
};
const CHANNELS: Record<CounterpartyType, Draft['channel']> = {
  merchant: 'in store',
  individual: 'online',
  institution: 'other',
  wallet: 'online',
  cash: 'in store',
  self: 'online',
};

export function synthesizeTransactions(profile: StatementProfile, seed: string): Ledger {
  const random = seededRandom(seed);
  const { period, counterparties } = profile;
  const named = [...counterparties.top_people, ...counterparties.top_merchants];
  const left = new Map(
    counterparties.by_type.flatMap((t) => [
      [`${t.type}:credit`, { count: t.inflow_count, total: t.inflow }],
      [`${t.type}:debit`, { count: t.outflow_count, total: t.outflow }],
    ]),
  );
  const drafts: Draft[] = [];
  const add = (draft: Draft) => {
    drafts.push(draft);
    const flow = left.get(`${draft.counterparty.type}:${draft.direction}`);
    if (flow) {
      flow.count -= 1;
      flow.total -= draft.amount;
    }
  };

  for (const [direction, streams] of [
    ['credit', profile.recurring.inflow_streams],
    ['debit', profile.recurring.outflow_streams],
  ] as const) {
    for (const stream of streams)
      streamDrafts(stream, direction, named, period, random).forEach(add);
  }
  for (const counterparty of named) {
    const countLeft = (direction: Direction) =>
      left.get(`${counterparty.type}:${direction}`)?.count ?? 0;
    namedDrafts(counterparty, drafts, countLeft, period, random).forEach(add);
  }
  const namedNames = new Set(named.map((c) => c.name));
  for (const [flowKey, flow] of left) {
    const [type, direction] = flowKey.split(':') as [CounterpartyType, Direction];
    if (flow.count <= 0) {
      // Averages of varying amounts leave cents over: the last transaction of the flow takes them.
      const last = drafts.findLast(
        (d) => d.counterparty.type === type && d.direction === direction,
      );
      if (last && Math.abs(flow.total) < 1) last.amount = money(last.amount + flow.total);
      continue;
    }
    // A fixture whose named flows already exceed its total still gets its count of transactions.
    const total = flow.total > flow.count ? flow.total : flow.count * 500;
    const unit = type === 'cash' && total % 500 === 0 ? 500 : 0.01;
    for (const amount of split(total, flow.count, random, unit)) {
      add(otherDraft(type, direction, amount, randomDate(period, random), namedNames, random));
    }
  }
  return ledger(drafts, random, profile.opening_balance);
}

/** Each occurrence of a stream within the period, newest first from its last date. */
function streamDrafts(
  stream: RecurringStreamFixture,
  direction: Direction,
  named: NamedCounterparty[],
  period: Period,
  random: Random,
): Draft[] {
  const kind = STREAM_KINDS[stream.category] ?? OTHER_STREAM;
  const type = named.find((c) => c.name === stream.counterparty)?.type ?? kind.type;
  const dates = Array.from({ length: stream.occurrences }, (_, i) =>
    stream.cadence === 'weekly'
      ? addDays(stream.last_date, -7 * i)
      : addMonths(stream.last_date, -(stream.cadence === 'monthly' ? 1 : 3) * i),
  ).filter((date) => date >= period.from && date <= period.to);
  const amounts = kind.fixed
    ? dates.map(() => stream.average_amount)
    : around(stream.average_amount, dates.length, random);
  const confidence = stream.status === 'MATURE' ? 0.95 : 0.85;
  return dates.map((date, i) => {
    const draft = counterpartyDraft(
      type,
      stream.counterparty,
      direction,
      amounts[i]!,
      date,
      random,
    );
    // People and shops are written the way every transfer or QR payment is.
    if (type === 'merchant') return { ...draft, confidence };
    if (type === 'individual') return { ...draft, category: kind.category, confidence };
    return {
      ...draft,
      narration: kind.narration(stream.counterparty, date, random),
      category: kind.category,
      confidence,
    };
  });
}

/**
 * A named person's or merchant's transactions that its streams do not already make. One who is
 * both paid and paid by gets one of each, and the rest go where its type's flows still have room.
 */
function namedDrafts(
  counterparty: NamedCounterparty,
  made: readonly Draft[],
  countLeft: (direction: Direction) => number,
  period: Period,
  random: Random,
): Draft[] {
  const own = made.filter((d) => d.counterparty.name === counterparty.name);
  const count = counterparty.transaction_count - own.length;
  const sum = (direction: Direction) =>
    own.filter((d) => d.direction === direction).reduce((s, d) => s + d.amount, 0);
  const totals = {
    credit: counterparty.inflow - sum('credit'),
    debit: counterparty.outflow - sum('debit'),
  };
  const directions = (['credit', 'debit'] as const).filter(
    (direction) => totals[direction] > 0.005,
  );
  if (count < directions.length || directions.length === 0) return [];
  const counts = { credit: 0, debit: 0 };
  for (const direction of directions) counts[direction] = 1;
  for (let i = directions.length; i < count; i++) {
    const room = (direction: Direction) => countLeft(direction) - counts[direction];
    counts[
      directions.length === 1 || room(directions[0]!) >= room(directions[1]!)
        ? directions[0]!
        : directions[1]!
    ] += 1;
  }
  return directions.flatMap((direction) =>
    split(totals[direction], counts[direction], random).map((amount) =>
      counterpartyDraft(
        counterparty.type,
        counterparty.name,
        direction,
        amount,
        randomDate(period, random),
        random,
      ),
    ),
  );
}

/** One transaction with a counterparty of the given type, written as the bank writes that kind. */
function counterpartyDraft(
  type: CounterpartyType,
  name: string,
  direction: Direction,
  amount: number,
  date: string,
  random: Random,
): Draft {
  const base = {
    date,
    direction,
    amount: money(amount),
    counterparty: { type, name },
    merchant: null,
    channel: CHANNELS[type],
    confidence: CONFIDENCE[type],
  };
  const ref = random.digits(9);
  switch (type) {
    case 'merchant': {
      const merchant = merchantRef(name);
      if (direction === 'credit')
        return { ...base, merchant, narration: `REFUND ${up(name)} ${ref}`, category: 'refund' };
      const narration = merchant
        ? `MPAY ${merchant.terminal},${ref},MOB`
        : `POS ${up(name)} ${ref}`;
      return {
        ...base,
        merchant,
        narration,
        category: merchant?.category === 'utilities' ? 'utility' : 'merchant_payment',
      };
    }
    case 'individual':
      return {
        ...base,
        narration: `FT ${direction === 'credit' ? 'FROM' : 'TO'} ${up(name)} ${ref} MOB`,
        category: 'transfer',
      };
    case 'wallet':
      return {
        ...base,
        narration:
          direction === 'credit'
            ? `${up(name)} TO BANK ${ref}`
            : `${up(name)} LOAD ${mobile(random)}`,
        category: 'wallet',
      };
    case 'cash':
      return direction === 'credit'
        ? { ...base, narration: 'CASH DEPOSIT BY SELF', category: 'other' }
        : {
            ...base,
            narration: `ATM WDL ${random.digits(6)} ${random.pick(ATM_PLACES)}`,
            category: 'cash_withdrawal',
          };
    case 'self':
      return {
        ...base,
        narration: `OWN A/C TRF ${direction === 'credit' ? 'FROM' : 'TO'} ${random.digits(4)}`,
        category: 'transfer',
      };
    case 'institution':
      return direction === 'credit'
        ? { ...base, narration: 'INTEREST CAPITALISED', category: 'interest' }
        : { ...base, narration: `SERVICE CHARGE ${ref}`, category: 'fee' };
  }
}

/** A transaction of the rest of a flow: with a shop, person or wallet the fixture does not name. */
function otherDraft(
  type: CounterpartyType,
  direction: Direction,
  amount: number,
  date: string,
  namedNames: Set<string>,
  random: Random,
): Draft {
  const unnamed = (names: readonly string[]) =>
    random.pick(names.filter((n) => !namedNames.has(n)));
  const name = {
    merchant: () => unnamed(merchantDirectory().merchants.map((m) => m.merchant)),
    individual: () => unnamed(PEOPLE),
    wallet: () => random.pick(WALLETS),
    cash: () => (direction === 'credit' ? 'Cash deposit' : 'ATM withdrawal'),
    self: () => 'Own account transfer',
    institution: () => (direction === 'credit' ? 'Interest' : 'Service charge'),
  }[type]();
  return counterpartyDraft(type, name, direction, amount, date, random);
}

function merchantRef(name: string): MerchantRef | null {
  const found = merchantDirectory().resolveName(name);
  return found.matched
    ? {
        name: found.merchant!,
        terminal: found.terminal!,
        mcc: found.mcc!,
        category: found.category!,
      }
    : null;
}

function randomDate(period: Period, random: Random): string {
  return addDays(
    period.from,
    random.int(0, Math.round((Date.parse(period.to) - Date.parse(period.from)) / DAY_MS)),
  );
}

/** `count` amounts within 15 % of `average`, whose mean is `average`. */
function around(average: number, count: number, random: Random): number[] {
  return count === 0 ? [] : split(average * count, count, random, 0.01, 0.85);
}

/**
 * `total` split into `count` positive parts that add up to it, each a multiple of `unit` (the last
 * absorbs the rounding); `floor` is the smallest weight relative to the largest possible one.
 */
function split(total: number, count: number, random: Random, unit = 0.01, floor = 0.4): number[] {
  const weights = Array.from({ length: count }, () => floor + (1 - floor) * 2 * random.next());
  const weightSum = weights.reduce((s, w) => s + w, 0);
  const parts = weights.map((w) => money(Math.round((total * w) / weightSum / unit) * unit));
  parts[count - 1] = money(total - parts.slice(0, -1).reduce((s, p) => s + p, 0));
  if (parts[count - 1]! > 0) return parts;
  const even = money(total / count);
  return [...Array.from({ length: count - 1 }, () => even), money(total - even * (count - 1))];
}

/**
 * The statement moved in time, whole days, so that its period ends on `end`: the period and the
 * streams' dates.
 */
export function shiftProfile(profile: StatementProfile, end: string): StatementProfile {
  const days = Math.round((Date.parse(end) - Date.parse(profile.period.to)) / DAY_MS);
  const shift = (date: string) => addDays(date, days);
  const moveStream = (s: RecurringStreamFixture) => ({
    ...s,
    last_date: shift(s.last_date),
    next_date: s.next_date === null ? null : shift(s.next_date),
  });
  return {
    ...profile,
    period: { from: shift(profile.period.from), to: end },
    recurring: {
      inflow_streams: profile.recurring.inflow_streams.map(moveStream),
      outflow_streams: profile.recurring.outflow_streams.map(moveStream),
    },
  };
}
