// The mock's consents and Connect grants: creating, listing and revoking consents, reading their
// data with the token alone, the Connect flow from request to approval, exchange and grant data,
// with the rules of organisations, scopes, tokens and time. The documented shapes themselves are
// checked in mock-documented.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type MockServer, startMockServer } from '../../src/mock/server.js';
import { expectError } from '../support/errors.js';
import { keyOf } from '../support/keys.js';
import { mockAdminJson } from '../support/mock-admin.js';

const ORG_A = 'org_4d2a9f61c8e3b705';
const ORG_B = 'org_b81e07c39a5f2d64';
const RAM = 'rpt_e8699f830adc84b8'; // A, complete, verified through Connect
const SITA = 'rpt_bbe5e3700cd8d53b'; // A, complete
const PROCESSING = 'rpt_5f037950f28b8944'; // A
const HARI_B = 'rpt_4f932909d44290ba'; // B, complete
const DAY_MS = 86_400_000;

let mock: MockServer;
/** The mock's time: tests move it forward to see consents and tokens expire. */
let now = Date.parse('2026-05-14T09:30:00Z');
beforeAll(async () => {
  mock = await startMockServer({ clock: () => new Date(now), requestLog: { bodies: true } });
});
afterAll(() => mock.close());

interface CallOptions {
  method?: string;
  json?: unknown;
  /** null: no Authorization header. */
  key?: string | null;
  headers?: Record<string, string>;
}

async function call(path: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? keyOf(mock, ORG_A) : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const reply = await fetch(`${mock.url}${path}`, {
    method: options.method ?? (options.json === undefined ? 'GET' : 'POST'),
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
    redirect: 'manual',
  });
  return {
    status: reply.status,
    headers: reply.headers,
    url: reply.url,
    body: (await reply.json()) as any,
  };
}

/** The path and query of an absolute URL the mock gave. */
const local = (url: string) => new URL(url).pathname + new URL(url).search;

const createConsent = (json: unknown, key?: string) => call('/v1/consents', { json, key });
const readConsent = (id: string, token: string | undefined, key: string | null = null) =>
  call(
    `/v1/consents/${id}/data${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`,
    { key },
  );

