// A service that echoes the key back in a form a plain search misses
// (docs/reference/configuration.md, "Keys": a full key never appears in any output): with U+200B
// inside, split by ESC[0m, or in base64 inside a longer text. In-process, as a person at a terminal
// and as a script: in a reply field shown as a table, --json, -o ndjson, -o csv and --jq; in what
// `merchants resolve` streams; in a dataset's attribution and chart, and the choices a person picks
// a line item from; in a month of the income chart; in an error; in `svc api`'s body and headers;
// in the --debug trace; in a field svc quotes in a line of its own (the plan `svc login` names).
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { Choice } from '../../src/app/services.js';
import {
  BASE_URL,
  type FakeReply,
  FakeService,
  KEY,
  MemoryCache,
  MODES,
  scratchDir,
  ScriptedPrompter,
  svc,
} from '../support/in-process.js';

/** The part of the key that must never show: all but its public prefix. */
const SECRET = KEY.slice('svc_sk_test_'.length);
/** What the masked key, or its secret alone or encoded, ends with. */
const MASKED_END = `…${KEY.slice(-4)}`;
const base64 = (text: string) => Buffer.from(text).toString('base64');

const ECHOES = [
  { form: 'with U+200B inside', text: `${KEY.slice(0, 20)}\u200b${KEY.slice(20)}` },
  { form: 'split by ESC[0m', text: `${KEY.slice(0, 20)}\u001b[0m${KEY.slice(20)}` },
  { form: 'in base64 (Basic user:key)', text: `Basic ${base64(`user:${KEY}`)}` },
];

/**
 * Whether a reader could read the key's secret out of the text: once escape sequences (or what a
 * sanitiser left of them), invisible characters and white space are taken out, or base64 decoded.
 */
