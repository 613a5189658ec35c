// The mock's dataset endpoints, in-process: every family's /latest and /series, the bounds, the
// snapshot, the errors, and the Data API quota that every answered call draws from.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATASETS } from '../../src/mock/data/datasets.js';
import { startMockServer, type MockServer } from '../../src/mock/server.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
});
afterAll(() => mock.close());

/** Keys of the two organisations: Himalaya (growth, 2500) and Sagarmatha (sandbox, 500). */
const keyOf = (organization: string) => mock.keys.find((k) => k.organization_name === organization && k.mode === 'test' && k.scope === 'READ_ONLY')!.key;

async function get(path: string, key = keyOf('Himalaya Microfinance')) {
  const reply = await fetch(`${mock.url}${path}`, { headers: { Authorization: `Bearer ${key}` } });
  return { status: reply.status, body: (await reply.json()) as any };
}

function expectEnvelope(body: any): void {
  expect(body.meta).toEqual({
    source: 'Nepal Rastra Bank',
    source_url: expect.stringMatching(/^https:\/\/www\.nrb\.org\.np\//),
    attribution: expect.stringContaining('Nepal Rastra Bank'),
    as_of: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
  });
}

describe.each(DATASETS.map((d) => [d.family, d] as const))('%s', (_family, d) => {
  it('serves /latest to a READ_ONLY key: every item of the last month', async () => {
    const { status, body } = await get(`/v1/data/cbank/${d.path}/latest`);
    expect(status).toBe(200);
    expectEnvelope(body);
    expect(body.data.period).toBe(d.last_month);
    expect(body.data.items.map((i: any) => i.key)).toEqual(d.items.map((i) => i.key));
    expect(body.data.items[0]).toEqual(expect.objectContaining({ key: d.items[0]!.key, label: d.items[0]!.label, section: d.items[0]!.section, value: d.items[0]!.values.at(-1) }));
  });

  it(`serves /series by ${d.selector_param}, from inclusive and to exclusive`, async () => {
    const key = d.items[1]!.key;
    const { status, body } = await get(`/v1/data/cbank/${d.path}/series?${d.selector_param}=${encodeURIComponent(key)}&from=2024-01&to=2024-04`);
    expect(status).toBe(200);
    expectEnvelope(body);
    expect(body.data.key).toBe(key);
    expect(body.data.points.map((p: any) => p.period)).toEqual(['2024-01', '2024-02', '2024-03']);
    const all = await get(`/v1/data/cbank/${d.path}/series?${d.selector_param}=${encodeURIComponent(key)}`);
    expect(all.body.data.points).toHaveLength(d.items[1]!.values.length);
    expect(all.body.data.points[0].period).toBe('2021-01');
  });
});

describe('errors', () => {
  it.each([
    ['/v1/data/cbank/cpi/series', 400, /'indicator' is required/],
    ['/v1/data/cbank/cpi/series?key=overall', 400, /'indicator' is required/],
    ['/v1/data/cbank/cpi/series?indicator=nope', 404, /No series 'nope'/],
    ['/v1/data/cbank/cpi/series?indicator=overall&from=2024-13', 400, /from must be a month/],
    ['/v1/data/cbank/cpi/series?indicator=overall&to=2024-1', 400, /to must be a month/],
    ['/v1/data/cbank/cpi/series?indicator=overall&from=2024-05&to=2024-05', 400, /must be before/],
    ['/v1/data/cbank/gold/latest', 404, /No dataset/],
    ['/v1/data/cbank/banking/snapshot?month=2019-01', 404, /No snapshot for 2019-01/],
    ['/v1/data/cbank/banking/snapshot?month=2019-1', 400, /month must be a month/],
  ])('%s → %d', async (path, status, message) => {
    const reply = await get(path);
    expect(reply.status).toBe(status);
    expect(reply.body.error_message).toMatch(message);
  });
});

it('serves the snapshot of a month, the latest by default', async () => {
  const june = await get('/v1/data/cbank/banking/snapshot?month=2024-06');
  expect(june.status).toBe(200);
  expect(june.body.data.period).toBe('2024-06');
  const latest = await get('/v1/data/cbank/banking/snapshot');
  expect(latest.body.data.period).toBe(DATASETS.find((d) => d.path === 'banking/indicators')!.last_month);
  expect(latest.body.data.items.map((i: any) => i.key)).toContain('npl-ratio');
});

it('draws every answered dataset call from the Data API quota and answers 429 when it is used up', async () => {
  const key = keyOf('Sagarmatha Lending');
  const used = async () => (await get('/v1/usage', key)).body.quotas.find((q: any) => q.name === 'data_api');
  const before = await used();
  expect(before.limit).toBe(500);
  await get('/v1/data/cbank/cpi/series?indicator=nope', key); // refused: not counted
  expect((await used()).used).toBe(before.used);
  for (let i = before.used; i < before.limit; i++) expect((await get('/v1/data/cbank/cpi/latest', key)).status).toBe(200);
  const refused = await get('/v1/data/cbank/macro/latest', key);
  expect(refused.status).toBe(429);
  expect(refused.body.error_code).toBe('QUOTA_EXCEEDED');
  expect((await used()).used).toBe(500);
  // The other organisation's quota is its own.
  expect((await get('/v1/data/cbank/cpi/latest')).status).toBe(200);
});
