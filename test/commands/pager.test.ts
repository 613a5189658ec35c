// The pager (docs/reference/output.md, "Pager") in-process, with a fake pager: an output taller
// than the terminal goes through it when stdout is one, a short one and a pipe's never do;
// SVC_PAGER, the profile's `pager`, PAGER, less -FRX, in that order, and --no-pager or an empty
// value for none; a pager that cannot start means printing directly; quitting it early is exit 0,
// nothing on stderr, and the output stops being made. A real less in a real terminal:
// test/e2e/pager.test.ts.
import { describe, expect, it } from 'vitest';

import { signatureHeader } from '../../src/webhooks/signature.js';
import { documented } from '../support/fixtures.js';
import {
  FakePager,
  FakeService,
  type InProcessOptions,
  KEY,
  plain,
  svc,
  unwrapped,
} from '../support/in-process.js';
import { freePort, listeningOn, post } from '../support/peers.js';

const ID = 'rpt_9f2c41d07ab35e18';
const ROWS = 24;

/** `svc api reports` prints `[1, …, n]` as n + 2 lines. */
const numbers = (n: number) =>
  new FakeService().expect('GET', '/v1/reports', {
    body: Array.from({ length: n }, (_, i) => i + 1),
  });
const api = (n: number, options: InProcessOptions = {}, args: string[] = []) =>
  svc(['api', 'reports', ...args], { tty: true, rows: ROWS, service: numbers(n), ...options });

/** A reply of many transactions, some thousand lines on a terminal. */
function manyTransactions(count: number) {
  const [first] = documented('transactions').transactions as Record<string, unknown>[];
  return {
    count,
    transactions: Array.from({ length: count }, (_, i) => ({
      ...first,
      id: `txn_${String(i).padStart(6, '0')}`,
      description: `PAYMENT ${i}`,
    })),
  };
}

