// Times for people (src/core/output/time.ts): the local zone with its offset named, how far off a
// time is, and anything that is no timestamp with a zone shown as received. The clock is fixed.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { createPaint } from '../../src/core/output/paint.js';
import { renderTable } from '../../src/core/output/render.js';
import {
  formatLocalTime,
  formatTimestamp,
  parseTimestamp,
  relativeRuleFor,
  relativeTime,
  timeZoneOf,
} from '../../src/core/output/time.js';
import type { RecordView } from '../../src/core/output/view.js';

const NOW = Date.parse('2026-05-22T10:00:00Z');
const KATHMANDU = 'Asia/Kathmandu';
const NEW_YORK = 'America/New_York';

describe('formatTimestamp: the local zone, its offset named', () => {
  it.each([
    ['UTC', '2026-11-23T14:30:00Z', '2026-11-23 14:30 UTC'],
    [KATHMANDU, '2026-11-23T14:30:00Z', '2026-11-23 20:15 +0545'],
    // A day boundary crossed in the zone.
    [KATHMANDU, '2026-05-31T20:00:00Z', '2026-06-01 01:45 +0545'],
    [NEW_YORK, '2026-06-01T00:00:00Z', '2026-05-31 20:00 -0400'],
    [NEW_YORK, '2026-12-01T00:00:00Z', '2026-11-30 19:00 -0500'],
    // Offsets and fractions as the service may write them.
    ['UTC', '2026-05-22T15:45:00+05:45', '2026-05-22 10:00 UTC'],
    ['UTC', '2026-05-22T15:45:00.123456+0545', '2026-05-22 10:00 UTC'],
    [KATHMANDU, '2026-05-22T10:00Z', '2026-05-22 15:45 +0545'],
    ['UTC', '2026-05-22t10:00:59z', '2026-05-22 10:00 UTC'],
  ])('in %s, %s is %s', (zone, text, shown) => {
    expect(formatTimestamp(text, { zone })).toBe(shown);
  });

  it('follows New York across both DST changes of 2026 (8 March, 1 November)', () => {
    const at = (text: string) => formatTimestamp(text, { zone: NEW_YORK });
    expect(at('2026-03-08T06:59:00Z')).toBe('2026-03-08 01:59 -0500');
    expect(at('2026-03-08T07:00:00Z')).toBe('2026-03-08 03:00 -0400');
    expect(at('2026-11-01T05:30:00Z')).toBe('2026-11-01 01:30 -0400');
    expect(at('2026-11-01T06:30:00Z')).toBe('2026-11-01 01:30 -0500');
  });

  it('Kathmandu has no DST: +0545 all year', () => {
    for (const month of ['01', '04', '07', '10'])
      expect(formatTimestamp(`2026-${month}-15T00:00:00Z`, { zone: KATHMANDU })).toMatch(
        / \+0545$/,
      );
  });

  it.each([
    ['a date alone', '2026-05-22'],
    ['a time without zone', '2026-05-22T10:00:00'],
    ['a day that does not exist', '2026-02-30T10:00:00Z'],
    ['29 February of a common year', '2026-02-29T10:00:00Z'],
    ['hour 24', '2026-05-22T24:00:00Z'],
    ['minute 60', '2026-05-22T10:60:00Z'],
    ['month 13', '2026-13-01T00:00:00Z'],
    ['an offset out of range', '2026-05-22T10:00:00+25:00'],
    ['words', 'yesterday'],
    ['an empty string', ''],
    ['a timestamp inside text', 'at 2026-05-22T10:00:00Z'],
    ['a Unix time', '1779444000'],
    ['an HTTP date', 'Fri, 22 May 2026 10:00:00 GMT'],
  ])('shows %s as received: %j', (_what, text) => {
    for (const zone of ['UTC', KATHMANDU, NEW_YORK])
      expect(formatTimestamp(text, { zone, now: NOW }, 'always')).toBe(text);
  });

  it('never says "Invalid Date" or NaN, whatever the text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          fc.constantFrom('0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '2024-02-29T12:00:00Z'),
        ),
        (text) => {
          const shown = formatTimestamp(text, { zone: KATHMANDU, now: NOW }, 'always');
          expect(shown).not.toMatch(/Invalid|NaN|undefined/);
          if (parseTimestamp(text) === undefined) expect(shown).toBe(text);
          // (Before 1920 Kathmandu kept its local mean time, +0541.)
          else expect(shown).toMatch(/^\d{4,5}-\d{2}-\d{2} \d{2}:\d{2} (\+05(45|30|41)) \(/);
        },
      ),
    );
  });

  it('reads a leap day of a leap year', () => {
    expect(parseTimestamp('2024-02-29T00:00:00Z')).toBe(Date.parse('2024-02-29T00:00:00Z'));
    expect(formatLocalTime(Date.parse('2024-02-29T00:00:00Z'), 'UTC')).toBe('2024-02-29 00:00 UTC');
  });
});

