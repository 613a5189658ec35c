// What a hostile service sends cannot reach a terminal as control or bidirectional characters, in
// any output: tables, --json, -o ndjson and -o csv (whole replies and merchants' streamed ones),
// and --debug lines. In a pipe the machine formats stay exactly as received.
import { describe, expect, it } from 'vitest';
import { FakeService, svc } from '../support/in-process.js';

/** Escape sequences (OSC title, clear screen), a C1 CSI, DEL and a right-to-left override. */
const HOSTILE = 'EVIL\u001b]0;title\u0007\u001b[2J\u009b31m\u007f\u202eKNAB';
/** What a terminal may show of it. */
const SHOWN = 'EVIL]0;title[2J31mKNAB';
/** Every character that must not reach a terminal raw. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const LIST = { data: [{ report_id: 'rpt_1', status: HOSTILE, bank_code: 'NABIL', created_at: '2026-05-20T08:30:00Z' }] };
const reports = () => new FakeService().expect('GET', '/v1/reports', { body: LIST });
/** Text of a terminal's output without svc's own colours, and CSV's line ends as one line break. */
const withoutColour = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '').replace(/\r\n/g, '\n');

describe('on a terminal', () => {
  it.each(['table', 'csv'])('-o %s: the characters are dropped', async (format) => {
    const result = await svc(['reports', 'list', '-o', format], { tty: true, service: reports() });
    expect(result.code, result.stderr).toBe(0);
    expect(withoutColour(result.stdout)).not.toMatch(UNSAFE);
    expect(result.stdout).toContain(SHOWN);
  });

  it.each([['--json'], ['-o', 'ndjson']])('%s: the characters are written as \\u escapes, so the JSON means the same', async (...flags) => {
    const result = await svc(['reports', 'list', ...flags, '--no-color'], { tty: true, service: reports() });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(UNSAFE);
    expect(result.stdout).toContain('\\u009b31m\\u007f\\u202eKNAB');
    const value = JSON.parse(flags[0] === '--json' ? result.stdout : result.stdout.split('\n')[0]!);
    expect(value.data?.[0]?.status ?? value.status).toBe(HOSTILE);
  });

  it('merchants resolve: streamed CSV, NDJSON and JSON too', async () => {
    const result = { input: '9000000000000001', type: 'terminal', matched: true, merchant: HOSTILE, terminal: '9000000000000001' };
    for (const flags of [
      ['-o', 'csv'],
      ['-o', 'ndjson'],
      ['--json', '--no-color'],
    ]) {
      const service = new FakeService().expect('POST', '/v1/merchants/resolve', { body: { data: { count: 1, matched: 1, results: [result] }, meta: {} } });
      const run = await svc(['merchants', 'resolve', '9000000000000001', ...flags], { tty: true, service });
      expect(run.code, run.stderr).toBe(0);
      expect(withoutColour(run.stdout), flags.join(' ')).not.toMatch(UNSAFE);
      expect(run.stdout).toMatch(/EVIL/);
    }
  });

  it('--debug lines drop them from what the server sent', async () => {
    const service = new FakeService().expect('GET', '/v1/usage', { body: { plan: 'x' }, headers: { 'x-request-id': 'req_\u009b2J\u202eX' } });
    const result = await svc(['usage', '--debug'], { tty: true, service });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('req_2JX');
    expect(result.stderr).not.toMatch(/[\u009b\u202e]/);
  });
});

describe('in a pipe', () => {
  it.each([['--json'], ['-o', 'ndjson']])('%s: the reply as received', async (...flags) => {
    const result = await svc(['reports', 'list', ...flags], { service: reports() });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(JSON.stringify(HOSTILE));
  });

  it('tab-separated tables still drop them', async () => {
    const result = await svc(['reports', 'list'], { service: reports() });
    expect(result.stdout).not.toMatch(UNSAFE);
    expect(result.stdout).toContain(SHOWN);
  });
});