describe('consents', () => {
  it('shares only the granted views, each as its own endpoint answers it, with the token alone', async () => {
    const created = await createConsent({
      report_id: RAM,
      scopes: ['liabilities', 'verify', 'transactions', 'liabilities'],
      expires_in_days: 7,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^cns_[0-9a-f]{16}$/),
      token: expect.stringMatching(/^cst_[0-9a-f]{32}$/),
      scopes: ['liabilities', 'verify', 'transactions'],
    });
    expect(created.body.expires_at).toBe(
      new Date(now + 7 * DAY_MS).toISOString().replace('.000', ''),
    );

    const data = await call(local(created.body.data_url), { key: null });
    expect(data.status).toBe(200);
    expect(Object.keys(data.body.data)).toEqual(['liabilities', 'verify', 'transactions']);
    expect(data.body.data.liabilities).toEqual((await call(`/v1/reports/${RAM}/liabilities`)).body);
    expect(data.body.data.verify).toEqual((await call(`/v1/reports/${RAM}/verify`)).body);
    expect(data.body.data.transactions).toEqual(
      (await call(`/v1/reports/${RAM}/transactions?limit=1000`)).body,
    );
  });

  it('ignores an API key sent with the data link, even an unknown one', async () => {
    const { body } = await createConsent({ report_id: RAM, scopes: ['identity'] });
    expect(
      (await readConsent(body.id, body.token, 'svc_sk_test_00000000000000000000000000000000'))
        .status,
    ).toBe(200);
    expect((await readConsent(body.id, body.token, keyOf(mock, ORG_B))).status).toBe(200);
  });

  it('refuses a wrong or missing token with 401, an unknown consent with 404', async () => {
    const { body } = await createConsent({ report_id: RAM, scopes: ['identity'] });
    // The token with its last character changed (to another character whatever it was).
    expectError(
      await readConsent(body.id, body.token.slice(0, -1) + (body.token.endsWith('0') ? '1' : '0')),
      401,
      'INVALID_CONSENT_TOKEN',
    );
    expectError(await readConsent(body.id, undefined), 401, 'INVALID_CONSENT_TOKEN');
    expectError(await readConsent(body.id, ''), 401, 'INVALID_CONSENT_TOKEN');
    expectError(await readConsent('cns_0000000000000000', body.token), 404, 'CONSENT_NOT_FOUND');
    // Another consent's token opens only its own.
    const other = await createConsent({ report_id: SITA, scopes: ['identity'] });
    expectError(await readConsent(body.id, other.body.token), 401, 'INVALID_CONSENT_TOKEN');
  });

  it('answers 403 consent_inactive once revoked (a wrong token still learns nothing)', async () => {
    const { body } = await createConsent({
      report_id: RAM,
      scopes: ['income'],
      grantee_label: 'Nabil Bank loan desk',
    });
    const revoked = await call(`/v1/consents/${body.id}/revoke`, { method: 'POST' });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({
      id: body.id,
      report_id: RAM,
      status: 'revoked',
      revoked_at: '2026-05-14T09:30:00Z',
      grantee_label: 'Nabil Bank loan desk',
    });
    expect(revoked.body).not.toHaveProperty('token');
    const refused = await readConsent(body.id, body.token);
    expectError(refused, 403, 'consent_inactive');
    expect(refused.body).toMatchObject({
      error_type: 'PERMISSION_ERROR',
      documentation_url: `${mock.url}/docs/concepts/errors#consent_inactive`,
    });
    expectError(await readConsent(body.id, 'cst_wrong'), 401, 'INVALID_CONSENT_TOKEN');
    // Revoking again changes nothing.
    expect((await call(`/v1/consents/${body.id}/revoke`, { json: {} })).body).toEqual(revoked.body);
  });

  it('expires after its days', async () => {
    const { body } = await createConsent({
      report_id: RAM,
      scopes: ['identity'],
      expires_in_days: 1,
    });
    const started = now;
    try {
      now += DAY_MS - 1000;
      expect((await readConsent(body.id, body.token)).status).toBe(200);
      now += 2000;
      expectError(await readConsent(body.id, body.token), 403, 'consent_inactive');
      const listed = (await call('/v1/consents')).body.data.find((c: any) => c.id === body.id);
      expect(listed.status).toBe('expired');
    } finally {
      now = started;
    }
  });

  it('lists the organisation’s own consents, newest first, without tokens, counting reads', async () => {
    const first = (await createConsent({ report_id: RAM, scopes: ['identity'] })).body;
    const second = (
      await createConsent({
        report_id: SITA,
        scopes: ['income', 'identity'],
        grantee_label: 'NIC Asia loan desk',
      })
    ).body;
    await readConsent(first.id, first.token);
    await readConsent(first.id, first.token);
    const { status, body } = await call('/v1/consents');
    expect(status).toBe(200);
    expect(body.data.slice(0, 2).map((c: any) => c.id)).toEqual([second.id, first.id]);
    expect(body.data[1]).toEqual({
      id: first.id,
      report_id: RAM,
      scopes: ['identity'],
      grantee_label: null,
      status: 'active',
      created_at: '2026-05-14T09:30:00Z',
      expires_at: '2026-06-13T09:30:00Z',
      revoked_at: null,
      reads: 2,
      last_read_at: '2026-05-14T09:30:00Z',
    });
    expect(JSON.stringify(body)).not.toContain(first.token);
    const fromB = (await call('/v1/consents', { key: keyOf(mock, ORG_B) })).body.data;
    expect(fromB.some((c: any) => c.id === first.id || c.id === second.id)).toBe(false);
  });

  it('belongs to the organisation that made it: another one can neither share its report nor revoke its consent', async () => {
    expectError(
      await createConsent({ report_id: HARI_B, scopes: ['identity'] }),
      404,
      'REPORT_NOT_FOUND',
    );
    const { body } = await createConsent({ report_id: RAM, scopes: ['identity'] });
    expectError(
      await call(`/v1/consents/${body.id}/revoke`, { json: {}, key: keyOf(mock, ORG_B) }),
      404,
      'CONSENT_NOT_FOUND',
    );
    expect((await readConsent(body.id, body.token)).status).toBe(200);
  });

  it.each([
    ['no report_id', { scopes: ['identity'] }],
    ['no scopes', { report_id: RAM }],
    ['empty scopes', { report_id: RAM, scopes: [] }],
    ['an unknown scope', { report_id: RAM, scopes: ['identity', 'balance'] }],
    ['expires_in_days 0', { report_id: RAM, scopes: ['identity'], expires_in_days: 0 }],
    ['expires_in_days 366', { report_id: RAM, scopes: ['identity'], expires_in_days: 366 }],
    ['expires_in_days 1.5', { report_id: RAM, scopes: ['identity'], expires_in_days: 1.5 }],
    ['an empty grantee_label', { report_id: RAM, scopes: ['identity'], grantee_label: '' }],
    ['a body that is no object', ['identity']],
  ])('refuses %s with 400 INVALID_REQUEST', async (_what, json) => {
    expectError(await createConsent(json), 400, 'INVALID_REQUEST');
  });

  it('shares only a complete report', async () => {
    expectError(
      await createConsent({ report_id: PROCESSING, scopes: ['identity'] }),
      409,
      'REPORT_NOT_READY',
    );
  });

  it('accepts 365 days', async () => {
    expect(
      (await createConsent({ report_id: RAM, scopes: ['identity'], expires_in_days: 365 })).body
        .expires_at,
    ).toBe('2027-05-14T09:30:00Z');
  });

  it('needs a FULL key to create, list and revoke', async () => {
    const readOnly = keyOf(mock, ORG_A, { scope: 'READ_ONLY' });
    expectError(
      await createConsent({ report_id: RAM, scopes: ['identity'] }, readOnly),
      403,
      'INSUFFICIENT_SCOPE',
    );
    expectError(await call('/v1/consents', { key: readOnly }), 403, 'INSUFFICIENT_SCOPE');
    expectError(
      await call('/v1/consents/cns_0000000000000000/revoke', { json: {}, key: readOnly }),
      403,
      'INSUFFICIENT_SCOPE',
    );
  });

  it('creates one consent for a repeated Idempotency-Key, replaying its token', async () => {
    const headers = { 'idempotency-key': 'consent-0000000001' };
    const json = { report_id: SITA, scopes: ['verify'] };
    const first = await call('/v1/consents', { json, headers });
    const again = await call('/v1/consents', { json, headers });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const listed = (await call('/v1/consents')).body.data.filter(
      (c: any) => c.id === first.body.id,
    );
    expect(listed).toHaveLength(1);
  });
});