describe('relativeTime: how far off, as gh says it', () => {
  const from = (ms: number) => relativeTime(NOW + ms, NOW);
  const MIN = 60_000;
  const H = 60 * MIN;
  const DAY = 24 * H;
  it.each([
    [-30_000, 'just now'],
    [0, 'in under a minute'],
    [30_000, 'in under a minute'],
    [-MIN, '1 min ago'],
    [-5 * MIN, '5 min ago'],
    [20 * MIN, 'in 20 min'],
    [-3 * H, '3 h ago'],
    [-3 * H - 20 * MIN, '3 h ago'],
    [23 * H, 'in 23 h'],
    [-DAY, '1 day ago'],
    [8 * DAY, 'in 8 days'],
    [9 * DAY + 14 * H, 'in 10 days'],
    [-44 * DAY, '44 days ago'],
    [60 * DAY, 'in 2 months'],
    [-400 * DAY, '1 year ago'],
    [3 * 365 * DAY, 'in 3 years'],
  ])('%d ms from now is %s', (ms, said) => {
    expect(from(ms)).toBe(said);
  });
});

describe('formatTimestamp: how far off, where the rule says so', () => {
  const setting = { zone: KATHMANDU, now: NOW };
  it('an expiry or a reset always says it', () => {
    expect(formatTimestamp('2026-06-01T00:00:00Z', setting, 'always')).toBe(
      '2026-06-01 05:45 +0545 (in 10 days)',
    );
    expect(formatTimestamp('2025-01-01T00:00:00Z', setting, 'always')).toBe(
      '2025-01-01 05:45 +0545 (1 year ago)',
    );
  });

  it('another time says it within a week, either way', () => {
    expect(formatTimestamp('2026-05-22T07:00:00Z', setting, 'recent')).toBe(
      '2026-05-22 12:45 +0545 (3 h ago)',
    );
    expect(formatTimestamp('2026-05-22T09:59:30Z', setting, 'recent')).toBe(
      '2026-05-22 15:44 +0545 (just now)',
    );
    expect(formatTimestamp('2026-05-16T10:00:00Z', setting, 'recent')).toBe(
      '2026-05-16 15:45 +0545 (6 days ago)',
    );
    expect(formatTimestamp('2026-05-10T10:00:00Z', setting, 'recent')).toBe(
      '2026-05-10 15:45 +0545',
    );
    expect(formatTimestamp('2026-05-22T07:00:00Z', setting, 'never')).toBe(
      '2026-05-22 12:45 +0545',
    );
  });

  it('says nothing of it without a clock', () => {
    expect(formatTimestamp('2026-06-01T00:00:00Z', { zone: 'UTC' }, 'always')).toBe(
      '2026-06-01 00:00 UTC',
    );
  });

  it('takes the rule from the field name', () => {
    for (const key of [
      'expires_at',
      'resets_at',
      'data_api.resets_at',
      'Expires',
      'valid_until',
      'next_date',
      'consent.expires_at',
    ])
      expect(relativeRuleFor(key), key).toBe('always');
    for (const key of [
      'created_at',
      'recorded_at',
      'issued_at',
      'last_read_at',
      'timestamp',
      'time',
      'expiresness',
    ])
      expect(relativeRuleFor(key), key).toBe('recent');
  });
});

