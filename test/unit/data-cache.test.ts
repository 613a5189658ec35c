// The reply cache: one 0600 file per profile and URL, written atomically, and the rule that says
// how long a cached dataset reply is used.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { type CacheEntry, expiresAt, isFresh, ReplyCache } from '../../src/service/cache.js';

const HOUR = 3_600_000;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function root(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cache-unit-'));
  dirs.push(dir);
  return dir;
}

const entry = (url: string, overrides: Partial<CacheEntry> = {}): CacheEntry => ({
  url,
  fetched_at: '2026-11-22T10:00:00.000Z',
  as_of: '2026-11-16',
  raw: '{"data":{},"meta":{"as_of":"2026-11-16"}}',
  ...overrides,
});

describe('ReplyCache', () => {
  it('stores and reads back an entry per URL, in a 0600 file in 0700 folders, leaving no temporary file', () => {
    const dir = root();
    const cache = new ReplyCache(dir, 'default');
    const url = 'http://127.0.0.1:1/v1/data/cbank/cpi/latest';
    cache.write(entry(url));
    expect(cache.read(url)).toEqual(entry(url));
    expect(cache.read(`${url}?x=1`)).toBeUndefined();
    const file = cache.fileFor(url);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    expect(readdirSync(dirname(file))).toEqual([file.split('/').at(-1)]);
  });

  it('replaces an entry in one step', () => {
    const cache = new ReplyCache(root(), 'default');
    const url = 'http://h/v1/data/cbank/cpi/latest';
    cache.write(entry(url, { raw: '{"old":true}' }));
    cache.write(entry(url, { raw: '{"new":true}' }));
    expect(cache.read(url)?.raw).toBe('{"new":true}');
    expect(readdirSync(dirname(cache.fileFor(url)))).toHaveLength(1);
  });

  it('keeps profiles apart, and a profile named ".." inside the cache folder', () => {
    const dir = root();
    const url = 'http://h/v1/data/cbank/cpi/latest';
    const a = new ReplyCache(dir, 'default');
    const b = new ReplyCache(dir, 'work');
    a.write(entry(url));
    expect(b.read(url)).toBeUndefined();
    expect(a.fileFor(url)).not.toBe(b.fileFor(url));
    const dots = new ReplyCache(dir, '..');
    expect(relative(dir, dots.fileFor(url)).startsWith('..')).toBe(false);
  });

  it('treats a damaged or foreign file as no entry', () => {
    const cache = new ReplyCache(root(), 'default');
    const url = 'http://h/v1/data/cbank/cpi/latest';
    cache.write(entry(url));
    writeFileSync(cache.fileFor(url), '{"url": "http://h/v1/data/cbank/cpi/lat');
    expect(cache.read(url)).toBeUndefined();
    writeFileSync(cache.fileFor(url), JSON.stringify(entry('http://other/')));
    expect(cache.read(url)).toBeUndefined();
    writeFileSync(cache.fileFor(url), JSON.stringify({ ...entry(url), fetched_at: 'yesterday' }));
    expect(cache.read(url)).toBeUndefined();
  });

  it('writes only what it is given: the URL, the dates and the body', () => {
    const cache = new ReplyCache(root(), 'default');
    const url = 'http://h/v1/data/cbank/cpi/latest';
    cache.write(entry(url));
    expect(Object.keys(JSON.parse(readFileSync(cache.fileFor(url), 'utf8')))).toEqual([
      'url',
      'fetched_at',
      'as_of',
      'raw',
    ]);
  });
});

describe('freshness', () => {
  const fetched = Date.parse('2026-11-22T10:00:00Z');

  it('lasts max-age when no month begins before', () => {
    const e = entry('u');
    expect(expiresAt(e, 12 * HOUR)).toBe(fetched + 12 * HOUR);
    expect(isFresh(e, 12 * HOUR, fetched + 12 * HOUR - 1)).toBe(true);
    expect(isFresh(e, 12 * HOUR, fetched + 12 * HOUR)).toBe(false);
    expect(isFresh(e, 0, fetched)).toBe(false);
  });

  it('ends when a month begins after both the as_of date and the fetch', () => {
    const e = entry('u');
    expect(expiresAt(e, 30 * 24 * HOUR)).toBe(Date.parse('2026-12-01T00:00:00Z'));
    // An as_of later than the fetch moves the boundary with it.
    expect(expiresAt(entry('u', { as_of: '2026-12-03' }), 60 * 24 * HOUR)).toBe(
      Date.parse('2027-01-01T00:00:00Z'),
    );
    // An old as_of does not make every fetch stale: the next month after the fetch counts.
    expect(expiresAt(entry('u', { as_of: '2025-01-15' }), 12 * HOUR)).toBe(fetched + 12 * HOUR);
    // No as_of (or an unreadable one): max-age and the month of the fetch.
    expect(expiresAt(entry('u', { as_of: null }), 30 * 24 * HOUR)).toBe(
      Date.parse('2026-12-01T00:00:00Z'),
    );
    expect(expiresAt(entry('u', { as_of: 'soon' }), 30 * 24 * HOUR)).toBe(
      Date.parse('2026-12-01T00:00:00Z'),
    );
  });

  it('does not trust an entry from the future', () => {
    expect(isFresh(entry('u'), 12 * HOUR, fetched - 2 * HOUR)).toBe(false);
  });
});