describe('the Connect flow', () => {
  const REDIRECT = 'https://app.example.com/connect/done?from=svc';

  /**
   * A Connect request approved by the end user: its public token and the redirect the browser was
   * sent to.
   */
  async function approvedFlow(
    options: { key?: string; scopes?: string[]; reportId?: string } = {},
  ) {
    const requested = await call('/v1/connect/request', {
      key: options.key,
      json: { scopes: options.scopes ?? ['identity', 'income'], redirect_uri: REDIRECT },
    });
    const page = await call(local(requested.body.connect_url), { key: null });
    expect(page.body).toMatchObject({
      status: 'pending',
      approve_url: `${mock.url}/connect/approve?token=${requested.body.request_token}`,
    });
    const query = options.reportId ? `&report_id=${options.reportId}` : '';
    const approved = await call(`${local(page.body.approve_url)}${query}`, {
      key: null,
      method: 'POST',
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(303);
    return {
      requestToken: requested.body.request_token as string,
      approved,
      publicToken: approved.body.public_token as string,
    };
  }

  const exchange = (publicToken: unknown, key?: string) =>
    call('/v1/connect/exchange', { json: { public_token: publicToken }, key });
  const grantData = (grantId: string, accessToken: string | undefined, key?: string, query = '') =>
    call(`/v1/grants/${grantId}/data${query}`, {
      key,
      headers: accessToken === undefined ? {} : { 'x-svc-access-token': accessToken },
    });

  it('hands the approval’s public token to the redirect address, and the page says it was approved', async () => {
    const { requestToken, approved, publicToken } = await approvedFlow();
    expect(publicToken).toMatch(/^cpt_[0-9a-f]{32}$/);
    const location = new URL(approved.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe('https://app.example.com/connect/done');
    expect(Object.fromEntries(location.searchParams)).toEqual({
      from: 'svc',
      public_token: publicToken,
      request_token: requestToken,
    });
    expect(approved.body.redirect_url).toBe(location.toString());
    const page = await call(`/connect?token=${requestToken}`, { key: null });
    expect(page.body.status).toBe('approved');
    expect(page.body).not.toHaveProperty('approve_url');
    expectError(
      await call(`/connect/approve?token=${requestToken}`, { key: null, method: 'POST' }),
      400,
      'INVALID_REQUEST',
    );
  });

  it('exchanges a public token once for a grant whose access token reads the granted views', async () => {
    const { publicToken } = await approvedFlow();
    const exchanged = await exchange(publicToken);
    expect(exchanged.status).toBe(200);
    expect(exchanged.body).toEqual({
      access_token: expect.stringMatching(/^cat_[0-9a-f]{32}$/),
      grant_id: expect.stringMatching(/^grt_[0-9a-f]{16}$/),
      scopes: ['identity', 'income'],
    });
    expectError(await exchange(publicToken), 400, 'INVALID_PUBLIC_TOKEN');

    const { status, body } = await grantData(exchanged.body.grant_id, exchanged.body.access_token);
    expect(status).toBe(200);
    // By default the end user shares the report the organisation verified through Connect.
    expect(body).toEqual({
      scopes: ['identity', 'income'],
      data: {
        identity: (await call(`/v1/reports/${RAM}/identity`)).body,
        income: (await call(`/v1/reports/${RAM}/income`)).body,
      },
    });
    // Any key of the organisation may read it, the access token being the grant's authority.
    expect(
      (
        await grantData(
          exchanged.body.grant_id,
          exchanged.body.access_token,
          keyOf(mock, ORG_A, { scope: 'READ_ONLY', mode: 'live' }),
        )
      ).status,
    ).toBe(200);
  });

  it('shares the report the approval names, of the requesting organisation only', async () => {
    const { publicToken } = await approvedFlow({ scopes: ['identity'], reportId: SITA });
    const { body } = await exchange(publicToken);
    const data = await grantData(body.grant_id, body.access_token);
    expect(data.body).toEqual({
      scopes: ['identity'],
      data: { identity: (await call(`/v1/reports/${SITA}/identity`)).body },
    });

    const requested = await call('/v1/connect/request', {
      json: { scopes: ['identity'], redirect_uri: REDIRECT },
    });
    expectError(
      await call(`/connect/approve?token=${requested.body.request_token}&report_id=${HARI_B}`, {
        key: null,
        method: 'POST',
      }),
      404,
      'REPORT_NOT_FOUND',
    );
    // Still pending: the end user may approve with a report of their own.
    expect(
      (
        await call(`/connect/approve?token=${requested.body.request_token}`, {
          key: null,
          method: 'POST',
        })
      ).status,
    ).toBe(303);
  });

  it('refuses another organisation’s public token and grant as unknown', async () => {
    const { publicToken } = await approvedFlow();
    expectError(await exchange(publicToken, keyOf(mock, ORG_B)), 400, 'INVALID_PUBLIC_TOKEN');
    const { body } = await exchange(publicToken);
    expectError(
      await grantData(body.grant_id, body.access_token, keyOf(mock, ORG_B)),
      404,
      'GRANT_NOT_FOUND',
    );
    // Organisation B's own flow shares B's Connect-verified report.
    const ofB = await approvedFlow({ key: keyOf(mock, ORG_B), scopes: ['identity'] });
    const grantB = (await exchange(ofB.publicToken, keyOf(mock, ORG_B))).body;
    const dataB = await grantData(grantB.grant_id, grantB.access_token, keyOf(mock, ORG_B));
    expect(dataB.body.data.identity.account_holder).toBe('Durga Bahadur Magar');
  });

  it('lets a public token expire after 30 minutes', async () => {
    const { publicToken } = await approvedFlow();
    const started = now;
    try {
      now += 31 * 60 * 1000;
      expectError(await exchange(publicToken), 400, 'INVALID_PUBLIC_TOKEN');
    } finally {
      now = started;
    }
  });

  it('reads the access token from its header only', async () => {
    const { publicToken } = await approvedFlow();
    const { body } = await exchange(publicToken);
    expectError(await grantData(body.grant_id, undefined), 401, 'INVALID_ACCESS_TOKEN');
    expectError(
      await grantData(body.grant_id, `${body.access_token}x`),
      401,
      'INVALID_ACCESS_TOKEN',
    );
    expectError(
      await grantData(body.grant_id, undefined, undefined, `?access_token=${body.access_token}`),
      400,
      'INVALID_REQUEST',
    );
    expectError(await grantData('grt_0000000000000000', body.access_token), 404, 'GRANT_NOT_FOUND');
    expectError(
      await call(`/v1/grants/${body.grant_id}/data`, {
        key: null,
        headers: { 'x-svc-access-token': body.access_token },
      }),
      401,
      'INVALID_API_KEY',
    );
  });

  it('needs a FULL key to exchange, and a public_token', async () => {
    const { publicToken } = await approvedFlow();
    expectError(
      await exchange(publicToken, keyOf(mock, ORG_A, { scope: 'READ_ONLY' })),
      403,
      'INSUFFICIENT_SCOPE',
    );
    expectError(await call('/v1/connect/exchange', { json: {} }), 400, 'INVALID_REQUEST');
    expectError(await exchange(42), 400, 'INVALID_REQUEST');
    expect((await exchange(publicToken)).status).toBe(200); // refused calls did not use it up
  });

  it('replays an exchange retried with its Idempotency-Key instead of refusing the used token', async () => {
    const { publicToken } = await approvedFlow();
    const headers = { 'idempotency-key': 'exchange-000000001' };
    const first = await call('/v1/connect/exchange', {
      json: { public_token: publicToken },
      headers,
    });
    const retry = await call('/v1/connect/exchange', {
      json: { public_token: publicToken },
      headers,
    });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
  });

  it('approves with POST only, and not an unknown or expired request', async () => {
    const requested = await call('/v1/connect/request', {
      json: { scopes: ['identity'], redirect_uri: REDIRECT },
    });
    const get = await call(`/connect/approve?token=${requested.body.request_token}`, { key: null });
    expectError(get, 405, 'METHOD_NOT_ALLOWED');
    expect(get.headers.get('allow')).toBe('POST');
    expectError(
      await call('/connect/approve?token=creq_unknown', { key: null, method: 'POST' }),
      404,
      'NOT_FOUND',
    );
    const started = now;
    try {
      now += 31 * 60 * 1000;
      expectError(
        await call(`/connect/approve?token=${requested.body.request_token}`, {
          key: null,
          method: 'POST',
        }),
        404,
        'NOT_FOUND',
      );
    } finally {
      now = started;
    }
  });

  it('masks the access token in the request log, as it does keys', async () => {
    const { publicToken } = await approvedFlow();
    const { body } = await exchange(publicToken);
    await grantData(body.grant_id, body.access_token);
    const log = await mockAdminJson<any[]>(mock, '/_mock/requests');
    const read = log.findLast((r) => r.path === `/v1/grants/${body.grant_id}/data`);
    expect(read.headers['x-svc-access-token']).toBe(`…${body.access_token.slice(-4)}`);
  });
});
