// The mock's HTTP behaviour: keys, reports and their views, parse, statements, usage, routing,
// idempotency keys, faults and the request log. The documented reply shapes themselves are checked
// against the documents' samples in mock-documented.test.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { fixtures } from '../../src/mock/fixtures.js';
import { type MockKey, mockKeys, type MockServer, startMockServer } from '../../src/mock/server.js';
import { expectError } from '../support/errors.js';
import { findKey } from '../support/keys.js';
import { mockAdmin } from '../support/mock-admin.js';

// Fixture ids (see src/mock/fixtures/README.md).
const ORG_A = 'org_4d2a9f61c8e3b705';
const ORG_B = 'org_b81e07c39a5f2d64';
const RAM = 'rpt_e8699f830adc84b8'; // A, complete, Ram Bahadur Shrestha, NABIL
const ANITA_GARIMA = 'rpt_cf64fb98339608ee'; // A, complete, development bank without SWIFT
const NO_NAME = 'rpt_b0b9312a63cd30df'; // A, complete, account_holder null
const PROCESSING = 'rpt_5f037950f28b8944'; // A, processing
const FAILED = 'rpt_83bf1b6bfc2499c2'; // A, failed DOCUMENT_PARSE_FAILED
const TAMPERED = 'rpt_ee5ae9b58dd7dad7'; // A, failed TAMPER_DETECTED
const HARI_B = 'rpt_4f932909d44290ba'; // B, complete

const PROCESSING_DELAY_MS = 150;
const TINY_PDF =
  '%PDF-1.4\n1 0 obj << /Type /Page >> endobj\nBT (Account Holder: Sita Kumari Thapa) Tj ET\n%%EOF\n';

let mock: MockServer;
const logLines: string[] = [];

beforeAll(async () => {
  mock = await startMockServer({
    port: 0,
    processingDelayMs: PROCESSING_DELAY_MS,
    requestLog: { bodies: true },
    log: (line) => logLines.push(line),
  });
});
afterAll(async () => {
  await mock.close();
});
beforeEach(async () => {
  await call('/_mock/faults', { method: 'DELETE' });
});

interface CallOptions {
  method?: string;
  key?: MockKey | string | null;
  json?: unknown;
  body?: RequestInit['body'];
  headers?: Record<string, string>;
}

/** One request with a key of organisation A (test, FULL) unless told otherwise. */
async function call(path: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? findKey(mock, ORG_A) : options.key;
  if (key !== null) headers.authorization = `Bearer ${typeof key === 'string' ? key : key.key}`;
  let body = options.body;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const reply = await fetch(`${mock.url}${path}`, {
    method: options.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
  });
  const text = await reply.text();
  const isJson = reply.headers.get('content-type')?.startsWith('application/json');
  return {
    status: reply.status,
    headers: reply.headers,
    url: reply.url,
    text,
    body: isJson ? JSON.parse(text) : undefined,
  };
}

