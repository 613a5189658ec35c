// The mock's dataset endpoints, in-process: every family's /latest and /series, the per-bank
// profit and loss, the bounds, the snapshot, the errors, and the Data API quota that every
// answered call draws from. (The documented shapes are compared with the documents' samples in
// mock-documented.test.ts; the others are the mock's own, and differ on purpose.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { months } from '../../src/mock/data/datasets.js';
import { FAMILIES } from '../../src/mock/data/replies.js';
import { type MockServer, startMockServer } from '../../src/mock/server.js';
import { keyOf } from '../support/keys.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
});
afterAll(() => mock.close());

/** Keys of the two organisations: Himalaya (growth, 2500) and Sagarmatha (sandbox, 500). */

async function get(
  path: string,
  key = keyOf(mock, 'Himalaya Microfinance', { scope: 'READ_ONLY' }),
) {
  const reply = await fetch(`${mock.url}${path}`, { headers: { Authorization: `Bearer ${key}` } });
  return { status: reply.status, body: (await reply.json()) as any };
}

function expectEnvelope(body: any, table: RegExp): void {
  expect(Object.keys(body).sort()).toEqual(['data', 'meta']);
  expect(body.meta).toEqual({
    source: 'Nepal Rastra Bank',
    source_url: expect.stringMatching(/^https:\/\/www\.nrb\.org\.np\//),
    attribution: expect.stringMatching(
      /^Source: Nepal Rastra Bank — .+ \(.+\)\. Republished by svc with attribution\.$/,
    ),
    as_of: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
  });
  expect(body.meta.attribution).toMatch(table);
}

/**
 * Where each family's /latest lists its items, and the field naming each (its series selector's
 * value).
 */
const LATEST: Record<string, { list: string | null; field: string; table: RegExp }> = {
  'banking/balance-sheet': { list: 'line_items', field: 'key', table: /\(table C5\)/ },
  'banking/pnl': { list: 'line_items', field: 'key', table: /\(table C6\)/ },
  'banking/credit': { list: 'line_items', field: 'key', table: /\(table C8\)/ },
  'banking/indicators': { list: 'indicators', field: 'indicator', table: /\(table C4\)/ },
  cbs: { list: 'accounts', field: 'code', table: /Central Bank Survey/ },
  cpi: { list: 'indicators', field: 'indicator', table: /Consumer Price Index/ },
  'interest-rates': { list: null, field: 'metric', table: /Interest Rate/ },
  trade: { list: 'line_items', field: 'key', table: /Foreign Trade/ },
  macro: { list: 'indicators', field: 'indicator', table: /Macroeconomic/ },
};
/** The name of each family's list of monthly values in /series. */
const SERIES_LIST: Record<string, string> = {
  key: 'points',
  metric: 'points',
  indicator: 'observations',
};

describe.each(FAMILIES.map((f) => [f.dataset.path, f] as const))('%s', (path, family) => {
  const { dataset } = family;
  const layout = LATEST[path]!;
  const selectors = dataset.items.map(family.selector);

  it('serves /latest to a READ_ONLY key: every item of the last month', async () => {
    const { status, body } = await get(`/v1/data/cbank/${path}/latest`);
    expect(status).toBe(200);
    expectEnvelope(body, layout.table);
    const items = layout.list === null ? body.data : body.data[layout.list];
    if (layout.list !== null) expect(body.data.month).toBe(dataset.last_month);
    expect(items.map((i: any) => i[layout.field])).toEqual(selectors);
    expect(items[0]).toMatchObject({
      label: expect.stringContaining(dataset.items[0]!.label),
      value: dataset.items[0]!.values.at(-1),
    });
    expect(JSON.stringify(body.data)).not.toMatch(/"(period|items)":/);
  });

  it(`serves /series by ${dataset.selector_param}, from inclusive and to exclusive`, async () => {
    const selector = selectors[1]!;
    const list = SERIES_LIST[dataset.selector_param]!;
    const { status, body } = await get(
      `/v1/data/cbank/${path}/series?${dataset.selector_param}=${encodeURIComponent(selector)}&from=2024-01&to=2024-04`,
    );
    expect(status).toBe(200);
    expectEnvelope(body, layout.table);
    expect(body.data[dataset.selector_param]).toBe(selector);
    expect(body.data[list].map((p: any) => p.month)).toEqual(['2024-01', '2024-02', '2024-03']);
    const all = await get(
      `/v1/data/cbank/${path}/series?${dataset.selector_param}=${encodeURIComponent(selector)}`,
    );
    expect(all.body.data[list]).toHaveLength(months(dataset).length);
    expect(all.body.data[list][0]).toEqual({
      month: '2021-01',
      value: dataset.items[1]!.values[0],
    });
  });
});

describe('banks/pnl', () => {
  it('serves one bank, named in either case, as the documents show it', async () => {
    const upper = await get('/v1/data/cbank/banks/pnl/latest?bank=NIC_ASIA');
    expect(upper.status).toBe(200);
    expectEnvelope(upper.body, /\(sheet C9\)/);
    expect(upper.body.data.bank).toBe('nic_asia');
    expect(upper.body.data.line_items[0]).toMatchObject({
      key: 'nic_asia.income.interest-income',
      bank: 'NIC_ASIA',
      line_item: 'Interest income',
      unit: 'NPR_mn',
      code: '1',
    });
    expect((await get('/v1/data/cbank/banks/pnl/latest?bank=nic_asia')).body.data).toEqual(
      upper.body.data,
    );
  });

  it('serves every bank without a bank parameter', async () => {
    const { body } = await get('/v1/data/cbank/banks/pnl/latest');
    const banks = new Set(body.data.line_items.map((i: any) => i.bank));
    expect(banks.size).toBeGreaterThanOrEqual(9);
    expect(body.data).not.toHaveProperty('bank');
  });

  it('serves one line of one bank over time, the line with or without the bank prefix', async () => {
    const { status, body } = await get(
      '/v1/data/cbank/banks/pnl/series?bank=nabil&line=profit.net-profit&from=2025-01&to=2025-03',
    );
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      bank: 'nabil',
      line: 'profit.net-profit',
      key: 'nabil.profit.net-profit',
      unit: 'NPR_mn',
    });
    expect(body.data.points.map((p: any) => p.month)).toEqual(['2025-01', '2025-02']);
    const prefixed = await get(
      '/v1/data/cbank/banks/pnl/series?bank=NABIL&line=nabil.profit.net-profit&from=2025-01&to=2025-03',
    );
    expect(prefixed.body.data).toEqual(body.data);
  });

  it('keeps each bank a share of the consolidated figures', async () => {
    const total = (await get('/v1/data/cbank/banking/pnl/latest')).body.data.line_items[0].value;
    const banks = (await get('/v1/data/cbank/banks/pnl/latest')).body.data.line_items.filter(
      (i: any) => i.code === '1',
    );
    const sum = banks.reduce((s: number, i: any) => s + i.value, 0);
    expect(sum).toBeGreaterThan(0.3 * total);
    expect(sum).toBeLessThan(total);
  });
});

