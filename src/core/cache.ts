// An on-disk cache of reply bodies, one file per profile and URL, so repeated dataset reads do
// not spend the Data API quota. Files hold the URL, when it was fetched, the dataset's `as_of`
// date and the body exactly as received; never a header, so never the API key. They are written
// atomically (a temporary file renamed into place) with mode 0600 in folders of mode 0700.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** node:crypto takes ~4 ms to load: a TAB that lists profiles (this module is in the completion entry) must not pay it. */
const crypto = () => process.getBuiltinModule('node:crypto');

export interface CacheEntry {
  url: string;
  /** ISO 8601 date-time of the request. */
  fetched_at: string;
  /** The reply's `meta.as_of` (YYYY-MM-DD) when it had one. */
  as_of: string | null;
  /** The reply body exactly as received. */
  raw: string;
}

export class ReplyCache {
  private readonly dir: string;

  /** `root` is the cache directory (SVC_CACHE_DIR or the platform's); one folder per profile under it. */
  constructor(root: string, profile: string) {
    // Profile names are plain, but "." and ".." must not become paths.
    this.dir = join(root, 'replies', encodeURIComponent(profile).replace(/^\./, '%2E'));
  }

  fileFor(url: string): string {
    return join(this.dir, `${crypto().createHash('sha256').update(url).digest('hex')}.json`);
  }

  /** The entry stored for this URL, or undefined when there is none or it cannot be read. */
  read(url: string): CacheEntry | undefined {
    let entry: Partial<CacheEntry>;
    try {
      entry = JSON.parse(readFileSync(this.fileFor(url), 'utf8')) as Partial<CacheEntry>;
    } catch {
      return undefined; // missing, unreadable or damaged: fetch anew
    }
    const valid =
      entry.url === url &&
      typeof entry.raw === 'string' &&
      typeof entry.fetched_at === 'string' &&
      !Number.isNaN(Date.parse(entry.fetched_at)) &&
      (entry.as_of === null || typeof entry.as_of === 'string');
    return valid ? (entry as CacheEntry) : undefined;
  }

  /** Stores an entry, replacing the old one in one step. Throws when the folder cannot be written. */
  write(entry: CacheEntry): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = this.fileFor(entry.url);
    const temporary = `${file}.${process.pid}.${crypto().randomBytes(4).toString('hex')}.tmp`;
    try {
      writeFileSync(temporary, JSON.stringify(entry), { mode: 0o600, flag: 'wx' });
      renameSync(temporary, file);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
  }
}

/**
 * When a cached reply stops being used: after `maxAgeMs`, or when a month begins after both its
 * `as_of` date and the moment it was fetched (the central bank publishes monthly, so from then on
 * a newer month may be out), whichever comes first.
 */
export function expiresAt(entry: Pick<CacheEntry, 'fetched_at' | 'as_of'>, maxAgeMs: number): number {
  const fetched = Date.parse(entry.fetched_at);
  const asOf = entry.as_of && /^\d{4}-\d{2}-\d{2}$/.test(entry.as_of) ? Date.parse(`${entry.as_of}T00:00:00Z`) : NaN;
  const anchor = new Date(Number.isNaN(asOf) ? fetched : Math.max(asOf, fetched));
  const nextMonth = Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() + 1, 1);
  return Math.min(fetched + maxAgeMs, nextMonth);
}

export function isFresh(entry: Pick<CacheEntry, 'fetched_at' | 'as_of'>, maxAgeMs: number, now: number = Date.now()): boolean {
  return now < expiresAt(entry, maxAgeMs) && now >= Date.parse(entry.fetched_at) - 60_000;
}

/**
 * Stores a reply, unless it echoes the API key (a key is never written to disk). A cache that
 * cannot be written costs only speed: it is reported through `warn`, not thrown.
 */
export function storeReply(cache: ReplyCache, entry: CacheEntry, apiKey: string | undefined, warn: (message: string) => void): void {
  if (apiKey && (entry.raw.includes(apiKey) || entry.url.includes(apiKey))) return;
  try {
    cache.write(entry);
  } catch (error) {
    warn(`could not write the reply cache (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); use --no-cache or set SVC_CACHE_DIR`);
  }
}
