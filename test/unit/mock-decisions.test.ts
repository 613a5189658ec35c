// The mock's lending decisions and outcomes: recording them, listing them by outcome, the checks
// of each field, one decision per client reference, organisations and FULL keys. Every reply shape
// here is the mock's own (the documents show the requests only).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type MockServer, startMockServer } from '../../src/mock/server.js';
import { expectError } from '../support/errors.js';
import { keyOf } from '../support/keys.js';

const ORG_A = 'org_4d2a9f61c8e3b705';
const ORG_B = 'org_b81e07c39a5f2d64';
const RAM = 'rpt_e8699f830adc84b8'; // A
const FAILED = 'rpt_83bf1b6bfc2499c2'; // A, failed
const HARI_B = 'rpt_4f932909d44290ba'; // B

let mock: MockServer;
let now = Date.parse('2026-05-14T09:30:00Z');
beforeAll(async () => {
  mock = await startMockServer({ clock: () => new Date(now) });
});
afterAll(() => mock.close());

async function call(
  path: string,
  options: { json?: unknown; key?: string; headers?: Record<string, string> } = {},
) {
  const reply = await fetch(`${mock.url}${path}`, {
    method: options.json === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${options.key ?? keyOf(mock, ORG_A)}`,
      'content-type': 'application/json',
      ...options.headers,
    },
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  return {
    status: reply.status,
    headers: reply.headers,
    url: reply.url,
    body: (await reply.json()) as any,
  };
}

let references = 0;
/** A client reference no other test uses. */
const newReference = () => `loan-${1000 + ++references}`;
const record = (json: unknown, key?: string) => call('/v1/decisions', { json, key });
const outcome = (json: unknown, key?: string) => call('/v1/outcomes', { json, key });

describe('decisions', () => {
  it('records a decision with its report, rationale and amount', async () => {
    const reference = newReference();
    const { status, body } = await record({
      client_reference_id: reference,
      decision: 'approved',
      report_id: RAM,
      decision_rationale: 'FOIR 0.41 within policy',
      amount: 500_000,
    });
    expect(status).toBe(201);
    expect(body).toEqual({
      id: expect.stringMatching(/^dec_[0-9a-f]{16}$/),
      client_reference_id: reference,
      decision: 'approved',
      report_id: RAM,
      decision_rationale: 'FOIR 0.41 within policy',
      amount: 500_000,
      created_at: '2026-05-14T09:30:00Z',
      outcome: null,
      outcome_detail: null,
      outcome_recorded_at: null,
    });
  });

  it('needs only the reference and the decision; a failed report may be named', async () => {
    expect(
      (await record({ client_reference_id: newReference(), decision: 'declined' })).body,
    ).toMatchObject({ report_id: null, decision_rationale: null, amount: null });
    expect(
      (await record({ client_reference_id: newReference(), decision: 'review', report_id: FAILED }))
        .status,
    ).toBe(201);
  });

  it('refuses a second decision for the same reference with 409, but replays a retry with its Idempotency-Key', async () => {
    const reference = newReference();
    const headers = { 'idempotency-key': `decision-${reference}` };
    const first = await call('/v1/decisions', {
      json: { client_reference_id: reference, decision: 'approved' },
      headers,
    });
    const retry = await call('/v1/decisions', {
      json: { client_reference_id: reference, decision: 'approved' },
      headers,
    });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expectError(
      await record({ client_reference_id: reference, decision: 'declined' }),
      409,
      'DECISION_EXISTS',
    );
  });

  it.each([
    ['no client_reference_id', { decision: 'approved' }],
    ['an empty client_reference_id', { client_reference_id: '', decision: 'approved' }],
    ['no decision', { client_reference_id: 'loan-x' }],
    ['an unknown decision', { client_reference_id: 'loan-x', decision: 'approve' }],
    ['a negative amount', { client_reference_id: 'loan-x', decision: 'approved', amount: -1 }],
    [
      'an amount as text',
      { client_reference_id: 'loan-x', decision: 'approved', amount: '500000' },
    ],
    [
      'a report_id that is no string',
      { client_reference_id: 'loan-x', decision: 'approved', report_id: 7 },
    ],
  ])('refuses %s with 400 INVALID_REQUEST', async (_what, json) => {
    expectError(await record(json), 400, 'INVALID_REQUEST');
  });

  it('refuses another organisation’s report as unknown', async () => {
    expectError(
      await record({
        client_reference_id: newReference(),
        decision: 'approved',
        report_id: HARI_B,
      }),
      404,
      'REPORT_NOT_FOUND',
    );
  });
});

describe('outcomes', () => {
  it('records an outcome of a recorded decision, the latest replacing the one before', async () => {
    const reference = newReference();
    const decision = (
      await record({ client_reference_id: reference, decision: 'approved', amount: 200_000 })
    ).body;
    const late = await outcome({
      client_reference_id: reference,
      outcome: 'delinquent',
      detail: '30+ DPD',
    });
    expect(late.status).toBe(201);
    expect(late.body).toEqual({
      id: expect.stringMatching(/^out_[0-9a-f]{16}$/),
      client_reference_id: reference,
      decision_id: decision.id,
      outcome: 'delinquent',
      detail: '30+ DPD',
      recorded_at: '2026-05-14T09:30:00Z',
    });
    const started = now;
    try {
      now += 60 * 86_400_000;
      await outcome({ client_reference_id: reference, outcome: 'defaulted', detail: '90+ DPD' });
    } finally {
      now = started;
    }
    const listed = (await call('/v1/decisions?outcome=defaulted')).body.data.find(
      (d: any) => d.client_reference_id === reference,
    );
    expect(listed).toMatchObject({
      id: decision.id,
      outcome: 'defaulted',
      outcome_detail: '90+ DPD',
      outcome_recorded_at: '2026-07-13T09:30:00Z',
    });
    expect(
      (await call('/v1/decisions?outcome=delinquent')).body.data.some(
        (d: any) => d.client_reference_id === reference,
      ),
    ).toBe(false);
  });

  it('answers 404 DECISION_NOT_FOUND for a reference without a decision, also another organisation’s', async () => {
    expectError(
      await outcome({ client_reference_id: 'loan-never-recorded', outcome: 'repaid' }),
      404,
      'DECISION_NOT_FOUND',
    );
    const reference = newReference();
    await record({ client_reference_id: reference, decision: 'approved' });
    expectError(
      await outcome({ client_reference_id: reference, outcome: 'repaid' }, keyOf(mock, ORG_B)),
      404,
      'DECISION_NOT_FOUND',
    );
  });

  it.each([
    ['no client_reference_id', { outcome: 'repaid' }],
    ['no outcome', { client_reference_id: 'loan-x' }],
    ['an unknown outcome', { client_reference_id: 'loan-x', outcome: 'paid' }],
    [
      'a detail that is no string',
      { client_reference_id: 'loan-x', outcome: 'repaid', detail: 90 },
    ],
  ])('refuses %s with 400 INVALID_REQUEST', async (_what, json) => {
    expectError(await outcome(json), 400, 'INVALID_REQUEST');
  });
});

describe('listing decisions', () => {
  it('lists the organisation’s decisions newest first, 50 by default, with has_more', async () => {
    const org = ORG_B; // its own decisions only: the other tests record A's
    const made: string[] = [];
    for (let i = 0; i < 55; i++)
      made.push(
        (
          await record(
            { client_reference_id: `b-${i}`, decision: i % 3 ? 'approved' : 'declined' },
            keyOf(mock, org),
          )
        ).body.id,
      );
    const page = (await call('/v1/decisions', { key: keyOf(mock, org) })).body;
    expect(page.data).toHaveLength(50);
    expect(page.has_more).toBe(true);
    expect(page.data.map((d: any) => d.id)).toEqual(made.slice(-50).reverse());
    const all = (await call('/v1/decisions?limit=200', { key: keyOf(mock, org) })).body;
    expect([all.data.length, all.has_more]).toEqual([55, false]);
    expect((await call('/v1/decisions?limit=3', { key: keyOf(mock, org) })).body.data).toHaveLength(
      3,
    );
    const ofA = (await call('/v1/decisions?limit=200')).body.data;
    expect(ofA.some((d: any) => made.includes(d.id))).toBe(false);
  });

  it('filters by the latest outcome', async () => {
    const reference = newReference();
    await record({ client_reference_id: reference, decision: 'approved' });
    await outcome({ client_reference_id: reference, outcome: 'written_off' });
    const written = (await call('/v1/decisions?outcome=written_off')).body.data;
    expect(written.map((d: any) => d.client_reference_id)).toEqual([reference]);
  });

  it.each(['?limit=0', '?limit=201', '?limit=ten', '?outcome=late'])(
    'refuses %s with 400',
    async (query) => {
      expectError(await call(`/v1/decisions${query}`), 400, 'INVALID_REQUEST');
    },
  );
});

describe('keys', () => {
  it('needs a FULL key to record, list and record outcomes', async () => {
    const readOnly = keyOf(mock, ORG_A, { scope: 'READ_ONLY' });
    expectError(
      await record({ client_reference_id: newReference(), decision: 'approved' }, readOnly),
      403,
      'INSUFFICIENT_SCOPE',
    );
    expectError(await call('/v1/decisions', { key: readOnly }), 403, 'INSUFFICIENT_SCOPE');
    expectError(
      await outcome({ client_reference_id: 'loan-x', outcome: 'repaid' }, readOnly),
      403,
      'INSUFFICIENT_SCOPE',
    );
  });
});