describe('when the pager starts', () => {
  it('an output that leaves no row for the prompt (24 lines on 24 rows) goes through it, whole; the terminal gets nothing', async () => {
    const pager = new FakePager();
    const result = await api(22, { pager });
    expect(result.code, result.stderr).toBe(0);
    expect(pager.started.map((s) => s.command)).toEqual([['less', '-FRX']]);
    expect(plain(pager.text).trimEnd().split('\n')).toHaveLength(24);
    expect(pager.ended).toBe(true);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('');
  });

  it('one line shorter (23 on 24 rows) is printed directly, no pager started', async () => {
    const pager = new FakePager();
    const result = await api(21, { pager });
    expect(result.code, result.stderr).toBe(0);
    expect(pager.started).toEqual([]);
    expect(plain(result.stdout).trimEnd().split('\n')).toHaveLength(23);
  });

  it('lines wider than the terminal count the rows they wrap to', async () => {
    const pager = new FakePager();
    const long = 'x'.repeat(150);
    const service = new FakeService().expect('GET', '/v1/reports', {
      body: Array.from({ length: 12 }, () => long),
    });
    // 14 lines, 12 of them two rows at 80 columns: 26 rows.
    const result = await svc(['api', 'reports'], {
      tty: true,
      rows: ROWS,
      columns: 80,
      service,
      pager,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(pager.started).toHaveLength(1);
  });

  it('a table of a list, its colour kept: the pager is the terminal', async () => {
    const pager = new FakePager();
    const service = new FakeService().expect('GET', `/v1/reports/${ID}/transactions`, {
      body: manyTransactions(40),
    });
    const result = await svc(['reports', 'transactions', ID], {
      tty: true,
      rows: ROWS,
      service,
      pager,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(pager.text).toMatch(/\u001b\[/);
    expect(plain(pager.text)).toContain('PAYMENT 39');
  });

  it('-o csv and --json on a terminal too', async () => {
    for (const format of [['-o', 'csv'], ['--json']]) {
      const pager = new FakePager();
      const service = new FakeService().expect('GET', `/v1/reports/${ID}/transactions`, {
        body: manyTransactions(40),
      });
      const result = await svc(['reports', 'transactions', ID, ...format], {
        tty: true,
        rows: ROWS,
        service,
        pager,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(pager.started, format.join(' ')).toHaveLength(1);
      expect(plain(pager.text)).toContain('PAYMENT 39');
    }
  });

  it("--jq's output, on a terminal, when it is the long one", async () => {
    const pager = new FakePager();
    const result = await api(30, { pager }, ['--jq', '.[]']);
    expect(result.code, result.stderr).toBe(0);
    expect(pager.text.trimEnd().split('\n')).toEqual(
      Array.from({ length: 30 }, (_, i) => String(i + 1)),
    );
  });

  it('a chart taller than the terminal', async () => {
    const pager = new FakePager();
    const body = {
      report_id: ID,
      monthly_credits: ['2026-01', '2026-02', '2026-03'].map((month, i) => ({
        month,
        total_credits: 70000 + i * 5000,
      })),
    };
    const result = await svc(['reports', 'income', ID, '--chart'], {
      tty: true,
      rows: 10,
      service: new FakeService().expect('GET', `/v1/reports/${ID}/income`, { body }),
      pager,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(plain(pager.text)).toContain('Monthly credits');
  });
});

describe('never a pager', () => {
  it('in a pipe, or into a file: stdout is no terminal', async () => {
    const pager = new FakePager();
    for (const options of [{ tty: false }, { tty: true, stdoutTTY: false }]) {
      const result = await api(100, { pager, ...options });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.trimEnd().split('\n')).toHaveLength(102);
    }
    expect(pager.started).toEqual([]);
  });

  it('on a terminal that tells no height', async () => {
    const pager = new FakePager();
    const result = await api(100, { pager, rows: undefined });
    expect(result.code, result.stderr).toBe(0);
    expect(pager.started).toEqual([]);
    expect(plain(result.stdout).trimEnd().split('\n')).toHaveLength(102);
  });

  it.each([
    ['--no-pager', ['--no-pager'], {}],
    ['SVC_PAGER=""', [], { SVC_PAGER: '' }],
    ['PAGER=""', [], { PAGER: '' }],
    ['PAGER=cat', [], { PAGER: 'cat' }],
    ['--no-pager over SVC_PAGER', ['--no-pager'], { SVC_PAGER: 'more' }],
    ['SVC_PAGER="" over PAGER', [], { SVC_PAGER: '', PAGER: 'more' }],
  ] as const)('with %s', async (_name, args, env) => {
    const pager = new FakePager();
    const result = await api(100, { pager, env }, [...args]);
    expect(result.code, result.stderr).toBe(0);
    expect(pager.started).toEqual([]);
    expect(plain(result.stdout).trimEnd().split('\n')).toHaveLength(102);
    expect(result.stderr).toBe('');
  });

  it('for webhooks listen, which runs on: its event lines are printed directly', async () => {
    const pager = new FakePager();
    const port = await freePort();
    const secret = 'whsec_pager_test_secret';
    const run = svc(['webhooks', 'listen', '--port', String(port), '--exit-after', '3'], {
      tty: true,
      rows: 2,
      pager,
      realWaits: true,
      env: { SVC_WEBHOOK_SECRET: secret },
    });
    await listeningOn(port);
    for (const id of ['rpt_1', 'rpt_2', 'rpt_3']) {
      const body = JSON.stringify({
        event: 'report.ready',
        report_id: id,
        timestamp: new Date().toISOString(),
      });
      expect(
        await post(`http://127.0.0.1:${port}/hooks`, body, {
          'X-Svc-Signature': signatureHeader(secret, body),
        }),
      ).toBe(200);
    }
    const result = await run;
    expect(result.code, result.stderr).toBe(0);
    expect(pager.started).toEqual([]);
    expect(plain(result.stdout).trimEnd().split('\n')).toHaveLength(3);
  });
});

describe("which pager: SVC_PAGER, the profile's pager, PAGER, less -FRX", () => {
  it('in that order, each a command line as a shell splits it', async () => {
    const cases: [Record<string, string>, string | undefined, string[]][] = [
      [{}, undefined, ['less', '-FRX']],
      [{ PAGER: 'more -d' }, undefined, ['more', '-d']],
      [{ PAGER: 'more' }, 'less -R', ['less', '-R']],
      [
        { PAGER: 'more', SVC_PAGER: '\'/opt/my pager/bin/p\' --flag "a b"' },
        'less -R',
        ['/opt/my pager/bin/p', '--flag', 'a b'],
      ],
    ];
    for (const [env, saved, command] of cases) {
      const dir = `${Math.random()}`.slice(2);
      const config = { SVC_CONFIG_DIR: `${process.env.TMPDIR ?? '/tmp'}/svc-pager-${dir}` };
      if (saved !== undefined)
        expect((await svc(['config', 'set', 'pager', saved], { env: config })).code).toBe(0);
      const pager = new FakePager();
      const result = await api(100, { pager, env: { ...config, ...env } });
      expect(result.code, result.stderr).toBe(0);
      expect(pager.started.map((s) => s.command)).toEqual([command]);
    }
  });

  it('config set pager "" turns it off; a quote left open is refused (exit 2)', async () => {
    const config = {
      SVC_CONFIG_DIR: `${process.env.TMPDIR ?? '/tmp'}/svc-pager-off-${process.pid}`,
    };
    const set = await svc(['config', 'set', 'pager', ''], { env: config });
    expect(set.code, set.stderr).toBe(0);
    expect((await svc(['config', 'get', 'pager'], { env: config })).stdout).toBe('\n');
    const pager = new FakePager();
    const result = await api(100, { pager, env: { ...config, PAGER: 'more' } });
    expect(result.code, result.stderr).toBe(0);
    expect(pager.started).toEqual([]);
    const refused = await svc(['config', 'set', 'pager', "less '-R"], { env: config });
    expect(refused.code).toBe(2);
    expect(unwrapped(refused.stderr)).toBe(
      `error: pager takes a command line, as "less -R" ("" for none); a quote is left open in less '-R\n`,
    );
  });

  it("the pager's environment: LESS=FRX unless LESS is set, and none of svc's own variables (the key among them)", async () => {
    const pager = new FakePager();
    await api(100, { pager, env: { SVC_PAGER: 'less' } });
    const { env } = pager.started[0]!;
    expect(env.LESS).toBe('FRX');
    expect(Object.keys(env).filter((name) => name.startsWith('SVC_'))).toEqual([]);
    expect(JSON.stringify(env)).not.toContain(KEY);
    const own = new FakePager();
    await api(100, { pager: own, env: { LESS: '-R' } });
    expect(own.started[0]!.env.LESS).toBe('-R');
  });
});

describe('a pager that cannot start, or fails', () => {
  it.each([
    ['cannot start (not found)', new FakePager({ cannotStart: 'ENOENT' })],
    ['exits with an error at once', new FakePager({ exitAtOnce: 1 })],
  ])(
    '%s: the output printed directly, whole, nothing on stderr (a --debug line says why)',
    async (_name, pager) => {
      const result = await api(100, { pager });
      expect(result.code, result.stderr).toBe(0);
      expect(plain(result.stdout).trimEnd().split('\n')).toHaveLength(102);
      expect(result.stderr).toBe('');
      const debug = await api(100, { pager }, ['--debug']);
      expect(debug.stderr).toMatch(
        /^debug: the pager `less -FRX` (cannot start \(spawn less ENOENT\)|exited with 1); printing directly$/m,
      );
    },
  );

  it('a quote left open in SVC_PAGER: printed directly', async () => {
    const pager = new FakePager();
    const result = await api(100, { pager, env: { SVC_PAGER: 'less "-R' } });
    expect(result.code, result.stderr).toBe(0);
    expect(pager.started).toEqual([]);
    expect(plain(result.stdout).trimEnd().split('\n')).toHaveLength(102);
  });
});

describe('quitting the pager early', () => {
  it('is exit 0 with nothing on stderr, and the rest of the output is not made', async () => {
    const reply = manyTransactions(10_000);
    const pager = new FakePager({ quitAfter: 2000 });
    const service = new FakeService().expect('GET', `/v1/reports/${ID}/transactions`, {
      body: reply,
    });
    const result = await svc(['reports', 'transactions', ID], {
      tty: true,
      rows: ROWS,
      columns: 120,
      service,
      pager,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('');
    expect(pager.ended).toBe(false);
    // The whole table is some 10,000 lines, over half a megabyte: what was made past the pager's
    // quitting is a piece or two.
    const whole = await svc(['reports', 'transactions', ID, '--no-pager'], {
      tty: true,
      columns: 120,
      service: new FakeService().expect('GET', `/v1/reports/${ID}/transactions`, { body: reply }),
    });
    expect(whole.stdout.length).toBeGreaterThan(500_000);
    expect(pager.offered).toBeLessThan(whole.stdout.length / 4);
  });

  it('after svc api printed an error body: its own error still follows, after the pager', async () => {
    const pager = new FakePager({ quitAfter: 10 });
    const body = {
      error_code: 'REPORT_NOT_FOUND',
      error_message: 'no such report',
      items: Array.from({ length: 40 }, (_, i) => i),
    };
    const service = new FakeService().expect('GET', '/v1/reports', { status: 404, body });
    const result = await svc(['api', 'reports'], { tty: true, rows: ROWS, service, pager });
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: HTTP 404: REPORT_NOT_FOUND: no such report$/m);
  });
});
