// The lending nouns: `svc enrich`, `svc consents …`, `svc connect exchange`, `svc grants data` and
// `svc decisions …`. Their checks and views are pure and tested as such; then each command runs
// in-process through the harness (test/support/in-process.ts) with a fake service, to see the
// request it sends (or that it sends none), the keyless consent read, and the secrets shown once
// and masked after.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { maskTokenQuery } from '../../src/api/client.js';
import { exchangeView } from '../../src/commands/connect/exchange.js';
import { createdConsentView } from '../../src/commands/consents/create.js';
import {
  consentBody,
  consentDataRequest,
  consentScopes,
} from '../../src/commands/consents/options.js';
import {
  decisionBody,
  decisionsQuery,
  outcomeBody,
  POSITIVE_NUMBER,
} from '../../src/commands/decisions/options.js';
import { enrichView } from '../../src/commands/enrich/view.js';
import { accessToken } from '../../src/commands/grants/grants.js';
import { scopedDataView } from '../../src/commands/scoped-data.js';
import { UsageError } from '../../src/core/errors.js';
import { createPaint } from '../../src/core/output/paint.js';
import { renderTable } from '../../src/core/output/render.js';
import { fieldsFirst, listRecords } from '../../src/core/output/unshown.js';
import type { View } from '../../src/core/output/view.js';
import { decimalNumber } from '../../src/core/program/typed-options.js';
import { ReplyReading } from '../../src/service/reading.js';
import {
  BASE_URL,
  type Expected,
  type FakeReply,
  FakeService,
  type InProcessResult,
  KEY,
  type SeenRequest,
  svc as svcInProcess,
  unwrapped,
} from '../support/in-process.js';

/** --amount as decisions/index.ts declares it. */
const checkPositiveNumber = (value: string, flag: string) =>
  decimalNumber(flag, POSITIVE_NUMBER)(value);

function usage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('no usage error');
}

async function text(view: View): Promise<string> {
  return renderTable(view, { terminal: false, width: 120, paint: await createPaint(false) });
}

const reading = () => new ReplyReading('test');

// ---------------------------------------------------------------------------------------------
// Checks

describe('consent options', () => {
  it('builds the body, absent options left out', () => {
    expect(consentBody('rpt_1', { scopes: 'identity, income,identity' })).toEqual({
      report_id: 'rpt_1',
      scopes: ['identity', 'income'],
    });
    expect(
      consentBody('rpt_1', {
        scopes: 'verify',
        granteeLabel: 'Nabil Bank loan desk',
        expiresInDays: 365,
      }),
    ).toEqual({
      report_id: 'rpt_1',
      scopes: ['verify'],
      grantee_label: 'Nabil Bank loan desk',
      expires_in_days: 365,
    });
  });

  it('takes the five scopes and no other', () => {
    expect(consentScopes('identity,income,liabilities,verify,transactions')).toHaveLength(5);
    expect(usage(() => consentScopes('identity,score'))).toBe(
      '--scopes takes scopes from identity, income, liabilities, verify, transactions, not "score"',
    );
    expect(usage(() => consentScopes(' , '))).toMatch(/^--scopes is empty/);
  });

  // --expires-in-days is checked by its declaration: test/commands/number-flags.test.ts.

  it('checks the report id, and refuses an empty label', () => {
    expect(usage(() => consentBody('a/b', { scopes: 'income' }))).toMatch(
      /^the report id "a\/b" must not contain/,
    );
    expect(usage(() => consentBody('..', { scopes: 'income' }))).toMatch(
      /^the report id ".." is not an id/,
    );
    expect(usage(() => consentBody('rpt_1', { scopes: 'income', granteeLabel: ' ' }))).toMatch(
      /^--grantee-label is empty/,
    );
  });

  it('reads consent data at a checked path (the token is checked where it is read: consents/data.ts)', () => {
    expect(consentDataRequest('cns_1')).toEqual({
      method: 'GET',
      path: '/v1/consents/cns_1/data',
      what: 'GET /v1/consents/cns_1/data',
    });
    expect(usage(() => consentDataRequest('cns?1'))).toMatch(
      /^the consent id "cns\?1" must not contain/,
    );
  });

  it('takes the access token from the flag, else from SVC_ACCESS_TOKEN; neither is a usage error', () => {
    expect(accessToken('flag_token', 'env_token')).toBe('flag_token');
    expect(accessToken(undefined, 'env_token')).toBe('env_token');
    expect(usage(() => accessToken(undefined, ''))).toBe(
      'no access token: pass --access-token or set SVC_ACCESS_TOKEN',
    );
    expect(usage(() => accessToken(undefined, undefined))).toBe(
      'no access token: pass --access-token or set SVC_ACCESS_TOKEN',
    );
  });
});