describe('errors', () => {
  it.each([
    ['/v1/data/cbank/cpi/series', 400, /'indicator' is required/],
    ['/v1/data/cbank/cpi/series?key=PCPI_IX', 400, /'indicator' is required/],
    ['/v1/data/cbank/cpi/series?indicator=overall', 404, /No series 'overall'/],
    ['/v1/data/cbank/cpi/series?indicator=PCPI_IX&from=2024-13', 400, /from must be a month/],
    ['/v1/data/cbank/cpi/series?indicator=PCPI_IX&to=2024-1', 400, /to must be a month/],
    ['/v1/data/cbank/cpi/series?indicator=PCPI_IX&from=2024-05&to=2024-05', 400, /must be before/],
    ['/v1/data/cbank/banking/pnl/series?key=net-profit', 404, /No series 'net-profit'/],
    ['/v1/data/cbank/gold/latest', 404, /No dataset/],
    ['/v1/data/cbank/banking/snapshot?month=2019-01', 404, /No snapshot for 2019-01/],
    ['/v1/data/cbank/banking/snapshot?month=2019-1', 400, /month must be a month/],
    ['/v1/data/cbank/banks/pnl/latest?bank=HBL', 404, /No bank 'HBL'/],
    ['/v1/data/cbank/banks/pnl/series?line=income.interest-income', 400, /'bank' is required/],
    ['/v1/data/cbank/banks/pnl/series?bank=NABIL', 400, /'line' is required/],
    ['/v1/data/cbank/banks/pnl/series?bank=NABIL&line=nope', 404, /No line 'nope'/],
  ])('%s → %d', async (path, status, message) => {
    const reply = await get(path);
    expect(reply.status).toBe(status);
    expect(reply.body.error_message).toMatch(message);
  });
});

it('serves the snapshot of a month, the latest by default', async () => {
  const june = await get('/v1/data/cbank/banking/snapshot?month=2024-06');
  expect(june.status).toBe(200);
  expect(june.body.data.month).toBe('2024-06');
  const indicators = FAMILIES.find((f) => f.dataset.path === 'banking/indicators')!.dataset;
  const latest = await get('/v1/data/cbank/banking/snapshot');
  expect(latest.body.data.month).toBe(indicators.last_month);
  expect(latest.body.data.indicators.map((i: any) => i.indicator)).toContain('npl-ratio');
});

it('draws every answered dataset call from the Data API quota and answers 429 when it is used up', async () => {
  const key = keyOf(mock, 'Sagarmatha Lending', { scope: 'READ_ONLY' });
  const dataApi = async () => (await get('/v1/usage', key)).body.data_api;
  const before = await dataApi();
  expect(before.quota).toBe(500);
  await get('/v1/data/cbank/cpi/series?indicator=nope', key); // refused: not counted
  expect((await dataApi()).used).toBe(before.used);
  for (let i = before.used; i < before.quota; i++)
    expect((await get('/v1/data/cbank/cpi/latest', key)).status).toBe(200);
  const refused = await get('/v1/data/cbank/macro/latest', key);
  expect(refused.status).toBe(429);
  expect(refused.body.error_code).toBe('QUOTA_EXCEEDED');
  expect(await dataApi()).toEqual({ quota: 500, used: 500, remaining: 0 });
  // The other organisation's quota is its own.
  expect((await get('/v1/data/cbank/cpi/latest')).status).toBe(200);
});