function shows(text: string): boolean {
  const seen = text
    .replace(/\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|\[[0-9;]*m/g, '')
    .replace(/\\u00[0-9a-f]{2}|\\u200b/gi, '')
    .replace(/[\p{White_Space}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/gu, '');
  if (seen.includes(SECRET)) return true;
  const decoded = [...seen.matchAll(/[A-Za-z0-9+/]{16,}/g)].flatMap(([run]) =>
    [0, 1, 2, 3].map((skip) => Buffer.from(run.slice(skip), 'base64').toString('latin1')),
  );
  return decoded.some(
    (bytes) => bytes.includes(SECRET.slice(0, 16)) || bytes.includes(SECRET.slice(-16)),
  );
}

let logins = 0;
const list = (status: string) => ({
  data: [{ report_id: 'rpt_1', status, bank_code: 'NABIL', created_at: '2026-05-20T08:30:00Z' }],
});
const serving = (reply: FakeReply, path = '/v1/reports') =>
  new FakeService().expect('GET', path, reply);

describe.each(MODES)('a key echoed by the service, as $mode', ({ tty }) => {
  describe.each(ECHOES)('$form', ({ text }) => {
    it.each([
      { output: 'a table', flags: [] },
      { output: '--json', flags: ['--json'] },
      { output: '-o ndjson', flags: ['-o', 'ndjson'] },
      { output: '-o csv', flags: ['-o', 'csv'] },
      { output: 'a string --jq picks', flags: ['--jq', '.data[0].status'] },
    ])(
      'in a reply field shown as $output: masked on stdout, nothing of it on stderr',
      async ({ flags }) => {
        const result = await svc(['reports', 'list', ...flags], {
          tty,
          service: serving({ body: list(text) }),
        });
        expect(result.code, result.stderr).toBe(0);
        expect(shows(result.stdout)).toBe(false);
        expect(result.stdout).toContain(MASKED_END);
        expect(shows(result.stderr)).toBe(false);
      },
    );

    it('in an error message: masked on stderr, nothing on stdout', async () => {
      const body = {
        error_type: 'INVALID_REQUEST_ERROR',
        error_code: 'INVALID_REQUEST',
        error_message: `bad key ${text}`,
        request_id: 'req_1',
      };
      const result = await svc(['reports', 'list'], {
        tty,
        service: serving({ status: 422, body }),
      });
      expect(result.code).toBe(6);
      expect(result.stdout).toBe('');
      expect(shows(result.stderr)).toBe(false);
      expect(result.stderr).toContain(MASKED_END);
    });

    it('in `svc api`: a body that is not JSON, and a header', async () => {
      const reply = {
        raw: `echo: ${text}\n`,
        headers: { 'content-type': 'text/plain', 'x-echo': text.replace('\u001b[', '\u009b') },
      };
      const result = await svc(['api', 'reports', '--include'], { tty, service: serving(reply) });
      expect(result.code).toBe(10);
      expect(shows(result.stdout)).toBe(false);
      expect(result.stdout).toContain(MASKED_END);
      expect(shows(result.stderr)).toBe(false);
    });

    it.each([['-o', 'csv'], ['-o', 'ndjson'], []])(
      'in a merchant name `merchants resolve %s` streams',
      async (...flags) => {
        const result = {
          input: '9000000000000001',
          type: 'terminal',
          matched: true,
          merchant: text,
          terminal: '9000000000000001',
        };
        const service = new FakeService().expect('POST', '/v1/merchants/resolve', {
          body: { data: { count: 1, matched: 1, results: [result] }, meta: {} },
        });
        const run = await svc(['merchants', 'resolve', '9000000000000001', ...flags], {
          tty,
          service,
        });
        expect(run.code, run.stderr).toBe(0);
        expect(shows(run.stdout)).toBe(false);
        expect(shows(run.stderr)).toBe(false);
      },
    );

    it('in a dataset: its attribution beside -o csv, its label in a chart', async () => {
      const meta = {
        source: 'Nepal Rastra Bank',
        source_url: 'https://www.nrb.org.np/',
        attribution: `Source: ${text}`,
        as_of: '2026-03-31',
      };
      const points = Array.from({ length: 6 }, (_, i) => ({
        month: `2026-0${i + 1}`,
        value: 6 + i,
      }));
      const latest = new FakeService().expect('GET', '/v1/data/cbank/macro/latest', {
        body: { data: { month: '2026-02', total: 12 }, meta },
      });
      const csv = await svc(['data', 'latest', 'macro', '-o', 'csv'], {
        tty,
        service: latest,
        cache: new MemoryCache(),
      });
      expect(csv.code, csv.stderr).toBe(0);
      expect(shows(csv.stdout)).toBe(false);
      expect(shows(csv.stderr)).toBe(false);
      const series = { data: { metric: 'base-rate', label: text, unit: 'percent', points }, meta };
      const service = new FakeService().expect(
        'GET',
        '/v1/data/cbank/interest-rates/series?metric=base-rate',
        { body: series },
      );
      const chart = await svc(['data', 'series', 'interest-rates', 'base-rate', '--chart'], {
        tty,
        columns: 100,
        service,
        cache: new MemoryCache(),
      });
      expect(chart.code, chart.stderr).toBe(0);
      expect(shows(chart.stdout)).toBe(false);
      expect(shows(chart.stderr)).toBe(false);
    });

    it('in a month of the income chart', async () => {
      const monthly_credits = [
        { month: text, total_credits: 70000 },
        { month: '2026-02', total_credits: 90000 },
      ];
      const service = new FakeService().expect('GET', '/v1/reports/rpt_1/income', {
        body: { report_id: 'rpt_1', monthly_credits },
      });
      const result = await svc(['reports', 'income', 'rpt_1', '--chart'], {
        tty,
        columns: 100,
        service,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(shows(result.stdout)).toBe(false);
      expect(shows(result.stderr)).toBe(false);
    });

    it('in a field svc quotes in a note or a hint: a grant id, a consent id, a refusal code, a reset time', async () => {
      const runs = [
        {
          argv: ['connect', 'exchange', 'cpt_9f8e7d6c5b4a39281706'],
          service: new FakeService().expect('POST', '/v1/connect/exchange', {
            body: {
              access_token: 'sat_0f1e2d3c4b5a69788796',
              grant_id: text,
              scopes: ['identity'],
            },
          }),
        },
        {
          argv: ['consents', 'create', 'rpt_1', '--scopes', 'identity'],
          service: new FakeService().expect('POST', '/v1/consents', {
            body: {
              id: text,
              token: 'ctok_9f8e7d6c5b4a39281706',
              scopes: ['identity'],
              expires_at: '2026-06-13T09:30:00Z',
            },
          }),
        },
        {
          argv: ['whoami'],
          service: new FakeService().expect('GET', '/v1/usage', {
            status: 401,
            body: {
              error_type: 'AUTHENTICATION_ERROR',
              error_code: text,
              error_message: 'Invalid API key.',
            },
          }),
        },
        {
          argv: ['data', 'latest', 'cpi', '--retries', '0'],
          service: new FakeService()
            .expect('GET', '/v1/data/cbank/cpi/latest', {
              status: 429,
              body: {
                error_type: 'RATE_LIMIT_ERROR',
                error_code: 'QUOTA_EXCEEDED',
                error_message: 'Used up.',
              },
            })
            .expect('GET', '/v1/usage', { body: { plan: 'growth', resets_at: text } }),
        },
      ];
      for (const { argv, service } of runs) {
        const result = await svc(argv, { tty, service, cache: new MemoryCache() });
        expect(shows(result.stdout), argv.join(' ')).toBe(false);
        expect(shows(result.stderr), argv.join(' ')).toBe(false);
        expect(result.stdout + result.stderr, argv.join(' ')).toContain(MASKED_END);
      }
    });

    it('in the plan `svc login` names', async () => {
      const service = new FakeService().expect('GET', '/v1/usage', {
        body: { plan: text, quota: 10, used: 1, remaining: 9 },
      });
      const env = {
        SVC_BASE_URL: undefined,
        SVC_API_KEY: undefined,
        SVC_CONFIG_DIR: join(scratchDir(), `login-${logins++}`),
      };
      const result = await svc(['login', '--base-url', BASE_URL, '--with-key'], {
        tty,
        stdin: KEY,
        env,
        service,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('');
      expect(shows(result.stderr)).toBe(false);
      expect(result.stderr).toMatch(/\(plan\s/);
    });

    it('in a request id of the --debug trace', async () => {
      const result = await svc(['reports', 'list', '--debug'], {
        tty,
        service: serving({ body: list('done'), headers: { 'x-request-id': text } }),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(shows(result.stdout)).toBe(false);
      expect(shows(result.stderr)).toBe(false);
      expect(result.stderr).toContain(MASKED_END);
    });
  });
});

describe.each(ECHOES)('a key echoed $form in a line item a person picks from', ({ text }) => {
  it('is masked in the choices offered', async () => {
    let offered: Choice[] = [];
    const prompter = new ScriptedPrompter(['income.echo']);
    const search = prompter.search.bind(prompter);
    prompter.search = (message, source) => {
      offered = source(undefined);
      return search(message, source);
    };
    const points = Array.from({ length: 3 }, (_, i) => ({ month: `2026-0${i + 1}`, value: i }));
    const service = new FakeService()
      .expect('GET', '/v1/data/cbank/banking/pnl/latest', {
        body: {
          data: {
            month: '2026-02',
            line_items: [
              { key: 'income.echo', label: text, value: 1, unit: 'NPR_mn', section: 'Income' },
            ],
          },
          meta: {},
        },
      })
      .expect('GET', '/v1/data/cbank/banking/pnl/series?key=income.echo', {
        body: { data: { key: 'income.echo', label: 'Echo', unit: 'NPR_mn', points }, meta: {} },
      });
    const result = await svc(['data', 'series', 'pnl'], {
      tty: true,
      prompter,
      service,
      cache: new MemoryCache(),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(offered.map((choice) => choice.name).join('\n')).toContain(MASKED_END);
    expect(shows(offered.map((choice) => `${choice.name}\n${choice.description}`).join('\n'))).toBe(
      false,
    );
  });
});
