// `svc sandbox create|scenarios|fire` against svc mock, run as a script would: what the mock's
// sandbox answers (scenario reports every report command reads, error scenarios, live keys refused
// by the service) and the scenario list left for `svc __complete`. The request bodies, the checks
// before any request (live keys, scenario names, --event, --error-code, --quiet) and the reply
// cache entry are tested in-process: test/commands/sandbox.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { unwrapped } from '../support/unwrapped.js';
import { ROOT, useWorld } from './harness.js';

const OTHER_ORG = 'rpt_9de47370f0a1202e';
const FAILED = 'rpt_83bf1b6bfc2499c2'; // Himalaya, DOCUMENT_PARSE_FAILED

const world = useWorld();

const liveKey = () => ({ SVC_API_KEY: world.key(0, 'live').key });

/**
 * The mock's scenarios reply (its shape is not documented): the default, then report and error
 * scenarios.
 */
interface ScenariosReply {
  default: string;
  report_scenarios: Array<{ scenario: string; description: string }>;
  error_scenarios: Array<{ scenario: string; error_code: string; description: string }>;
}

const scenarioNames = (body: ScenariosReply) =>
  [...body.report_scenarios, ...body.error_scenarios].map((s) => s.scenario);

/** The ids of the organisation's reports, newest first. */
async function reportIds(): Promise<string[]> {
  const list = await world.svc(['reports', 'list', '--limit', '100', '--json']);
  return JSON.parse(list.stdout).data.map((x: { report_id: string }) => x.report_id);
}

