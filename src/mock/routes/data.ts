// The central bank's datasets under /v1/data/cbank/: `/latest` and `/series` of every family, the
// per-bank profit and loss (banks/pnl), and the monthly snapshot of the C4 banking indicators.
// Every reply is the dataset envelope ({data, meta}) and every answered call draws one unit of the
// organisation's Data API quota.
import {
  BANK_CODES,
  BANK_PNL_TABLE,
  bankCodeOf,
  bankPnlLatest,
  bankPnlSeries,
  consolidatedPnl,
  lineOf,
} from '../data/bank-pnl.js';
import { months } from '../data/datasets.js';
import {
  FAMILIES,
  type Family,
  familyByPath,
  meta,
  points,
  SNAPSHOT_FAMILY,
} from '../data/replies.js';
import { ApiError } from '../errors.js';
import type { Reply } from '../http.js';
import { type Call, invalid, type Route } from '../route.js';

export const dataRoutes: Route[] = [
  { method: 'GET', pattern: /^\/v1\/data\/cbank\/banking\/snapshot$/, handle: snapshot },
  { method: 'GET', pattern: /^\/v1\/data\/cbank\/banks\/pnl\/latest$/, handle: bankLatest },
  { method: 'GET', pattern: /^\/v1\/data\/cbank\/banks\/pnl\/series$/, handle: bankSeries },
  { method: 'GET', pattern: /^\/v1\/data\/cbank\/(.+)\/latest$/, handle: latest },
  { method: 'GET', pattern: /^\/v1\/data\/cbank\/(.+)\/series$/, handle: series },
];

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

function family(path: string): Family {
  const found = familyByPath(path);
  if (!found) {
    const known = [...FAMILIES.map((f) => f.dataset.path), 'banks/pnl'].join(', ');
    throw new ApiError('NOT_FOUND', `No dataset at /v1/data/cbank/${path}; datasets: ${known}.`);
  }
  return found;
}

/** A month query parameter: absent (null) or YYYY-MM, else 400. */
function monthParam(call: Call, name: string): string | null {
  const value = call.request.url.searchParams.get(name);
  if (value === null) return null;
  if (!MONTH.test(value)) throw invalid(`${name} must be a month written YYYY-MM, got '${value}'.`);
  return value;
}

/** The series bounds: `from` included, `to` excluded. */
function bounds(call: Call): [string | null, string | null] {
  const from = monthParam(call, 'from');
  const to = monthParam(call, 'to');
  if (from !== null && to !== null && from >= to)
    throw invalid(`from (${from}) must be before to (${to}); to is exclusive.`);
  return [from, to];
}

function required(call: Call, name: string, what: string): string {
  const value = call.request.url.searchParams.get(name);
  if (value === null || value === '') throw invalid(`'${name}' is required: ${what}.`);
  return value;
}

/** Counts the call against the Data API quota (answered calls only) and wraps the data. */
function ok(
  call: Call,
  data: unknown,
  { dataset, publication, table }: Pick<Family, 'dataset' | 'publication' | 'table'>,
): Reply {
  call.store.charge(call.key.organization_id, 'data_api');
  return { status: 200, body: { data, meta: meta(dataset, publication, table) } };
}

function latest(call: Call): Reply {
  const found = family(call.params[0]!);
  return ok(call, found.latest(found.dataset.last_month), found);
}

function series(call: Call): Reply {
  const found = family(call.params[0]!);
  const { path, selector_param: param } = found.dataset;
  const selector = required(
    call,
    param,
    `the ${param} of one item of /v1/data/cbank/${path}/latest`,
  );
  const [from, to] = bounds(call);
  const item = found.dataset.items.find((i) => found.selector(i) === selector);
  if (!item) {
    throw new ApiError(
      'NOT_FOUND',
      `No series '${selector}' in ${path}; the valid values of ${param} are those of /v1/data/cbank/${path}/latest.`,
    );
  }
  return ok(call, found.series(item, points(found.dataset, item, from, to)), found);
}

function snapshot(call: Call): Reply {
  const found = family(SNAPSHOT_FAMILY);
  const month = monthParam(call, 'month') ?? found.dataset.last_month;
  if (!months(found.dataset).includes(month)) {
    throw new ApiError(
      'NOT_FOUND',
      `No snapshot for ${month}; the indicators run from ${found.dataset.first_month} to ${found.dataset.last_month}.`,
    );
  }
  return ok(call, found.latest(month), found);
}

const bankTable = { ...consolidatedPnl, table: BANK_PNL_TABLE };

/** A `bank` parameter: a served bank code in either case, else 404. */
function bankParam(text: string): string {
  const bank = bankCodeOf(text);
  if (!bank)
    throw new ApiError(
      'NOT_FOUND',
      `No bank '${text}' in banks/pnl; the banks are ${BANK_CODES.join(', ')}.`,
    );
  return bank;
}

function bankLatest(call: Call): Reply {
  const text = call.request.url.searchParams.get('bank');
  return ok(call, bankPnlLatest(text === null || text === '' ? null : bankParam(text)), bankTable);
}

function bankSeries(call: Call): Reply {
  const bank = bankParam(required(call, 'bank', 'a bank code such as NABIL'));
  const lineText = required(call, 'line', 'the line item key, e.g. income.interest-income');
  const [from, to] = bounds(call);
  const item = lineOf(bank, lineText);
  if (!item)
    throw new ApiError(
      'NOT_FOUND',
      `No line '${lineText}' in banks/pnl; the lines are the keys of /v1/data/cbank/banks/pnl/latest.`,
    );
  return ok(call, bankPnlSeries(bank, item, from, to), bankTable);
}
