// An on-disk cache of reply bodies, one file per profile and URL, so repeated dataset reads do
// not spend the Data API quota. Files hold the URL, when it was fetched, the dataset's `as_of`
// date and the body exactly as received; never a header, so never the API key. They are written
// atomically (an exclusive temporary file renamed into place) with mode 0600 in folders of mode
// 0700. An entry is trusted only where no other user could have put it: the cache folder, its
// folders and the file must be the user's own and writable by nobody else; else the cache is
// bypassed.
import { lstatSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { replaceFile } from '../core/replace-file.js';
import { readTrustedFile, untrustedFolderReason } from '../core/trusted-files.js';

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
  private readonly root: string;
  private readonly dir: string;
  private noted = false;

  /**
   * `root` is the cache directory (SVC_CACHE_DIR or the platform's); one folder per profile under
   * it. `note` hears, once, why the cache is bypassed (for --debug).
   */
  constructor(
    root: string,
    profile: string,
    private readonly note: (line: string) => void = () => {},
  ) {
    this.root = root;
    // Profile names are plain, but "." and ".." must not become paths.
    this.dir = join(root, 'replies', encodeURIComponent(profile).replace(/^\./, '%2E'));
  }

  fileFor(url: string): string {
    return join(this.dir, `${urlKey(url)}.json`);
  }

  /** The entry stored for this URL, or undefined when there is none or it cannot be read. */
  read(url: string): CacheEntry | undefined {
    if (this.bypassed()) return undefined;
    let entry: Partial<CacheEntry>;
    try {
      const text = readTrustedFile(this.fileFor(url), (reason) =>
        this.noteOnce(`debug: reply cache entry not used: ${reason}`),
      );
      entry = JSON.parse(text.toString('utf8')) as Partial<CacheEntry>;
    } catch {
      return undefined; // missing, unreadable, damaged or not trusted: fetch anew
    }
    const valid =
      entry.url === url &&
      typeof entry.raw === 'string' &&
      typeof entry.fetched_at === 'string' &&
      !Number.isNaN(Date.parse(entry.fetched_at)) &&
      (entry.as_of === null || typeof entry.as_of === 'string');
    return valid ? (entry as CacheEntry) : undefined;
  }

  /**
   * Stores an entry, replacing the old one in one step (not in a cache that is bypassed). Throws
   * when the folder cannot be written.
   */
  write(entry: CacheEntry): void {
    if (this.bypassed()) return;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    replaceFile(this.fileFor(entry.url), JSON.stringify(entry));
  }

  /**
   * True when a folder of the cache could hold another user's files; says why through `note`, once.
   */
  private bypassed(): boolean {
    const reason = untrustedFolderReason([
      [this.root, statSync], // the user may point SVC_CACHE_DIR through a link of their own
      [join(this.root, 'replies'), lstatSync],
      [this.dir, lstatSync],
    ]);
    if (reason) this.noteOnce(`debug: reply cache not used: ${reason}`);
    return reason !== undefined;
  }

  private noteOnce(line: string): void {
    if (this.noted) return;
    this.noted = true;
    this.note(line);
  }
}

/**
 * The file name of a URL's entry: 106 bits of two seeded cyrb53 hashes, in hex. A read checks the
 * URL the entry holds, so a collision costs a fetch, never a wrong reply. Not node:crypto: it takes
 * ~4 ms to load, which a dataset command (and a TAB, this module is in the completion entry) would
 * pay at every run.
 */
function urlKey(url: string): string {
  return cyrb53(url, 0) + cyrb53(url, 0x9e3779b9);
}

function cyrb53(text: string, seed: number): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

/**
 * When a cached reply stops being used: after `maxAgeMs`, or when a month begins after both its
 * `as_of` date and the moment it was fetched (the central bank publishes monthly, so from then on
 * a newer month may be out), whichever comes first.
 */
export function expiresAt(
  entry: Pick<CacheEntry, 'fetched_at' | 'as_of'>,
  maxAgeMs: number,
): number {
  const fetched = Date.parse(entry.fetched_at);
  const asOf =
    entry.as_of && /^\d{4}-\d{2}-\d{2}$/.test(entry.as_of)
      ? Date.parse(`${entry.as_of}T00:00:00Z`)
      : NaN;
  const anchor = new Date(Number.isNaN(asOf) ? fetched : Math.max(asOf, fetched));
  const nextMonth = Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() + 1, 1);
  return Math.min(fetched + maxAgeMs, nextMonth);
}

export function isFresh(
  entry: Pick<CacheEntry, 'fetched_at' | 'as_of'>,
  maxAgeMs: number,
  now: number = Date.now(),
): boolean {
  return now < expiresAt(entry, maxAgeMs) && now >= Date.parse(entry.fetched_at) - 60_000;
}

/**
 * Stores a reply, unless it holds a secret in use in any form (a key is never written to disk). A
 * cache that cannot be written costs only speed: it is reported through `warn`, not thrown.
 */
export function storeReply(
  cache: Pick<ReplyCache, 'write'>,
  entry: CacheEntry,
  holdsSecret: (text: string) => boolean,
  warn: (message: string) => void,
): void {
  if (holdsSecret(entry.raw) || holdsSecret(entry.url)) return;
  try {
    cache.write(entry);
  } catch (error) {
    warn(
      `could not write the reply cache (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); use --no-cache or set SVC_CACHE_DIR`,
    );
  }
}