async function create(args: string[] = []): Promise<string> {
  const r = await world.svc(['sandbox', 'create', '--quiet', ...args]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

describe('sandbox scenarios', () => {
  it('lists every scenario as the service gives them: the default, then report and error scenarios with their codes', async () => {
    const r = await world.svc(['sandbox', 'scenarios']);
    expect(r.code).toBe(0);
    // The shape is not documented: each list of scenarios is items, one table for both with the
    // list's name first; the reply's other field (the default) is said on stderr.
    expect(r.stderr).toBe('default: salaried\n');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('LIST\tSCENARIO\tDESCRIPTION\tERROR CODE');
    expect(lines.slice(1, 5).map((line) => line.split('\t').slice(0, 2))).toEqual(
      ['salaried', 'thin_file', 'high_risk', 'remittance'].map((name) => [
        'report_scenarios',
        name,
      ]),
    );
    for (const [name, code] of [
      ['error_unsupported_bank', 'UNSUPPORTED_BANK'],
      ['error_unsupported_document', 'UNSUPPORTED_DOCUMENT'],
      ['error_password_required', 'PASSWORD_REQUIRED'],
    ]) {
      expect(r.stdout).toMatch(new RegExp(`^error_scenarios\\t${name}\\t\\S.*\\t${code}$`, 'm'));
    }
    expect((await world.requests())[0]).toMatchObject({
      method: 'GET',
      path: '/v1/sandbox/scenarios',
    });
  });

  it('--json gives the reply', async () => {
    const r = await world.svc(['sandbox', 'scenarios', '--json']);
    const body = JSON.parse(r.stdout) as ScenariosReply;
    expect(body.default).toBe('salaried');
    expect(body.report_scenarios.map((s) => s.scenario)).toEqual([
      'salaried',
      'thin_file',
      'high_risk',
      'remittance',
    ]);
    const errors = body.error_scenarios.map((s) => s.scenario);
    expect(errors).toEqual(
      expect.arrayContaining([
        'error_unsupported_bank',
        'error_unsupported_document',
        'error_password_required',
      ]),
    );
    expect(errors.filter((n) => n.startsWith('error_image_not_'))).toHaveLength(1);
  });

  it('the scenario data add up: totals are the sums by type, counts the transactions', () => {
    const file = JSON.parse(readFileSync(join(ROOT, 'src/mock/fixtures/scenarios.json'), 'utf8'));
    for (const s of file.error_scenarios) expect(s.error_code, s.scenario).toMatch(/^[A-Z_]+$/);
    for (const s of file.report_scenarios) {
      const c = s.statement.counterparties;
      const sum = (
        f: (t: {
          inflow: number;
          outflow: number;
          inflow_count: number;
          outflow_count: number;
        }) => number,
      ) => Math.round(c.by_type.map(f).reduce((a: number, b: number) => a + b, 0) * 100) / 100;
      expect(
        sum((t) => t.inflow),
        s.scenario,
      ).toBe(c.total_inflow);
      expect(
        sum((t) => t.outflow),
        s.scenario,
      ).toBe(c.total_outflow);
      expect(
        sum((t) => t.inflow_count + t.outflow_count),
        s.scenario,
      ).toBe(s.statement.transaction_count);
    }
  });
});

describe('sandbox create', () => {
  it('makes a report of the default scenario that every report command can read', async () => {
    const r = await world.svc(['sandbox', 'create']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^status\tcomplete$/m);
    expect(r.stdout).toMatch(/^bank\tNIC Asia Bank \(NIC_ASIA\)$/m);
    const id = /^report_id\t(rpt_[0-9a-f]+)$/m.exec(r.stdout)![1]!;
    const [request] = await world.requests();
    expect(request).toMatchObject({ method: 'POST', path: '/v1/sandbox/reports' });
    expect(JSON.parse(request!.body!)).toEqual({});

    const identity = await world.svc(['reports', 'identity', id]);
    expect(identity.code).toBe(0);
    expect(identity.stdout).toMatch(/^account_holder\tKamala Devi Bhattarai$/m);
    const recurring = await world.svc(['recurring', id]);
    expect(recurring.code).toBe(0);
    expect(recurring.stdout).toMatch(
      /^Inflow streams\nCOUNTERPARTY\t.*\nCotiviti Nepal Pvt Ltd\tsalary\tmonthly\t92000\t/m,
    );
    const list = await world.svc(['reports', 'list', '--limit', '100', '--json']);
    expect(JSON.parse(list.stdout).data.map((x: { report_id: string }) => x.report_id)).toContain(
      id,
    );
  });

  it.each([
    ['thin_file', 'Bikram Singh Thakuri'],
    ['high_risk', 'Dil Bahadur Gurung'],
    ['remittance', 'Manisha Gurung'],
  ])('--scenario %s reads as that scenario', async (scenario, holder) => {
    const id = await create(['--scenario', scenario]);
    expect(JSON.parse((await world.requests())[0]!.body!)).toEqual({ scenario });
    const identity = await world.svc(['reports', 'identity', id, '--json']);
    expect(JSON.parse(identity.stdout).account_holder).toBe(holder);
  });

  it('a remittance report has its remittance stream dated before today', async () => {
    const id = await create(['--scenario', 'remittance']);
    const body = JSON.parse((await world.svc(['recurring', id, '--json'])).stdout);
    const [stream] = body.inflow_streams;
    expect(stream).toMatchObject({ counterparty: 'IME Remit', category: 'remittance' });
    expect(Date.parse(stream.last_date)).toBeLessThan(Date.now());
  });

  it.each([
    ['error_unsupported_bank', 'UNSUPPORTED_BANK'],
    ['error_unsupported_document', 'UNSUPPORTED_DOCUMENT'],
    ['error_password_required', 'PASSWORD_REQUIRED'],
    ['error_image_not_readable', 'IMAGE_NOT_READABLE'],
  ])(
    'the error scenario %s answers as that failure would (422 %s, exit 6) and makes no report',
    async (scenario, code) => {
      const before = await reportIds();
      await world.reset();
      const r = await world.svc(['sandbox', 'create', '--scenario', scenario]);
      expect(r.code).toBe(6);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(new RegExp(`^error: ${code}: \\S`));
      expect(r.stderr).toMatch(/Request ID: req_[0-9a-f]{32}/);
      const [request] = await world.requests();
      expect(request).toMatchObject({ method: 'POST', path: '/v1/sandbox/reports' });
      expect(JSON.parse(request!.body!)).toEqual({ scenario });

      const json = await world.svc(['sandbox', 'create', '--scenario', scenario, '--json']);
      expect(json.code).toBe(6);
      expect(json.stdout).toBe('');
      expect(JSON.parse(json.stderr)).toMatchObject({
        error_code: code,
        error_type: 'INVALID_REQUEST_ERROR',
      });
      expect(await reportIds()).toEqual(before);
    },
  );

  it('--json gives the full report of the scenario, the one the service keeps', async () => {
    const r = await world.svc(['sandbox', 'create', '--scenario', 'thin_file', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body).toMatchObject({
      status: 'complete',
      statement: { bank_code: 'GARIMA', currency: 'NPR' },
      data_source: 'PARSED_STATEMENT',
    });
    expect(body.transactions).toHaveLength(body.statement.total_transactions);
    const kept = await world.svc(['reports', 'get', body.report_id, '--json']);
    expect(kept.stdout).toBe(r.stdout);
  });

  it('an unknown scenario is refused by the service (exit 6)', async () => {
    const r = await world.svc(['sandbox', 'create', '--scenario', 'millionaire']);
    expect(r.code).toBe(6);
    expect(unwrapped(r.stderr)).toMatch(
      /^error: INVALID_REQUEST: Unknown scenario 'millionaire'; the scenarios are salaried,/,
    );
  });

  it('a READ_ONLY key may not create (exit 4)', async () => {
    const r = await world.svc(['sandbox', 'create'], {
      env: { SVC_API_KEY: world.key(0, 'test', 'READ_ONLY').key },
    });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: INSUFFICIENT_SCOPE: /);
  });
});

describe('live keys, refused by the service', () => {
  it('the service refuses them too: 403 TEST_KEY_REQUIRED (seen through svc api)', async () => {
    const r = await world.svc(['api', 'POST', `sandbox/reports/${FAILED}/fire_webhook`], {
      env: liveKey(),
    });
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({
      error_code: 'TEST_KEY_REQUIRED',
      error_type: 'PERMISSION_ERROR',
    });
    for (const path of ['sandbox/scenarios', 'sandbox/reports']) {
      const other = await world.svc(['api', path === 'sandbox/scenarios' ? 'GET' : 'POST', path], {
        env: liveKey(),
      });
      expect(JSON.parse(other.stdout).error_code).toBe('TEST_KEY_REQUIRED');
    }
  });
});

describe('sandbox fire', () => {
  it('leaves absent fields out: the service sends its default event, report.ready, whatever the report', async () => {
    const id = await create();
    await world.reset();
    const r = await world.svc(['sandbox', 'fire', id]);
    expect(r.code, r.stderr).toBe(0);
    // The last field is svc mock's own addition: where it delivers the event (nowhere, no listener
    // runs).
    expect(r.stdout).toBe(
      `FIELD\tVALUE\nfired\treport.ready\nreport_id\t${id}\nenvironment\ttest\ndelivered_to\tno endpoint\n`,
    );
    const [request] = await world.requests();
    expect(request).toMatchObject({
      method: 'POST',
      path: `/v1/sandbox/reports/${id}/fire_webhook`,
    });
    expect(JSON.parse(request!.body!)).toEqual({});

    const failed = await world.svc(['sandbox', 'fire', FAILED, '--json']);
    expect(JSON.parse(failed.stdout)).toEqual({
      fired: 'report.ready',
      report_id: FAILED,
      environment: 'test',
      delivered_to: [],
    });
    expect(JSON.parse((await world.requests()).at(-1)!.body!)).toEqual({});
  });

  it("another organisation's report is not found (exit 5)", async () => {
    const r = await world.svc(['sandbox', 'fire', OTHER_ORG]);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/^error: REPORT_NOT_FOUND: /);
  });
});

describe('scenario names for completion', () => {
  it('`svc sandbox scenarios` leaves the list where `svc __complete scenarios` finds it, without the key', async () => {
    const cache = world.tempDir('svc-scenario-cache-');
    const listed = await world.svc(['sandbox', 'scenarios', '--json'], {
      env: { SVC_CACHE_DIR: cache },
    });
    expect(listed.code, listed.stderr).toBe(0);
    const names = scenarioNames(JSON.parse(listed.stdout) as ScenariosReply);
    expect(names.length).toBeGreaterThanOrEqual(8);
    const completed = await world.svc(['__complete', 'scenarios'], {
      env: { SVC_CACHE_DIR: cache },
    });
    expect(completed.code).toBe(0);
    expect(
      completed.stdout
        .trimEnd()
        .split('\n')
        .map((line) => line.split('\t')[0]),
    ).toEqual(names);
  });
});
