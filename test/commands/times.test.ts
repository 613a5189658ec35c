// Times in tables, in-process with the fixed clock (2026-05-22 10:00 UTC): in the zone TZ names,
// the offset named, and on a terminal how far off they are; --json, ndjson and csv keep the
// service's values exactly as received. (The formatting itself: test/unit/time.test.ts.)
import { describe, expect, it, vi } from 'vitest';

import { FakeService, plain, svc } from '../support/in-process.js';

const REPORTS = {
  data: [
    {
      report_id: 'cl_abc123',
      status: 'complete',
      bank_code: 'NABIL',
      created_at: '2026-05-20T08:30:00Z',
    },
    {
      report_id: 'cl_old',
      status: 'complete',
      bank_code: 'NMB',
      created_at: '2026-01-02T23:30:00Z',
    },
    { report_id: 'cl_odd', status: 'complete', bank_code: 'NMB', created_at: '20 May 2026' },
  ],
};
const USAGE = {
  plan: 'growth',
  quota: 100,
  used: 23,
  remaining: 77,
  period: '2026-05',
  resets_at: '2026-06-01T00:00:00Z',
};
const CONSENTS = {
  data: [
    {
      id: 'cns_1',
      status: 'active',
      created_at: '2026-05-22T09:58:00Z',
      expires_at: '2026-06-21T09:58:00Z',
    },
  ],
};

const reports = () => new FakeService().expect('GET', '/v1/reports', { body: REPORTS });
const rows = (stdout: string) => plain(stdout).trimEnd().split('\n');

describe('times in tables', () => {
  it('a person in Kathmandu: local times with +0545, a recent one says how long ago', async () => {
    const result = await svc(['reports', 'list'], {
      tty: true,
      columns: 120,
      env: { TZ: 'Asia/Kathmandu' },
      service: reports(),
    });
    expect(result.code).toBe(0);
    const screen = plain(result.stdout);
    expect(screen).toMatch(
      /│ cl_abc123 │ complete │ NABIL +│ 2026-05-20 14:15 \+0545 \(2 days ago\) │/,
    );
    // Older than a week: the date speaks for itself. Across midnight in the zone: the next day.
    expect(screen).toMatch(/│ cl_old +│ complete │ NMB +│ 2026-01-03 05:15 \+0545 +│/);
    // Not a timestamp: as received, never "Invalid Date".
    expect(screen).toMatch(/│ cl_odd +│ complete │ NMB +│ 20 May 2026 +│/);
    expect(screen).not.toMatch(/Invalid|NaN/);
  });

  it('a TZ the process itself runs in: the same times, read without Intl (its locale data costs a run 10–20 ms)', async () => {
    const own = process.env.TZ;
    process.env.TZ = 'Asia/Kathmandu';
    const formatted = vi.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts');
    try {
      const result = await svc(['reports', 'list'], {
        env: { TZ: 'Asia/Kathmandu' },
        service: reports(),
      });
      expect(rows(result.stdout)[1]).toBe('cl_abc123\tcomplete\tNABIL\t2026-05-20 14:15 +0545');
      expect(formatted).not.toHaveBeenCalled();
    } finally {
      formatted.mockRestore();
      if (own === undefined) delete process.env.TZ;
      else process.env.TZ = own;
    }
  });

  it('a script in New York: local times with their offset, no "ago" (a stable value)', async () => {
    const result = await svc(['reports', 'list'], {
      env: { TZ: 'America/New_York' },
      service: reports(),
    });
    expect(rows(result.stdout)).toEqual([
      'ID\tSTATUS\tBANK\tCREATED',
      'cl_abc123\tcomplete\tNABIL\t2026-05-20 04:30 -0400',
      'cl_old\tcomplete\tNMB\t2026-01-02 18:30 -0500',
      'cl_odd\tcomplete\tNMB\t20 May 2026',
    ]);
  });

  it.each([
    ['--json', (stdout: string) => expect(JSON.parse(stdout)).toEqual(REPORTS)],
    [
      '-o ndjson',
      (stdout: string) =>
        expect(stdout).toBe(REPORTS.data.map((r) => JSON.stringify(r)).join('\n') + '\n'),
    ],
    [
      '-o csv',
      (stdout: string) =>
        expect(stdout.split('\r\n').slice(1, 3)).toEqual([
          'cl_abc123,complete,NABIL,2026-05-20T08:30:00Z',
          'cl_old,complete,NMB,2026-01-02T23:30:00Z',
        ]),
    ],
  ])(
    '%s keeps the times exactly as the service sent them, whatever TZ says',
    async (flags, check) => {
      for (const tty of [true, false]) {
        const result = await svc(['reports', 'list', ...flags.split(' ')], {
          tty,
          env: { TZ: 'Asia/Kathmandu', NO_COLOR: '1' },
          service: reports(),
        });
        expect(result.code).toBe(0);
        check(result.stdout);
      }
    },
  );

  it('svc usage: when the quota resets, in the zone, and on a terminal in how many days', async () => {
    const service = () => new FakeService().expect('GET', '/v1/usage', { body: USAGE });
    const person = await svc(['usage'], {
      tty: true,
      env: { TZ: 'America/New_York' },
      service: service(),
    });
    expect(rows(person.stdout)).toContain('Resets     2026-05-31 20:00 -0400 (in 10 days)');
    const script = await svc(['usage'], { env: { TZ: 'Asia/Kathmandu' }, service: service() });
    expect(rows(script.stdout)).toContain('resets_at\t2026-06-01 05:45 +0545');
  });

  it('a reply no document shows (consents list): its times too, an expiry with how far off', async () => {
    const result = await svc(['consents', 'list'], {
      tty: true,
      columns: 160,
      env: { TZ: 'Asia/Kathmandu' },
      service: new FakeService().expect('GET', '/v1/consents', { body: CONSENTS }),
    });
    expect(result.code).toBe(0);
    const screen = plain(result.stdout);
    expect(screen).toContain('2026-05-22 15:43 +0545 (2 min ago)');
    expect(screen).toContain('2026-06-21 15:43 +0545 (in 30 days)');
  });

  it('UTC is named UTC', async () => {
    const result = await svc(['reports', 'list'], { env: { TZ: 'UTC' }, service: reports() });
    expect(rows(result.stdout)[1]).toBe('cl_abc123\tcomplete\tNABIL\t2026-05-20 08:30 UTC');
  });
});