describe('decision options', () => {
  it('builds the decision body with the documented names, absent options left out', () => {
    expect(decisionBody({ clientReferenceId: 'loan-1001', decision: 'review' })).toEqual({
      client_reference_id: 'loan-1001',
      decision: 'review',
    });
    expect(
      decisionBody({
        clientReferenceId: 'loan-1001',
        decision: 'approved',
        reportId: 'rpt_1',
        rationale: 'FOIR 32%',
        amount: 250000.5,
      }),
    ).toEqual({
      client_reference_id: 'loan-1001',
      decision: 'approved',
      report_id: 'rpt_1',
      decision_rationale: 'FOIR 32%',
      amount: 250000.5,
    });
  });

  it('refuses what the service would refuse, before any request', () => {
    expect(usage(() => decisionBody({ clientReferenceId: ' ', decision: 'review' }))).toMatch(
      /^--client-reference-id is empty/,
    );
    expect(usage(() => decisionBody({ clientReferenceId: 'a\nb', decision: 'review' }))).toMatch(
      /^--client-reference-id must be one line/,
    );
    expect(
      usage(() => decisionBody({ clientReferenceId: 'l', decision: 'review', reportId: 'a b' })),
    ).toMatch(/^the report id "a b" must not contain/);
    expect(
      usage(() => decisionBody({ clientReferenceId: 'l', decision: 'review', rationale: '' })),
    ).toMatch(/^--rationale is empty/);
  });

  it.each(['0', '-5', '1e5', 'abc', '', '1,000', 'Infinity', '0.00'])(
    'refuses --amount %j',
    (amount) => {
      expect(usage(() => checkPositiveNumber(amount, '--amount'))).toBe(
        `--amount takes a positive number, such as 250000, not "${amount}"`,
      );
    },
  );

  it('builds the outcome body and the list query', () => {
    expect(
      outcomeBody({ clientReferenceId: 'loan-1', outcome: 'written_off', detail: '90+ DPD' }),
    ).toEqual({ client_reference_id: 'loan-1', outcome: 'written_off', detail: '90+ DPD' });
    expect(outcomeBody({ clientReferenceId: 'loan-1', outcome: 'repaid' })).toEqual({
      client_reference_id: 'loan-1',
      outcome: 'repaid',
    });
    expect(decisionsQuery({})).toEqual({ outcome: undefined, limit: undefined });
    expect(decisionsQuery({ outcome: 'defaulted', limit: 200 })).toEqual({
      outcome: 'defaulted',
      limit: 200,
    });
    // --limit is checked by its declaration: test/commands/number-flags.test.ts.
  });
});

