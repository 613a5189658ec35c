// Every dataset request of `svc data`: through the reply cache when the command caches, and, when
// the Data API quota is used up, with a line saying when usage resets.
import type { ApiClient } from '../../api/client.js';
import { ENDPOINTS, requestUrl, target } from '../../api/endpoints.js';
import type { Context } from '../../app/context.js';
import type { CacheStore } from '../../app/services.js';
import { requireBaseUrl } from '../../config/resolve.js';
import { shownText } from '../../core/output/format.js';
import type { Reply } from '../../core/output/render.js';
import { formatTimestamp } from '../../core/output/time.js';
import { type CacheEntry, isFresh, storeReply } from '../../service/cache.js';
import { ApiError } from '../../service/errors.js';
import { ReplyReading } from '../../service/reading.js';

export interface CachePolicy {
  /** False with --no-cache: no cached reply is used (the fresh one is still stored). */
  read: boolean;
  maxAgeMs: number;
}

export interface DatasetRequest {
  path: string;
  query: Record<string, string | undefined>;
}

/** Fetches a dataset reply, or takes it from the cache. */
export async function fetchDataset(
  ctx: Context,
  request: DatasetRequest,
  cache: CachePolicy | undefined,
): Promise<{ reply: Reply }> {
  const client = await ctx.client();
  const slot = cache ? await cacheSlot(ctx, request) : undefined;
  const hit = slot && cache?.read ? fromCache(ctx, slot, cache.maxAgeMs) : undefined;
  if (hit) return hit;

  const fetchedAt = new Date(ctx.now());
  let reply;
  try {
    reply = await client.request({ method: 'GET', path: request.path, query: request.query });
  } catch (error) {
    if (error instanceof ApiError && error.envelope.error_code === 'QUOTA_EXCEEDED')
      throw await withQuotaReset(ctx, client, error);
    throw error;
  }
  if (slot) {
    const entry = {
      url: slot.url,
      fetched_at: fetchedAt.toISOString(),
      as_of: asOf(reply.body),
      raw: reply.raw,
    };
    // A reply holding the key in use, in any form, is never written to disk.
    storeReply(
      slot.store,
      entry,
      (text) => ctx.secrets.mask(text) !== text,
      (message) => ctx.warn(message),
    );
  }
  return { reply };
}

/** Where a request's reply is cached: the profile's cache and the request's URL. */
interface CacheSlot {
  store: CacheStore;
  url: string;
}

async function cacheSlot(ctx: Context, request: DatasetRequest): Promise<CacheSlot> {
  const url = requestUrl(
    requireBaseUrl(await ctx.config.settings()),
    request.path,
    request.query,
  ).toString();
  // A cache that others could have written is bypassed; --debug says why.
  return { store: await ctx.config.replyCache(), url };
}

/** A fresh cached reply that is JSON, announced on stderr; undefined otherwise. */
function fromCache(ctx: Context, slot: CacheSlot, maxAgeMs: number): { reply: Reply } | undefined {
  const entry = slot.store.read(slot.url);
  if (!entry || !isFresh(entry, maxAgeMs, ctx.now())) return undefined;
  const reply = replyOf(entry);
  if (!reply) return undefined;
  ctx.err(
    `(from the cache, fetched ${age(Date.parse(entry.fetched_at), ctx.now())}; --no-cache fetches it anew)`,
  );
  if (ctx.debug) ctx.err(`debug: cache hit ${slot.store.fileFor(slot.url)}`);
  return { reply };
}

function replyOf(entry: CacheEntry): Reply | undefined {
  try {
    return { raw: entry.raw, body: JSON.parse(entry.raw) as unknown };
  } catch {
    return undefined;
  }
}

function asOf(body: unknown): string | null {
  const value = (body as { meta?: { as_of?: unknown } } | null)?.meta?.as_of;
  return typeof value === 'string' ? value : null;
}

function age(fetched: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - fetched) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  return `${(seconds / 3600).toFixed(1)} h ago`;
}

/**
 * The quota error with one more line: when usage resets (from `GET /v1/usage`, when that works:
 * a Data API counter's own `resets_at` where the reply has one, else the documented one). An error
 * reported as JSON (a script reads it) keeps the envelope alone on stderr.
 */
async function withQuotaReset(ctx: Context, client: ApiClient, error: ApiError): Promise<ApiError> {
  if (ctx.jsonErrors) return error;
  try {
    const call = target(ENDPOINTS.usage);
    const reply = await client.request(call);
    const { readReply, QuotaResetReply } = await import('../../api/replies/usage.js');
    const r = readReply(new ReplyReading(call.what), QuotaResetReply, reply.body);
    const resetsAt = r?.data_api?.resets_at ?? r?.resets_at;
    if (resetsAt)
      error.hints.push(
        `Usage resets at ${formatTimestamp(shownText(resetsAt, ctx.secrets), { zone: ctx.timeZone() })} (see \`svc usage\`).`,
      );
  } catch {
    // no better news than the error itself
  }
  return error;
}
