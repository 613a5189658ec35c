// The central bank's datasets under /v1/data/cbank/: `/latest` and `/series` of every family, and
// the monthly snapshot of the C4 banking indicators. Every reply is the dataset envelope
// ({data, meta}) and every answered call draws one unit of the organisation's Data API quota.
import { datasetByPath, DATASETS, latestReply, months, seriesReply, SNAPSHOT_DATASET, type DatasetFixture } from '../data/datasets.js';
import { ApiError } from '../errors.js';
import type { Reply } from '../http.js';
import { invalid, type Call, type Route } from '../route.js';

export const dataRoutes: Route[] = [
  { method: 'GET', pattern: /^\/v1\/data\/cbank\/banking\/snapshot$/, handle: snapshot },
  { method: 'GET', pattern: /^\/v1\/data\/cbank\/(.+)\/latest$/, handle: latest },
  { method: 'GET', pattern: /^\/v1\/data\/cbank\/(.+)\/series$/, handle: series },
];

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

function dataset(path: string): DatasetFixture {
  const found = datasetByPath(path);
  if (!found) {
    const known = DATASETS.map((d) => d.path).join(', ');
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

function ok(call: Call, body: unknown): Reply {
  call.store.charge(call.key.organization_id, 'data_api');
  return { status: 200, body };
}

function latest(call: Call): Reply {
  return ok(call, latestReply(dataset(call.params[0]!)));
}

function series(call: Call): Reply {
  const found = dataset(call.params[0]!);
  const param = found.selector_param;
  const selector = call.request.url.searchParams.get(param);
  if (selector === null || selector === '') {
    throw invalid(`'${param}' is required: the ${param} of one line item of /v1/data/cbank/${found.path}/latest.`);
  }
  const from = monthParam(call, 'from');
  const to = monthParam(call, 'to');
  if (from !== null && to !== null && from >= to) throw invalid(`from (${from}) must be before to (${to}); to is exclusive.`);
  const item = found.items.find((i) => i.key === selector);
  if (!item) {
    throw new ApiError('NOT_FOUND', `No series '${selector}' in ${found.path}; the valid values of ${param} are the keys of /v1/data/cbank/${found.path}/latest.`);
  }
  return ok(call, seriesReply(found, item, from, to));
}

function snapshot(call: Call): Reply {
  const found = dataset(SNAPSHOT_DATASET);
  const month = monthParam(call, 'month') ?? found.last_month;
  if (!months(found).includes(month)) {
    throw new ApiError('NOT_FOUND', `No snapshot for ${month}; the indicators run from ${found.first_month} to ${found.last_month}.`);
  }
  return ok(call, latestReply(found, month));
}