describe('the token= query value in traces and errors', () => {
  it('is masked whether or not the run knows the token', () => {
    expect(
      maskTokenQuery(
        'debug: → GET http://h/v1/consents/c/data?token=ctok_0123456789abcdef key=none',
      ),
    ).toBe('debug: → GET http://h/v1/consents/c/data?token=…cdef key=none');
    expect(maskTokenQuery('/v1/x?a=1&token=short&b=2')).toBe('/v1/x?a=1&token=…&b=2');
    expect(maskTokenQuery('/v1/x?access_token_id=1&mytoken=2')).toBe(
      '/v1/x?access_token_id=1&mytoken=2',
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Views

describe('views', () => {
  it('fieldsFirst puts the named fields first, in the object and in the items of its lists', () => {
    const moved = fieldsFirst(
      {
        id: 'd1',
        amount: 5,
        outcome: 'repaid',
        decision: 'approved',
        data: [{ id: 'x', status: 'active' }],
      },
      ['decision', 'outcome', 'status'],
    );
    expect(Object.keys(moved as object)).toEqual(['decision', 'outcome', 'id', 'amount', 'data']);
    expect(Object.keys((moved as { data: object[] }).data[0]!)).toEqual(['status', 'id']);
    expect(fieldsFirst([{ a: 1, status: 's' }], ['status'])).toEqual([{ status: 's', a: 1 }]);
    expect(
      Object.keys(fieldsFirst(JSON.parse('{"__proto__":1,"status":2}'), ['status']) as object),
    ).toEqual(['status', '__proto__']);
    expect(fieldsFirst('text', ['status'])).toBe('text');
  });

  it('listRecords takes a top-level list or the first named list, else leaves it to the fallback', () => {
    expect(listRecords([1, 2], 'data')).toEqual([1, 2]);
    expect(listRecords({ consents: [1] }, 'data', 'consents')).toEqual([1]);
    expect(listRecords({ data: {} }, 'data')).toBeUndefined();
  });

  it("shows a consent's data as the scopes, then one section per scope in their order", async () => {
    const body = {
      scopes: ['income', 'identity'],
      data: {
        identity: {
          account_holder: 'RAM PRASAD SHARMA',
          period: { from: '2026-01-01', to: '2026-03-31' },
        },
        income: {
          salary_amount: 72000,
          monthly_credits: [{ month: '2026-03', total_credits: 85000 }],
        },
        extra: 'x',
      },
      logged: true,
    };
    const out = await text(scopedDataView(body, reading()));
    expect(out.startsWith('FIELD\tVALUE\nscopes\tincome, identity\n')).toBe(true);
    expect(out).toContain('logged\tyes');
    const [income, incomeTable, identity, extra] = [
      'Income\n',
      'Income › Monthly credits\n',
      'Identity\n',
      'Extra\n',
    ].map((h) => out.indexOf(h));
    expect(income).toBeGreaterThan(0);
    expect(incomeTable).toBeGreaterThan(income!);
    expect(identity).toBeGreaterThan(incomeTable!);
    expect(extra).toBeGreaterThan(identity!);
    expect(out).toContain('period.from\t2026-01-01');
    expect(out).toContain('MONTH\tTOTAL CREDITS\n2026-03\t85000');
  });

  it("shows a consent's data of another shape whole, without failing", async () => {
    for (const body of [{ scopes: 'x', data: [1, 2] }, null, [], { data: null }]) {
      const out = await text(scopedDataView(body, reading()));
      expect(out).not.toMatch(/undefined|NaN|\[object Object\]/);
    }
  });

  it('shows the consent made with its token, data URL and expiry; the rest after', async () => {
    const body = {
      id: 'cns_1',
      token: 'ctok_abc',
      data_url: 'https://h/v1/consents/cns_1/data?token=ctok_abc',
      scopes: ['identity', 'income'],
      expires_at: '2026-06-26T10:00:00Z',
      status: 'active',
    };
    const out = await text(createdConsentView(body, reading()));
    expect(out).toBe(
      'FIELD\tVALUE\nid\tcns_1\ntoken\tctok_abc\ndata_url\thttps://h/v1/consents/cns_1/data?token=ctok_abc\nscopes\tidentity, income\nexpires_at\t2026-06-26 10:00 UTC\nstatus\tactive\n',
    );
  });

  it('shows the grant of an exchange', async () => {
    const out = await text(
      exchangeView({ access_token: 'atok_1', grant_id: 'grt_1', scopes: ['identity'] }, reading()),
    );
    expect(out).toBe('FIELD\tVALUE\ngrant_id\tgrt_1\nscopes\tidentity\naccess_token\tatok_1\n');
  });

  it('shows enriched transactions as the table, the rest after', async () => {
    const body = {
      count: 1,
      transactions: [
        {
          date: '2026-03-25',
          description: 'SALARY',
          credit: 72000,
          debit: null,
          balance: 145200,
          category: 'salary',
          confidence: 0.95,
          mcc: '6011',
        },
      ],
      signals: { salary_detected: true },
      categories: { salary: { count: 1, total: 72000 }, other: { count: 0, total: 0 } },
    };
    const out = await text(enrichView(body, reading()));
    expect(out).toContain(
      'DATE\tDESCRIPTION\tCREDIT\tDEBIT\tBALANCE\tCATEGORY\tCONFIDENCE\tMCC\n2026-03-25\tSALARY\t72000\t\t145200\tsalary\t0.95\t6011\n',
    );
    expect(out).toContain('signals.salary_detected\tyes');
    expect(out).toContain('Categories');
  });

  it('refuses an enrich reply without its list of transactions (exit 10)', () => {
    expect(() => enrichView({ count: 0 }, reading())).toThrow(
      /"transactions" should be a list, but it is missing/,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// In-process runs

let dir = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-lending-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The one request a command must send, and the reply it gets. */
const answer = (method: string, path: string, reply: FakeReply): Expected => ({
  method,
  path,
  reply: { headers: { 'x-request-id': 'req_1' }, ...reply },
});

/** `svc ARGS` in-process as a script; the fake service expects `expected`, or no request at all. */
function svc(
  args: string[],
  expected?: Expected,
  options: { env?: Record<string, string>; stdin?: string } = {},
): Promise<InProcessResult> {
  return svcInProcess(args, { service: new FakeService(expected ? [expected] : []), ...options });
}

const header = (request: SeenRequest, name: string) => request.headers[name.toLowerCase()];

describe('svc consents', () => {
  const CONSENT_TOKEN = 'ctok_5f1e2d3c4b5a69788796a5b4';
  const created = {
    id: 'cns_1',
    token: CONSENT_TOKEN,
    data_url: `${BASE_URL}/v1/consents/cns_1/data?token=${CONSENT_TOKEN}`,
    scopes: ['identity', 'income'],
    expires_at: '2026-06-26T10:00:00Z',
  };

  it('create posts the body, shows the token in full once, and warns on stderr', async () => {
    const run = await svc(
      [
        'consents',
        'create',
        'rpt_1',
        '--scopes',
        'identity,income',
        '--grantee-label',
        'Loan desk',
        '--expires-in-days',
        '7',
        '--debug',
      ],
      answer('POST', '/v1/consents', { body: created }),
    );
    expect(run.code).toBe(0);
    expect(run.requests).toHaveLength(1);
    expect(run.requests[0]!.method).toBe('POST');
    expect(run.requests[0]!.url.pathname).toBe('/v1/consents');
    expect(run.requests[0]!.json).toEqual({
      report_id: 'rpt_1',
      scopes: ['identity', 'income'],
      grantee_label: 'Loan desk',
      expires_in_days: 7,
    });
    expect(run.stdout).toContain(`token\t${CONSENT_TOKEN}\n`);
    expect(run.stdout).not.toContain('…');
    expect(run.stderr).toMatch(
      /^warning: this token gives whoever holds it the report's data \(identity, income\)/m,
    );
    expect(run.stderr).toContain('svc consents revoke cns_1');
    expect(run.stderr).not.toContain(CONSENT_TOKEN);
    expect(run.stderr).not.toContain('it is masked');
  });

  it('create --json prints the body as received, token included', async () => {
    const run = await svc(
      ['consents', 'create', 'rpt_1', '--scopes', 'income', '--json'],
      answer('POST', '/v1/consents', { body: created }),
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(created);
  });

  it('create checks everything before any request', async () => {
    for (const args of [
      ['consents', 'create', 'rpt_1', '--scopes', 'score'],
      ['consents', 'create', 'rpt_1', '--scopes', 'income', '--expires-in-days', '400'],
      ['consents', 'create', 'rpt/1', '--scopes', 'income'],
      ['consents', 'create', 'rpt_1'],
    ]) {
      const run = await svc(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.requests).toHaveLength(0);
    }
  });

  it('list and revoke: the status first', async () => {
    const list = await svc(
      ['consents', 'list'],
      answer('GET', '/v1/consents', {
        body: { data: [{ id: 'cns_1', report_id: 'rpt_1', status: 'active' }] },
      }),
    );
    expect(list.code).toBe(0);
    expect(list.requests[0]!.url.pathname).toBe('/v1/consents');
    expect(list.stdout).toBe('STATUS\tID\tREPORT ID\nactive\tcns_1\trpt_1\n');
    const ndjson = await svc(
      ['consents', 'list', '-o', 'ndjson'],
      answer('GET', '/v1/consents', { body: { data: [{ id: 'a' }, { id: 'b' }] } }),
    );
    expect(ndjson.stdout).toBe('{"id":"a"}\n{"id":"b"}\n');
    const revoke = await svc(
      ['consents', 'revoke', 'cns_1'],
      answer('POST', '/v1/consents/cns_1/revoke', { body: { id: 'cns_1', status: 'revoked' } }),
    );
    expect(revoke.requests[0]!.method).toBe('POST');
    expect(revoke.requests[0]!.url.pathname).toBe('/v1/consents/cns_1/revoke');
    expect(revoke.stdout).toBe('FIELD\tVALUE\nstatus\trevoked\nid\tcns_1\n');
    expect((await svc(['consents', 'revoke', '..'])).code).toBe(2);
  });

  it('data needs no key and no config, and sends no Authorization header', async () => {
    const body = { scopes: ['identity'], data: { identity: { account_holder: 'RAM' } } };
    const run = await svc(
      ['consents', 'data', 'cns_1', '--token', CONSENT_TOKEN, '--debug'],
      answer('GET', `/v1/consents/cns_1/data?token=${CONSENT_TOKEN}`, { body }),
      { env: { SVC_API_KEY: '' } },
    );
    expect(run.code).toBe(0);
    const [request] = run.requests;
    expect(request!.method).toBe('GET');
    expect(request!.url.pathname).toBe('/v1/consents/cns_1/data');
    expect(request!.url.searchParams.get('token')).toBe(CONSENT_TOKEN);
    expect(header(request!, 'Authorization')).toBeUndefined();
    expect(run.stdout).toContain('Identity\nFIELD\tVALUE\naccount_holder\tRAM\n');
    expect(run.stderr).toContain('token=…a5b4');
    expect(run.stderr).toContain('key=none');
    expect(run.stderr).not.toContain(CONSENT_TOKEN);
  });

  it('data masks a token too short to be a known secret in the trace', async () => {
    const run = await svc(
      ['consents', 'data', 'cns_1', '--token', 'abc', '--debug'],
      answer('GET', '/v1/consents/cns_1/data?token=abc', { body: { scopes: [], data: {} } }),
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('data?token=… ');
    expect(run.stderr).not.toContain('token=abc');
  });

  it('data: a revoked consent is exit 4, the token masked in the error', async () => {
    const envelope = {
      error_type: 'PERMISSION_ERROR',
      error_code: 'consent_inactive',
      error_message: `consent revoked (token ${CONSENT_TOKEN})`,
    };
    const run = await svc(
      ['consents', 'data', 'cns_1', '--token', CONSENT_TOKEN],
      answer('GET', `/v1/consents/cns_1/data?token=${CONSENT_TOKEN}`, {
        status: 403,
        body: envelope,
      }),
      {
        env: { SVC_API_KEY: '' },
      },
    );
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('error: consent_inactive: consent revoked (token …a5b4)');
    expect(run.stderr).toContain('the token alone opens the data');
    expect(run.stderr).not.toContain(CONSENT_TOKEN);
  });

  it('data still needs a base URL (exit 2), and every other command still needs the key (exit 3)', async () => {
    expect(
      (
        await svc(['consents', 'data', 'cns_1', '--token', CONSENT_TOKEN], undefined, {
          env: { SVC_BASE_URL: '' },
        })
      ).code,
    ).toBe(2);
    for (const args of [
      ['consents', 'list'],
      ['decisions', 'list'],
      ['grants', 'data', 'grt_1', '--access-token', 'atok_12345678'],
    ]) {
      const run = await svc(args, undefined, { env: { SVC_API_KEY: '' } });
      expect(run.code, args.join(' ')).toBe(3);
      expect(run.requests).toHaveLength(0);
    }
  });
});

describe('svc connect exchange and svc grants data', () => {
  const PUBLIC_TOKEN = 'public-sandbox-8f2a61c0d94e7b35';
  const ACCESS_TOKEN = 'access-sandbox-0d9e8f7a6b5c4d3e2f1a';

  it('exchange posts the public token, shows the access token once, and hints at SVC_ACCESS_TOKEN', async () => {
    const run = await svc(
      ['connect', 'exchange', PUBLIC_TOKEN],
      answer('POST', '/v1/connect/exchange', {
        body: {
          access_token: ACCESS_TOKEN,
          grant_id: 'grt_1',
          scopes: ['identity'],
          echo: PUBLIC_TOKEN,
        },
      }),
    );
    expect(run.code).toBe(0);
    expect(run.requests[0]!.method).toBe('POST');
    expect(run.requests[0]!.url.pathname).toBe('/v1/connect/exchange');
    expect(run.requests[0]!.json).toEqual({ public_token: PUBLIC_TOKEN });
    expect(run.stdout).toContain(`access_token\t${ACCESS_TOKEN}\n`);
    // The public token is a secret known before the reply: masked even when the service echoes it.
    expect(run.stdout).not.toContain(PUBLIC_TOKEN);
    expect(run.stderr).toContain('SVC_ACCESS_TOKEN=<the access token> svc grants data grt_1');
    expect(run.stderr).not.toContain(ACCESS_TOKEN);
  });

  it('`svc connect --scopes … --redirect-uri …` still starts a flow', async () => {
    const run = await svc(
      ['connect', '--scopes', 'identity,income', '--redirect-uri', 'https://app.example.com/done'],
      answer('POST', '/v1/connect/request', {
        body: {
          request_token: 'crt_1',
          connect_url: 'https://connect.example.com/connect?token=crt_1',
        },
      }),
    );
    expect(run.code).toBe(0);
    expect(run.requests[0]!.url.pathname).toBe('/v1/connect/request');
    expect(run.requests[0]!.json).toEqual({
      scopes: ['identity', 'income'],
      redirect_uri: 'https://app.example.com/done',
    });
    expect(run.stdout).toContain('connect_url\thttps://connect.example.com/connect?token=crt_1');
    const missing = await svc(['connect']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing --scopes and --redirect-uri');
    expect((await svc(['connect', 'exchnge'])).code).toBe(2);
  });

  it('grants data sends the access token in its header, never in the URL', async () => {
    for (const [args, env] of [
      [['grants', 'data', 'grt_1', '--access-token', ACCESS_TOKEN, '--debug'], {}],
      [['grants', 'data', 'grt_1', '--debug'], { SVC_ACCESS_TOKEN: ACCESS_TOKEN }],
    ] as const) {
      const run = await svc(
        [...args],
        answer('GET', '/v1/grants/grt_1/data', {
          body: {
            scopes: ['income'],
            data: { income: { salary_amount: 72000 } },
            echo: ACCESS_TOKEN,
          },
        }),
        { env },
      );
      expect(run.code).toBe(0);
      const [request] = run.requests;
      expect(request!.url.pathname).toBe('/v1/grants/grt_1/data');
      expect(request!.url.search).toBe('');
      expect(header(request!, 'X-Svc-Access-Token')).toBe(ACCESS_TOKEN);
      expect(header(request!, 'Authorization')).toBe(`Bearer ${KEY}`);
      expect(run.stdout).toContain('Income\nFIELD\tVALUE\nsalary_amount\t72000\n');
      expect(run.stdout + run.stderr).not.toContain(ACCESS_TOKEN);
    }
  });

  it('grants data without a token is exit 2 with a hint, and sends nothing', async () => {
    const run = await svc(['grants', 'data', 'grt_1']);
    expect(run.code).toBe(2);
    expect(unwrapped(run.stderr)).toBe(
      'error: no access token: pass --access-token or set SVC_ACCESS_TOKEN\n`svc connect exchange PUBLIC_TOKEN` gives one, with the grant id, when the end user finishes the Connect flow.\n',
    );
    expect(run.requests).toHaveLength(0);
  });
});

describe('svc decisions', () => {
  it('record, list and outcome send the documented requests; the decision/outcome/status first', async () => {
    const record = await svc(
      [
        'decisions',
        'record',
        '--client-reference-id',
        'loan-1001',
        '--decision',
        'approved',
        '--amount',
        '250000',
        '--rationale',
        'ok',
      ],
      answer('POST', '/v1/decisions', {
        body: { id: 'dec_1', client_reference_id: 'loan-1001', decision: 'approved' },
      }),
    );
    expect(record.code).toBe(0);
    expect(record.requests[0]!.url.pathname).toBe('/v1/decisions');
    expect(record.requests[0]!.json).toEqual({
      client_reference_id: 'loan-1001',
      decision: 'approved',
      decision_rationale: 'ok',
      amount: 250000,
    });
    expect(record.stdout).toBe(
      'FIELD\tVALUE\ndecision\tapproved\nid\tdec_1\nclient_reference_id\tloan-1001\n',
    );

    const list = await svc(
      ['decisions', 'list', '--outcome', 'written_off', '--limit', '5'],
      answer('GET', '/v1/decisions?limit=5&outcome=written_off', {
        body: { data: [{ id: 'dec_1', outcome: 'written_off', decision: 'approved' }] },
      }),
    );
    expect(list.requests[0]!.method).toBe('GET');
    expect(list.requests[0]!.url.pathname + list.requests[0]!.url.search).toBe(
      '/v1/decisions?limit=5&outcome=written_off',
    );
    expect(list.stdout).toBe('DECISION\tOUTCOME\tID\napproved\twritten_off\tdec_1\n');

    const outcome = await svc(
      [
        'decisions',
        'outcome',
        '--client-reference-id',
        'loan-1001',
        '--outcome',
        'delinquent',
        '--detail',
        '90+ DPD',
      ],
      answer('POST', '/v1/outcomes', { body: {} }),
    );
    expect(outcome.requests[0]!.url.pathname).toBe('/v1/outcomes');
    expect(outcome.requests[0]!.json).toEqual({
      client_reference_id: 'loan-1001',
      outcome: 'delinquent',
      detail: '90+ DPD',
    });
    expect(outcome.stdout).toBe('Outcome recorded for loan-1001.\n');
  });

  it('checks every value before any request', async () => {
    for (const args of [
      ['decisions', 'record', '--client-reference-id', 'l', '--decision', 'maybe'],
      [
        'decisions',
        'record',
        '--client-reference-id',
        'l',
        '--decision',
        'review',
        '--amount',
        '-1',
      ],
      ['decisions', 'record', '--decision', 'review'],
      ['decisions', 'list', '--limit', '500'],
      ['decisions', 'list', '--outcome', 'lost'],
      ['decisions', 'outcome', '--client-reference-id', 'l', '--outcome', 'late'],
      ['decisions', 'outcome', '--client-reference-id', 'l'],
    ]) {
      const run = await svc(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.requests).toHaveLength(0);
      expect(run.stderr.split('\n')[0]).toMatch(/^error: /);
    }
  });
});

describe('svc enrich', () => {
  const reply = {
    count: 2,
    transactions: [
      {
        date: '2026-03-25',
        description: 'SALARY',
        credit: 72000,
        balance: 145200,
        category: 'salary',
        confidence: 0.95,
      },
      {
        date: '2026-03-26',
        description: 'ATM',
        debit: 5000,
        balance: 140200,
        category: 'cash_withdrawal',
        confidence: 0.9,
      },
    ],
    signals: {},
  };

  it("posts the transactions of a CSV file, and writes the reply's transactions one per CSV line", async () => {
    const file = join(dir, 'tx.csv');
    writeFileSync(
      file,
      'date,description,credit,debit,balance\n2026-03-25,SALARY,72000,,145200\n2026-03-26,ATM,,5000,140200\n',
    );
    const run = await svc(
      ['enrich', '--file', file, '-o', 'csv'],
      answer('POST', '/v1/enrich', { body: reply }),
    );
    expect(run.code).toBe(0);
    expect(run.requests[0]!.url.pathname).toBe('/v1/enrich');
    expect(run.requests[0]!.json).toEqual({
      transactions: [
        { date: '2026-03-25', description: 'SALARY', credit: 72000, balance: 145200 },
        { date: '2026-03-26', description: 'ATM', debit: 5000, balance: 140200 },
      ],
    });
    // The documented fields first, in their order (docs/reference/output.md, "CSV").
    expect(run.stdout.split('\r\n')[0]).toBe(
      'date,description,credit,debit,balance,category,confidence',
    );
    expect(run.stdout.trim().split('\r\n')).toHaveLength(3);
  });

  it('reads JSON from stdin, and shows a table', async () => {
    const run = await svc(
      ['enrich', '--file', '-'],
      answer('POST', '/v1/enrich', { body: reply }),
      {
        stdin: JSON.stringify({
          transactions: [
            { date: '2026-03-25', description: 'SALARY', credit: 72000, balance: 145200 },
          ],
        }),
      },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('2026-03-26\tATM\t\t5000\t140200\tcash_withdrawal\t0.9');
  });

  it('a bad file is exit 2 naming the bad line, and nothing is sent', async () => {
    const file = join(dir, 'bad.csv');
    writeFileSync(
      file,
      'date,description,credit,debit,balance\n2026-03-25,SALARY,72000,,145200\n2026-03-32,X,1,,1\n',
    );
    const run = await svc(['enrich', '--file', file]);
    expect(run.code).toBe(2);
    expect(unwrapped(run.stderr)).toBe(
      `error: ${file}, line 3: date "2026-03-32" is not a date of the form YYYY-MM-DD\n`,
    );
    expect(run.requests).toHaveLength(0);
    const missing = await svc(['enrich', '--file', join(dir, 'nope.csv')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');
    expect((await svc(['enrich'])).code).toBe(2);
  });
});