describe('the system zone: read from the local clock, as Intl reads the same zone', () => {
  const ZONES = [
    KATHMANDU,
    NEW_YORK,
    'Europe/Dublin',
    'Africa/Monrovia',
    'Australia/Lord_Howe',
    'UTC',
  ];
  const systemZone = process.env.TZ;
  afterEach(() => {
    // Node follows a change of TZ at once; the run's own zone comes back after each test.
    if (systemZone === undefined) delete process.env.TZ;
    else process.env.TZ = systemZone;
  });

  it.each(ZONES)('in %s, from 1850 to 2100, to the second before time zones', (zone) => {
    process.env.TZ = zone;
    const moments = fc.date({
      min: new Date('1850-01-01T00:00:00Z'),
      max: new Date('2100-12-31T23:59:59Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(moments, (moment) => {
        const at = moment.getTime();
        expect(formatLocalTime(at)).toBe(formatLocalTime(at, zone));
      }),
      { numRuns: 500 },
    );
    // Kathmandu kept its local mean time, +05:41:16, until 1920: the seconds move the minute.
    if (zone === KATHMANDU) {
      expect(formatLocalTime(Date.parse('1900-01-01T10:00:50Z'))).toBe('1900-01-01 15:42 +0541');
    }
  });

  it('needs no Intl formatter, whose first one costs a run 10–20 ms', async () => {
    process.env.TZ = KATHMANDU;
    // A fresh module: no formatter an earlier test made is kept.
    vi.resetModules();
    const fresh = await import('../../src/core/output/time.js');
    const made = vi.spyOn(Intl, 'DateTimeFormat');
    try {
      expect(fresh.formatTimestamp('2026-05-22T10:00:00Z', { now: NOW }, 'always')).toBe(
        '2026-05-22 15:45 +0545 (in under a minute)',
      );
      expect(made).not.toHaveBeenCalled();
    } finally {
      made.mockRestore();
    }
  });
});

describe('timeZoneOf: TZ, when Intl knows it', () => {
  it.each([
    [{ TZ: KATHMANDU }, KATHMANDU],
    [{ TZ: ':Asia/Kathmandu' }, KATHMANDU],
    [{ TZ: 'UTC' }, 'UTC'],
    [{ TZ: NEW_YORK }, NEW_YORK],
    // Not a zone Intl knows, or none at all: the system's zone (what Node itself made of TZ).
    [{ TZ: 'Mars/Olympus' }, undefined],
    [{ TZ: 'NPT-5:45' }, undefined],
    [{ TZ: ':/etc/localtime' }, undefined],
    [{ TZ: '' }, undefined],
    [{}, undefined],
  ])('%j → %s', (env, zone) => {
    expect(timeZoneOf(env)).toBe(zone);
  });
});

describe('tables show times for people, in the zone of the run', () => {
  const view: RecordView<Record<string, string>> = {
    kind: 'record',
    record: {
      created_at: '2026-05-22T07:00:00Z',
      expires_at: '2026-06-01T00:00:00Z',
      period: '2026-05',
      note: '2026-13-01T00:00:00Z',
    },
    fields: ['created_at', 'expires_at', 'period', 'note'].map((key) => ({
      key,
      header: key,
      value: (r: Record<string, string>) => r[key],
    })),
  };

  it('a terminal: the local time and how far off', async () => {
    const out = renderTable(view, {
      terminal: true,
      width: 80,
      paint: await createPaint(false),
      time: { now: NOW, zone: KATHMANDU },
    });
    expect(out.split('\n')).toEqual([
      'created_at  2026-05-22 12:45 +0545 (3 h ago)',
      'expires_at  2026-06-01 05:45 +0545 (in 10 days)',
      'period      2026-05',
      'note        2026-13-01T00:00:00Z',
      '',
    ]);
    // The date, time and zone are glued only while the table is fitted: the terminal gets spaces.
    expect(out).not.toContain('\u00a0');
  });

  it('a pipe: the local time alone, a stable value for a script', async () => {
    const out = renderTable(view, {
      terminal: false,
      width: 80,
      paint: await createPaint(false),
      time: { now: NOW, zone: NEW_YORK },
    });
    expect(out).toBe(
      'FIELD\tVALUE\ncreated_at\t2026-05-22 03:00 -0400\nexpires_at\t2026-05-31 20:00 -0400\nperiod\t2026-05\nnote\t2026-13-01T00:00:00Z\n',
    );
  });

  it('a narrow terminal breaks a time between the time and how far off, never inside the time', async () => {
    const out = renderTable(view, {
      terminal: true,
      width: 34,
      paint: await createPaint(false),
      time: { now: NOW, zone: KATHMANDU },
    });
    expect(out).toContain('2026-06-01 05:45 +0545');
    expect(out).toContain('(in 10 days)');
  });
});