function upload(
  file: Buffer | string,
  fields: Record<string, string> = {},
  fileName = 'statement.pdf',
): FormData {
  const form = new FormData();
  form.append(
    'file',
    new Blob([typeof file === 'string' ? Buffer.from(file, 'latin1') : file]),
    fileName,
  );
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

describe('keys', () => {
  it('issues live+test × FULL+READ_ONLY keys for two organisations, all distinct', () => {
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(mock.keys).toHaveLength(8);
    expect(new Set(mock.keys.map((k) => k.key)).size).toBe(8);
    for (const k of mock.keys) {
      expect(k.key).toMatch(new RegExp(`^svc_sk_${k.mode}_[0-9a-f]{32}$`));
      expect(Object.keys(k).sort()).toEqual([
        'key',
        'mode',
        'organization_id',
        'organization_name',
        'scope',
      ]);
    }
    expect(new Set(mock.keys.map((k) => k.organization_name))).toEqual(
      new Set(['Himalaya Microfinance', 'Sagarmatha Lending']),
    );
  });

  it('refuses a missing, unknown or malformed key with 401 INVALID_API_KEY', async () => {
    expectError(
      await call('/v1/reports', { key: null }),
      401,
      'INVALID_API_KEY',
      'AUTHENTICATION_ERROR',
    );
    expectError(
      await call('/v1/reports', { key: 'svc_sk_test_00000000000000000000000000000000' }),
      401,
      'INVALID_API_KEY',
    );
    const raw = await fetch(`${mock.url}/v1/usage`, {
      headers: { authorization: findKey(mock, ORG_A).key },
    }); // no "Bearer"
    expect(raw.status).toBe(401);
  });

  it('starts a second server with different keys', async () => {
    const other = await startMockServer();
    try {
      expect(other.keys.some((k) => mock.keys.some((m) => m.key === k.key))).toBe(false);
      expect((await call('/v1/usage', { key: other.keys[0]! })).status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it("starts with the keys it is given (svc mock's kept ones), and takes no other", async () => {
    const given = mockKeys().keys;
    const other = await startMockServer({ keys: given });
    try {
      expect(other.keys).toEqual(given);
      const status = async (key: string) =>
        (await fetch(`${other.url}/v1/usage`, { headers: { authorization: `Bearer ${key}` } }))
          .status;
      expect(await Promise.all(given.map((k) => status(k.key)))).toEqual(given.map(() => 200));
      expect(await status(mock.keys[0]!.key)).toBe(401);
    } finally {
      await other.close();
    }
  });
});

describe('the keys svc mock keeps (mockKeys)', () => {
  it('takes every good key of a kept list and makes new ones for the rest, in one order', () => {
    const kept = mockKeys().keys;
    expect(kept).toHaveLength(8);
    expect(mockKeys(kept)).toEqual({ keys: kept, made: 0, dropped: 0, changed: false });
    // Each damaged entry is remade in its place; the others are kept.
    const damaged = [
      null,
      'key',
      { ...kept[1], key: 'svc_sk_live_short' },
      { ...kept[2], mode: 'live' },
      ...kept.slice(4),
      { ...kept[3], organization_id: 'org_gone' },
    ];
    const mended = mockKeys(damaged);
    expect(mended).toMatchObject({ made: 4, dropped: 1, changed: true });
    expect(mended.keys.slice(4)).toEqual(kept.slice(4));
    for (const [i, key] of mended.keys.slice(0, 4).entries()) {
      expect(key).toMatchObject({
        ...kept[i],
        key: expect.stringMatching(new RegExp(`^svc_sk_${kept[i]!.mode}_[0-9a-f]{32}$`)),
      });
      expect(key.key).not.toBe(kept[i]!.key);
    }
    expect(mockKeys([...kept].reverse())).toMatchObject({ keys: kept, made: 0, changed: true });
  });
});

describe('reports', () => {
  it('lists the organisation reports newest first, 20 by default', async () => {
    const reply = await call('/v1/reports');
    expect(reply.status).toBe(200);
    const ids = reply.body.data.map((r: { report_id: string }) => r.report_id);
    const orgA = fixtures.reports
      .filter((r) => r.organization_id === ORG_A)
      .map((r) => r.report_id);
    expect(
      ids.every(
        (id: string) => orgA.includes(id) || !fixtures.reports.some((r) => r.report_id === id),
      ),
    ).toBe(true);
    expect(ids).not.toContain(HARI_B);
    const dates = reply.body.data.map((r: { created_at: string }) => r.created_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(Object.keys(reply.body.data[0]).sort()).toEqual([
      'bank_code',
      'created_at',
      'report_id',
      'status',
    ]);
  });

  it('honours limit and reports has_more', async () => {
    const reply = await call('/v1/reports?limit=3');
    expect(reply.body.data).toHaveLength(3);
    expect(reply.body.has_more).toBe(true);
    const all = await call('/v1/reports?limit=100');
    expect(all.body.has_more).toBe(false);
  });

  it.each(['complete', 'processing', 'failed'])('filters by status=%s', async (status) => {
    const reply = await call(`/v1/reports?status=${status}&limit=100`);
    expect(reply.body.data.length).toBeGreaterThanOrEqual(2);
    expect(reply.body.data.every((r: { status: string }) => r.status === status)).toBe(true);
  });

  it.each(['0', '101', 'abc', '1.5', '-1', ''])(
    'refuses limit=%j with 400 INVALID_REQUEST',
    async (limit) => {
      expectError(
        await call(`/v1/reports?limit=${limit}`),
        400,
        'INVALID_REQUEST',
        'INVALID_REQUEST_ERROR',
      );
    },
  );

  it('refuses an unknown status with 400', async () => {
    expectError(await call('/v1/reports?status=done'), 400, 'INVALID_REQUEST');
  });

  it('returns the full report, its statement read from the bank statement', async () => {
    const reply = await call(`/v1/reports/${RAM}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      report_id: RAM,
      status: 'complete',
      created_at: '2026-01-19T06:44:00Z',
      statement: {
        bank: 'Nabil Bank',
        bank_code: 'NABIL',
        currency: 'NPR',
        period: { from: '2025-07-16', to: '2026-01-15' },
        total_transactions: 74,
      },
    });
    const { statement, transactions } = reply.body;
    expect(transactions).toHaveLength(74);
    expect(transactions.at(-1).balance).toBe(statement.closing_balance);
    // The balance runs from the opening balance through every transaction.
    let balance = statement.opening_balance;
    for (const t of transactions) {
      balance = Math.round((balance + (t.credit ?? 0) - (t.debit ?? 0)) * 100) / 100;
      expect(t.balance).toBe(balance);
    }
  });

  it('answers a processing report and a failed one with the list fields, the failure with its error', async () => {
    const processing = await call(`/v1/reports/${PROCESSING}`);
    expect(processing.body).toEqual({
      report_id: PROCESSING,
      status: 'processing',
      bank_code: 'KUMARI',
      created_at: '2026-11-19T11:09:05Z',
    });
    const tampered = await call(`/v1/reports/${TAMPERED}`);
    expect(Object.keys(tampered.body).sort()).toEqual([
      'bank_code',
      'created_at',
      'error',
      'report_id',
      'status',
    ]);
    expect(tampered.body.error).toMatchObject({
      error_code: 'TAMPER_DETECTED',
      error_message: expect.any(String),
    });
  });

  it("hides another organisation's report and unknown ids as 404 REPORT_NOT_FOUND", async () => {
    expectError(await call(`/v1/reports/${HARI_B}`), 404, 'REPORT_NOT_FOUND', 'NOT_FOUND_ERROR');
    expectError(await call('/v1/reports/rpt_0000000000000000'), 404, 'REPORT_NOT_FOUND');
    expectError(await call(`/v1/reports/${HARI_B}/auth`), 404, 'REPORT_NOT_FOUND');
    expect(
      (
        await call(`/v1/reports/${HARI_B}`, {
          key: findKey(mock, ORG_B, { mode: 'live', scope: 'READ_ONLY' }),
        })
      ).status,
    ).toBe(200);
  });
});

describe('product views', () => {
  const completeFixtures = fixtures.reports.filter((r) => r.status === 'complete');

  it.each(completeFixtures.map((r) => [r.report_id, r.organization_id] as const))(
    'serves every view of %s in the documented shape',
    async (id, org) => {
      const key = findKey(mock, org, { mode: 'live', scope: 'READ_ONLY' });
      for (const view of ['auth', 'counterparties', 'recurring']) {
        const reply = await call(`/v1/reports/${id}/${view}`, { key });
        expect(reply.status).toBe(200);
        expect(reply.body.report_id).toBe(id);
      }
      const identity = await call(`/v1/reports/${id}/identity`, { key });
      expect(identity.body.account_holder).toBe(
        fixtures.reports.find((r) => r.report_id === id)!.account_holder,
      );
      expect((await call(`/v1/reports/${id}`, { key })).status).toBe(200);
    },
  );

  it.each(completeFixtures.map((r) => [r.report_id, r.organization_id] as const))(
    'describes the transactions of %s in its counterparties view exactly as its fixture does',
    async (id, org) => {
      const { body } = await call(`/v1/reports/${id}/counterparties`, { key: findKey(mock, org) });
      const fixture = fixtures.counterparties[id]!;
      for (const flow of fixture.by_type) {
        const served = body.by_type.find((t: { type: string }) => t.type === flow.type);
        expect(served, flow.type).toMatchObject({
          inflow_count: flow.inflow_count,
          outflow_count: flow.outflow_count,
        });
        expect(served.inflow).toBeCloseTo(flow.inflow, 2);
        expect(served.outflow).toBeCloseTo(flow.outflow, 2);
      }
      expect(body.top_people).toEqual(fixture.top_people);
      expect(body.top_merchants).toEqual(fixture.top_merchants);
    },
  );

  it('has a transaction for the last occurrence of every recurring stream', async () => {
    const { body } = await call(`/v1/reports/${RAM}/recurring`);
    const { body: listed } = await call(`/v1/reports/${RAM}/transactions?limit=1000`);
    const full = (await call(`/v1/reports/${RAM}`)).body;
    for (const stream of [...body.inflow_streams, ...body.outflow_streams]) {
      const onLastDate = full.transactions.filter(
        (t: { date: string }) => t.date === stream.last_date,
      );
      expect(onLastDate.length, `${stream.counterparty} on ${stream.last_date}`).toBeGreaterThan(0);
    }
    expect(listed.count).toBe(74);
  });

  it('gives counterparties by all six types, with totals that add up', async () => {
    const { body } = await call(`/v1/reports/${RAM}/counterparties`);
    expect(body.by_type.map((t: { type: string }) => t.type).sort()).toEqual([
      'cash',
      'individual',
      'institution',
      'merchant',
      'self',
      'wallet',
    ]);
    const sum = body.by_type.reduce((total: number, t: { inflow: number }) => total + t.inflow, 0);
    expect(sum).toBeCloseTo(body.total_inflow, 2);
    expect(body.currency).toBe('NPR');
  });

  it('explains a missing SWIFT/BIC for a development bank', async () => {
    const { body } = await call(`/v1/reports/${ANITA_GARIMA}/auth`);
    expect(body.swift_bic).toBeNull();
    expect(body.swift_note).toMatch(/Class-A/);
    const ram = await call(`/v1/reports/${RAM}/auth`);
    expect(ram.body).toMatchObject({
      swift_bic: 'NARBNPKA',
      swift_note: null,
      verification_status: 'connect_verified',
    });
  });

  it('answers 409 REPORT_NOT_READY while processing and 400 DOCUMENT_PARSE_FAILED when failed', async () => {
    for (const view of ['auth', 'identity', 'counterparties', 'recurring', 'transactions']) {
      expectError(
        await call(`/v1/reports/${PROCESSING}/${view}`),
        409,
        'REPORT_NOT_READY',
        'INVALID_REQUEST_ERROR',
      );
      expectError(await call(`/v1/reports/${FAILED}/${view}`), 400, 'DOCUMENT_PARSE_FAILED');
    }
  });
});

describe('name match', () => {
  const match = (id: string, json: unknown, key?: MockKey) =>
    call(`/v1/reports/${id}/identity/match`, { method: 'POST', json, ...(key && { key }) });

  it('compares the claimed name with the holder', async () => {
    const reply = await match(RAM, { name: 'Mr. Ram Bdr Shrestha' });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ result: 'match', statement_name: 'Ram Bahadur Shrestha' });
    expect(Object.keys(reply.body).sort()).toEqual([
      'match_score',
      'reasons',
      'result',
      'statement_name',
    ]);
    expect(reply.body.reasons).toContain("Honorific 'Mr' ignored");
    expect((await match(RAM, { name: 'Sita Kumari Thapa' })).body.result).toBe('no_match');
  });

  it('works with a READ_ONLY key', async () => {
    expect(
      (
        await match(
          RAM,
          { name: 'Ram Shrestha' },
          findKey(mock, ORG_A, { mode: 'live', scope: 'READ_ONLY' }),
        )
      ).status,
    ).toBe(200);
  });

  it('says no_data when the statement names nobody', async () => {
    const reply = await match(NO_NAME, { name: 'Ram Bahadur Shrestha' });
    expect(reply.body).toMatchObject({ match_score: 0, result: 'no_data', statement_name: null });
    expect(reply.body.reasons.length).toBeGreaterThan(0);
  });

  it.each([{}, { name: '' }, { name: '   ' }, { name: 42 }, null, ['Ram']])(
    'refuses the body %j with 400',
    async (json) => {
      expectError(await match(RAM, json), 400, 'INVALID_REQUEST');
    },
  );

  it('refuses a body that is not JSON', async () => {
    const reply = await call(`/v1/reports/${RAM}/identity/match`, {
      body: 'name=Ram',
      headers: { 'content-type': 'application/json' },
    });
    expectError(reply, 400, 'INVALID_REQUEST');
  });

  it('follows the report rules: 404, 409, 400', async () => {
    expectError(await match(HARI_B, { name: 'Hari' }), 404, 'REPORT_NOT_FOUND');
    expectError(await match(PROCESSING, { name: 'Hari' }), 409, 'REPORT_NOT_READY');
    expectError(await match(FAILED, { name: 'Hari' }), 400, 'DOCUMENT_PARSE_FAILED');
  });
});

describe('statements and usage', () => {
  it('lists issued statements of the organisation', async () => {
    const reply = await call('/v1/statements');
    const parsed = reply.body as {
      statements: { statement_id: string; content_hash: string; verify_url: string }[];
    };
    expect(parsed.statements.length).toBeGreaterThanOrEqual(3);
    for (const s of parsed.statements) {
      expect(s.content_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(s.verify_url).toBe(`${mock.url}/verify/${s.statement_id}`);
      expect(reply.body.statements[0]).not.toHaveProperty('organization_id');
    }
    const ofB = await call('/v1/statements', { key: findKey(mock, ORG_B) });
    const idsA = new Set(parsed.statements.map((s) => s.statement_id));
    expect(
      ofB.body.statements.some((s: { statement_id: string }) => idsA.has(s.statement_id)),
    ).toBe(false);
  });

  it('filters statements by status and refuses others', async () => {
    const revoked = await call('/v1/statements?status=revoked');
    expect(revoked.body.statements.length).toBeGreaterThan(0);
    expect(
      revoked.body.statements.every(
        (s: { status: string; revoked_at: string }) => s.status === 'revoked' && s.revoked_at,
      ),
    ).toBe(true);
    expectError(await call('/v1/statements?status=expired'), 400, 'INVALID_REQUEST');
  });

  it('serves the public verification page of a statement', async () => {
    const [first] = (await call('/v1/statements?status=issued')).body.statements;
    const page = await fetch(first.verify_url);
    expect(await page.json()).toMatchObject({
      statement_id: first.statement_id,
      valid: true,
      content_hash: first.content_hash,
    });
  });

  it('reports the parse quota of the key organisation this month, shared by its live and test keys', async () => {
    const { body } = await call('/v1/usage');
    expect(body).toMatchObject({
      plan: 'growth',
      quota: 1000,
      data_api: { quota: 2500 },
      merchant_resolve: { used: expect.any(Number) },
    });
    expect(body.remaining).toBe(body.quota - body.used);
    expect(body.period).toBe(new Date().toISOString().slice(0, 7));
    expect(Date.parse(body.resets_at)).toBeGreaterThan(Date.now());
    expect(body.resets_at).toMatch(/^\d{4}-\d{2}-01T00:00:00Z$/);
    const live = (
      await call('/v1/usage', { key: findKey(mock, ORG_B, { mode: 'live', scope: 'READ_ONLY' }) })
    ).body;
    expect(live).toMatchObject({ plan: 'sandbox', quota: 100, data_api: { quota: 500 } });
    expect((await call('/v1/usage', { key: findKey(mock, ORG_B) })).body.used).toBe(live.used);
  });
});

describe('parse', () => {
  const parseUsed = async (key: MockKey) => (await call('/v1/usage', { key })).body.used as number;
  const holderOf = async (id: string) =>
    (await call(`/v1/reports/${id}/identity`)).body.account_holder as string;

  it('parses synchronously into a complete report, counting the quota', async () => {
    const before = await parseUsed(findKey(mock, ORG_A));
    const reply = await call('/v1/parse', { body: upload(TINY_PDF, { bank: 'nabil' }, 'jan.pdf') });
    expect(reply.status).toBe(200);
    const parsed = reply.body;
    expect(parsed).toMatchObject({
      status: 'complete',
      statement: { bank: 'Nabil Bank', bank_code: 'NABIL' },
    });
    expect(parsed.report_id).toMatch(/^rpt_[0-9a-f]{16}$/);
    expect(await holderOf(parsed.report_id)).toBe('Sita Kumari Thapa');
    expect(await parseUsed(findKey(mock, ORG_A))).toBe(before + 1);
    // The statement ends five days before the upload.
    const fiveDaysAgo = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10);
    expect(parsed.statement.period.to).toBe(fiveDaysAgo);

    // The new report behaves like any other: listed first, views readable, matchable.
    expect((await call('/v1/reports?limit=1')).body.data[0].report_id).toBe(parsed.report_id);
    expect((await call(`/v1/reports/${parsed.report_id}/recurring`)).status).toBe(200);
    const nameReply = await call(`/v1/reports/${parsed.report_id}/identity/match`, {
      json: { name: 'Sita Kumary Thapa' },
    });
    expect(nameReply.body.result).toBe('match');
    expectError(
      await call(`/v1/reports/${parsed.report_id}`, { key: findKey(mock, ORG_B) }),
      404,
      'REPORT_NOT_FOUND',
    );
  });

  it('gives the same file the same holder and bank when it names none', async () => {
    const file = '%PDF-1.7\nno names here\n%%EOF';
    const a = await call('/v1/parse', { body: upload(file) });
    const b = await call('/v1/parse', { body: upload(file) });
    expect(await holderOf(a.body.report_id)).toBeTruthy();
    expect([await holderOf(a.body.report_id), a.body.statement.bank_code]).toEqual([
      await holderOf(b.body.report_id),
      b.body.statement.bank_code,
    ]);
    expect(a.body.transactions).toEqual(b.body.transactions);
    expect(a.body.report_id).not.toBe(b.body.report_id);
  });

  it('accepts PNG and JPEG by their magic bytes, binary-safe', async () => {
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from('\r\n--\0\r\n\r\n\xff', 'latin1'),
    ]);
    expect((await call('/v1/parse', { body: upload(png, {}, 'scan.png') })).status).toBe(200);
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);
    expect((await call('/v1/parse', { body: upload(jpeg, {}, 'scan.jpg') })).status).toBe(200);
  });

  it('answers async parses with 202 processing, then completes', async () => {
    const reply = await call('/v1/parse', {
      body: upload(TINY_PDF, { async: 'true', bank: 'SIDDHARTHA' }),
    });
    expect(reply.status).toBe(202);
    const id = reply.body.report_id;
    expect(reply.body).toEqual({
      report_id: id,
      status: 'processing',
      poll_url: `/v1/reports/${id}`,
    });
    expect((await call(`/v1/reports/${id}`)).body).toMatchObject({
      status: 'processing',
      bank_code: 'SIDDHARTHA',
    });
    expectError(await call(`/v1/reports/${id}/identity`), 409, 'REPORT_NOT_READY');
    await new Promise((resolve) => setTimeout(resolve, PROCESSING_DELAY_MS + 100));
    const done = (await call(reply.body.poll_url)).body;
    expect(done).toMatchObject({
      report_id: id,
      status: 'complete',
      statement: { bank_code: 'SIDDHARTHA' },
    });
    expect(await holderOf(id)).toBe('Sita Kumari Thapa');
  });

  it('fails a file carrying SVC-MOCK-FAIL: 400 when sync, a failed report when async', async () => {
    const bad = '%PDF-1.4\nSVC-MOCK-FAIL\n%%EOF';
    expectError(
      await call('/v1/parse', { body: upload(bad) }),
      400,
      'DOCUMENT_PARSE_FAILED',
      'INVALID_REQUEST_ERROR',
    );
    const reply = await call('/v1/parse', { body: upload(bad, { async: 'true' }) });
    expect(reply.status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, PROCESSING_DELAY_MS + 100));
    const failed = (await call(`/v1/reports/${reply.body.report_id}`)).body;
    expect(failed).toMatchObject({
      status: 'failed',
      error: { error_code: 'DOCUMENT_PARSE_FAILED' },
    });
    expectError(await call(`/v1/reports/${failed.report_id}/auth`), 400, 'DOCUMENT_PARSE_FAILED');
  });

  it('reports tampering for a file carrying SVC-MOCK-TAMPER', async () => {
    expectError(
      await call('/v1/parse', { body: upload('%PDF-1.4 SVC-MOCK-TAMPER') }),
      400,
      'TAMPER_DETECTED',
    );
  });

  it('needs a FULL key: READ_ONLY gets 403 INSUFFICIENT_SCOPE', async () => {
    const reply = await call('/v1/parse', {
      body: upload(TINY_PDF),
      key: findKey(mock, ORG_A, { mode: 'live', scope: 'READ_ONLY' }),
    });
    expectError(reply, 403, 'INSUFFICIENT_SCOPE', 'PERMISSION_ERROR');
  });

  it('refuses bad uploads without charging the quota', async () => {
    const before = await parseUsed(findKey(mock, ORG_A));
    const noFile = new FormData();
    noFile.append('bank', 'auto');
    expectError(await call('/v1/parse', { body: noFile }), 400, 'INVALID_REQUEST');
    expectError(await call('/v1/parse', { json: { file: 'x' } }), 400, 'INVALID_REQUEST');
    expectError(
      await call('/v1/parse', { body: upload('hello, not a pdf', {}, 'x.txt') }),
      400,
      'UNSUPPORTED_FILE_TYPE',
    );
    expectError(
      await call('/v1/parse', { body: upload(TINY_PDF, { bank: 'NOPE' }) }),
      400,
      'INVALID_REQUEST',
    );
    expectError(
      await call('/v1/parse', { body: upload(TINY_PDF, { async: 'maybe' }) }),
      400,
      'INVALID_REQUEST',
    );
    const malformed = await call('/v1/parse', {
      body: '--xyz\r\nno headers end',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
    });
    expectError(malformed, 400, 'INVALID_REQUEST');
    expect(await parseUsed(findKey(mock, ORG_A))).toBe(before);
  });

  it('refuses a file over 20 MB with 413 FILE_TOO_LARGE', async () => {
    const big = Buffer.alloc(20 * 1024 * 1024 + 1, 0x20);
    big.write('%PDF-1.4', 0, 'latin1');
    expectError(
      await call('/v1/parse', { body: upload(big) }),
      413,
      'FILE_TOO_LARGE',
      'INVALID_REQUEST_ERROR',
    );
  });
});

describe('transactions of a report', () => {
  const list = (query: string) => call(`/v1/reports/${RAM}/transactions${query}`);

  it('lists every transaction, 500 at most by default, with the documented filters combined', async () => {
    const all = (await list('')).body;
    expect(all.count).toBe(74);
    expect(all.transactions.map((t: { id: string }) => t.id)).toEqual(
      Array.from({ length: 74 }, (_, i) => `txn_${String(i + 1).padStart(4, '0')}`),
    );
    const salaries = (await list('?category=salary&direction=credit')).body.transactions;
    expect(salaries).toHaveLength(6);
    expect(
      salaries.every(
        (t: { credit: number; debit: null }) => t.credit === 125000 && t.debit === null,
      ),
    ).toBe(true);
    const autumn = (await list('?since=2025-10-01&until=2025-10-31&direction=debit')).body
      .transactions;
    expect(autumn.length).toBeGreaterThan(0);
    expect(
      autumn.every(
        (t: { date: string; credit: null }) =>
          t.date >= '2025-10-01' && t.date <= '2025-10-31' && t.credit === null,
      ),
    ).toBe(true);
    expect((await list('?limit=3')).body.count).toBe(3);
  });

  it('filters by the merchant category of the directory', async () => {
    const groceries = (await list('?merchant_category=groceries')).body;
    const full = (await call(`/v1/reports/${RAM}`)).body;
    expect(groceries.count).toBe(full.merchant_categories.groceries.count);
    expect(
      groceries.transactions.every((t: { category: string }) => t.category === 'merchant_payment'),
    ).toBe(true);
  });

  it('reads the QR terminal of a merchant payment as the merchant directory does', async () => {
    const payment = (await call(`/v1/reports/${RAM}`)).body.transactions.find(
      (t: { merchantTerminal: string | null }) => t.merchantTerminal,
    );
    expect(payment.description).toBe(
      `MPAY ${payment.merchantTerminal},${payment.description.split(',')[1]},MOB`,
    );
    const resolved = await call('/v1/merchants/resolve', {
      json: { terminals: [payment.merchantTerminal] },
    });
    expect(resolved.body.data.results[0]).toMatchObject({
      matched: true,
      merchant: payment.merchant,
      mcc: payment.mcc,
      category: payment.merchantCategory,
    });
  });

  it.each([
    '?category=food',
    '?direction=out',
    '?since=2025-13-01',
    '?until=yesterday',
    '?limit=0',
    '?limit=1001',
  ])('refuses %s with 400', async (query) => {
    expectError(await list(query), 400, 'INVALID_REQUEST');
  });
});

describe('idempotency keys', () => {
  const parseWith = (
    idempotencyKey: string,
    fields: Record<string, string> = {},
    key: MockKey = findKey(mock, ORG_B),
  ) =>
    call('/v1/parse', {
      body: upload(TINY_PDF, fields),
      key,
      headers: { 'idempotency-key': idempotencyKey },
    });
  const used = async () =>
    (await call('/v1/usage', { key: findKey(mock, ORG_B) })).body.used as number;
  const unique = () => `key-${crypto.randomUUID()}`;

  it('replays the first reply for the same key and parameters, marked, and creates and charges nothing more', async () => {
    const idempotencyKey = unique();
    const before = await used();
    const first = await parseWith(idempotencyKey, { bank: 'NABIL' });
    const again = await parseWith(idempotencyKey, { bank: 'NABIL' });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect([again.status, again.body]).toEqual([first.status, first.body]);
    expect(await used()).toBe(before + 1);
    const listed = (
      await call('/v1/reports?limit=100', { key: findKey(mock, ORG_B) })
    ).body.data.filter((r: { report_id: string }) => r.report_id === first.body.report_id);
    expect(listed).toHaveLength(1);
  });

  it('keeps client errors too, and refuses the key with other parameters (422)', async () => {
    const idempotencyKey = unique();
    const refused = await parseWith(idempotencyKey, { bank: 'NOPE' });
    expectError(refused, 400, 'INVALID_REQUEST');
    const replayed = await parseWith(idempotencyKey, { bank: 'NOPE' });
    expect([replayed.status, replayed.body, replayed.headers.get('idempotent-replayed')]).toEqual([
      400,
      refused.body,
      'true',
    ]);
    expectError(
      await parseWith(idempotencyKey, { bank: 'NABIL' }),
      422,
      'IDEMPOTENCY_KEY_REUSED',
      'IDEMPOTENCY_ERROR',
    );
  });

  it('answers 409 while the first request with the key is in flight', async () => {
    const idempotencyKey = unique();
    await call('/_mock/faults', { json: { path: '/v1/parse', delay_ms: 300 } });
    const first = parseWith(idempotencyKey);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expectError(await parseWith(idempotencyKey), 409, 'IDEMPOTENCY_IN_PROGRESS');
    expect((await first).status).toBe(200);
  });

  it('keeps nothing of a request a fault answered: the retry with the key runs', async () => {
    const idempotencyKey = unique();
    await call('/_mock/faults', {
      json: {
        path: '/v1/parse',
        status: 503,
        error: {
          error_code: 'SERVICE_UNAVAILABLE',
          error_type: 'API_ERROR',
          error_message: 'Down.',
        },
      },
    });
    expect((await parseWith(idempotencyKey)).status).toBe(503);
    const retried = await parseWith(idempotencyKey);
    expect([retried.status, retried.headers.get('idempotent-replayed')]).toEqual([200, null]);
  });

  it('scopes keys per organisation and environment, and ignores them on GET', async () => {
    const idempotencyKey = unique();
    const test = await parseWith(idempotencyKey, {}, findKey(mock, ORG_B, { mode: 'test' }));
    const live = await parseWith(idempotencyKey, {}, findKey(mock, ORG_B, { mode: 'live' }));
    const otherOrg = await parseWith(idempotencyKey, {}, findKey(mock, ORG_A, { mode: 'test' }));
    expect(new Set([test.body.report_id, live.body.report_id, otherOrg.body.report_id]).size).toBe(
      3,
    );
    expect(live.headers.get('idempotent-replayed')).toBeNull();
    const get = await call('/v1/usage', { headers: { 'idempotency-key': idempotencyKey } });
    expect([get.status, get.headers.get('idempotent-replayed')]).toEqual([200, null]);
  });

  it.each(['short', 'x'.repeat(256)])(
    'refuses a key of the wrong length (%#) with 400',
    async (idempotencyKey) => {
      expectError(await parseWith(idempotencyKey), 400, 'INVALID_REQUEST');
    },
  );
});

describe('connect', () => {
  it('serves the Connect page of a request at its connect_url, without a key', async () => {
    const { body } = await call('/v1/connect/request', {
      json: { scopes: ['identity'], redirect_uri: 'http://127.0.0.1:3000/done' },
    });
    const page = await call(new URL(body.connect_url).pathname + new URL(body.connect_url).search, {
      key: null,
    });
    expect(page.body).toMatchObject({
      request_token: body.request_token,
      organization_name: 'Himalaya Microfinance',
      scopes: ['identity'],
      status: 'pending',
    });
    expectError(await call('/connect?token=creq_unknown', { key: null }), 404, 'NOT_FOUND');
  });

  it.each([
    [{ scopes: ['identity'], redirect_uri: 'http://example.com/done' }],
    [{ scopes: ['identity'], redirect_uri: 'https://example.com/done#x' }],
    [{ scopes: ['everything'], redirect_uri: 'https://example.com/done' }],
    [{ scopes: [], redirect_uri: 'https://example.com/done' }],
    [{ scopes: ['income'] }],
  ])('refuses %j with 400', async (json) => {
    expectError(await call('/v1/connect/request', { json }), 400, 'INVALID_REQUEST');
  });
});

describe('routing', () => {
  it('answers an unknown path with 404 NOT_FOUND', async () => {
    expectError(await call('/v1/nothing-here'), 404, 'NOT_FOUND', 'NOT_FOUND_ERROR');
    expectError(await call('/elsewhere', { key: null }), 404, 'NOT_FOUND');
  });

  it('authenticates before routing', async () => {
    expectError(await call('/v1/nothing-here', { key: null }), 401, 'INVALID_API_KEY');
  });

  it('answers a wrong method with 405 METHOD_NOT_ALLOWED and Allow', async () => {
    const reply = await call('/v1/reports', { method: 'DELETE' });
    expectError(reply, 405, 'METHOD_NOT_ALLOWED');
    expect(reply.headers.get('allow')).toBe('GET');
    expect((await call('/v1/parse', { method: 'GET' })).headers.get('allow')).toBe('POST');
  });

  it('puts a request id on every reply', async () => {
    const reply = await call('/v1/usage');
    expect(reply.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
  });
});

describe('faults', () => {
  const addFaults = (specs: unknown) => call('/_mock/faults', { json: specs });

  it('answers the next matching request with the fault, then normally', async () => {
    await addFaults([
      {
        method: 'get',
        path: '/v1/usage',
        status: 503,
        json: { error_code: 'API_ERROR' },
        headers: { 'Retry-After': '1' },
      },
    ]);
    const faulted = await call('/v1/usage');
    expect(faulted.status).toBe(503);
    expect(faulted.body).toEqual({ error_code: 'API_ERROR' });
    expect(faulted.headers.get('retry-after')).toBe('1');
    expect((await call('/v1/usage')).status).toBe(200);
  });

  it('matches method and path prefix, and counts times', async () => {
    await addFaults({
      path: '/v1/reports',
      times: 2,
      status: 502,
      body: '<html>bad gateway</html>',
      headers: { 'content-type': 'text/html' },
    });
    expect((await call('/v1/usage')).status).toBe(200); // other path: untouched
    const first = await call(`/v1/reports/${RAM}`);
    expect([first.status, first.text, first.headers.get('content-type')]).toEqual([
      502,
      '<html>bad gateway</html>',
      'text/html',
    ]);
    expect((await call('/v1/reports')).status).toBe(502);
    expect((await call('/v1/reports')).status).toBe(200);
    await addFaults({ method: 'POST', status: 500 });
    expect((await call('/v1/reports')).status).toBe(200); // GET: untouched
    expect(
      (await call(`/v1/reports/${RAM}/identity/match`, { json: { name: 'Ram' } })).status,
    ).toBe(500);
  });

  it('delays, then answers normally when the fault has no reply of its own', async () => {
    await call('/_mock/requests', { method: 'DELETE' });
    await addFaults({ path: '/v1/usage', delay_ms: 60_000 });
    const caller = new AbortController();
    const held = fetch(`${mock.url}/v1/usage`, {
      headers: { authorization: `Bearer ${findKey(mock, ORG_A).key}` },
      signal: caller.signal,
    }).catch(() => 'gave up');
    // The request is logged when it arrives and stays unanswered while the delay runs.
    let logged: { path: string; status: number | null } | undefined;
    while (!logged)
      logged = (
        (await call('/_mock/requests')).body as { path: string; status: number | null }[]
      ).find((r) => r.path === '/v1/usage');
    expect(logged.status).toBeNull();
    caller.abort();
    expect(await held).toBe('gave up');
    await addFaults({ path: '/v1/usage', delay_ms: 1 });
    const reply = await call('/v1/usage');
    expect(reply.status).toBe(200);
    expect(reply.body.plan).toBe('growth');
  });

  it('resets the connection without a reply', async () => {
    await addFaults({ path: '/v1/usage', reset: true });
    await expect(call('/v1/usage')).rejects.toThrow();
    expect((await call('/v1/usage')).status).toBe(200);
  });

  it('lists and clears pending faults', async () => {
    await addFaults([{ path: '/v1/statements', status: 500, times: 3 }]);
    expect((await call('/_mock/faults')).body).toEqual([
      { path: '/v1/statements', status: 500, times: 3, remaining: 3 },
    ]);
    await call('/_mock/faults', { method: 'DELETE' });
    expect((await call('/_mock/faults')).body).toEqual([]);
    expect((await call('/v1/statements')).status).toBe(200);
  });

  it.each([
    [{ status: 'x' }],
    [{ times: 0 }],
    [{ path: 'v1' }],
    [{ wat: 1 }],
    ['nope'],
    [{ body: 'a', json: 1 }],
  ])('refuses the bad spec %j with 400', async (spec) => {
    const reply = await addFaults([spec]);
    expect(reply.status).toBe(400);
    expect(reply.body.error_code).toBe('INVALID_REQUEST');
  });
});

describe('request log', () => {
  it('records every service request with the key masked', async () => {
    await call('/_mock/requests', { method: 'DELETE' });
    const key = findKey(mock, ORG_A);
    await call('/v1/reports?limit=2&status=complete', {
      key,
      headers: { 'idempotency-key': 'abc' },
    });
    await call(`/v1/reports/${RAM}/identity/match`, { key, json: { name: 'Ram' } });
    await addFaultsAndHit();
    const log = (await call('/_mock/requests')).body;
    expect(log).toHaveLength(3);
    expect(log[0]).toMatchObject({
      method: 'GET',
      path: '/v1/reports',
      query: { limit: '2', status: 'complete' },
      body_bytes: 0,
      status: 200,
    });
    expect(log[0].headers.authorization).toBe(`Bearer svc_sk_test_…${key.key.slice(-4)}`);
    expect(log[0].headers['idempotency-key']).toBe('abc');
    expect(JSON.stringify(log)).not.toContain(key.key);
    expect(Date.parse(log[0].time)).toBeGreaterThan(0);
    expect(log[1]).toMatchObject({ method: 'POST', body_bytes: 14, body: '{"name":"Ram"}' });
    expect(log[2]).toMatchObject({ path: '/v1/usage', status: 418 }); // answered by a fault, still recorded

    await call('/_mock/requests', { method: 'DELETE' });
    expect((await call('/_mock/requests')).body).toEqual([]);
  });

  async function addFaultsAndHit() {
    await call('/_mock/faults', { json: { path: '/v1/usage', status: 418 } });
    await call('/v1/usage');
  }

  it('logs one line per request', () => {
    expect(logLines.some((line) => /^GET \/v1\/usage 200 \d+ms$/.test(line))).toBe(true);
    expect(logLines.some((line) => /^GET \/v1\/usage reset \d+ms$/.test(line))).toBe(true);
  });
});

describe('close', () => {
  it('stops at once even with an idle keep-alive connection and a pending delay', async () => {
    const server = await startMockServer({ processingDelayMs: 60_000 });
    const key = server.keys[0]!.key;
    await (
      await fetch(`${server.url}/v1/usage`, { headers: { authorization: `Bearer ${key}` } })
    ).text();
    await mockAdmin(server, '/_mock/faults', { json: { delay_ms: 60_000 } });
    const stuck = fetch(`${server.url}/v1/usage`, {
      headers: { authorization: `Bearer ${key}` },
    }).catch(() => 'closed');
    const form = upload(TINY_PDF, { async: 'true' });
    await fetch(`${server.url}/v1/parse`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${key}` },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // A close that waited for the 60 s delays would outlast the test's time limit.
    await server.close();
    expect(await stuck).toBe('closed');
    await server.close(); // twice is fine
  });
});
