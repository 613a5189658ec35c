// Every dataset request of `svc data`: through the reply cache when the command caches, checked
// against its shape before it is used or stored, and, when the Data API quota is used up, with a
// line saying when it resets.
import type * as z from 'zod/mini';
import type { ApiClient } from '../../api/client.js';
import { usage } from '../../api/schemas.js';
import { parseShape } from '../../api/shape.js';
import { isFresh, ReplyCache, storeReply, type CacheEntry } from '../../core/cache.js';
import type { Context } from '../../core/context.js';
import { ApiError } from '../../core/errors.js';
import { formatDateTime, printable } from '../../core/output/format.js';
import type { Reply } from '../../core/output/render.js';

export interface CachePolicy {
  /** False with --no-cache: no cached reply is used (the fresh one is still stored). */
  read: boolean;
  maxAgeMs: number;
}

export interface DatasetRequest {
  path: string;
  query: Record<string, string | undefined>;
}

/** Fetches a dataset reply (or takes it from the cache) and checks its shape. */
export async function fetchDataset<S extends z.ZodMiniType>(
  ctx: Context,
  request: DatasetRequest,
  schema: S,
  cache: CachePolicy | undefined,
): Promise<{ reply: Reply; data: z.infer<S> }> {
  const client = await ctx.client();
  const slot = cache ? await cacheSlot(ctx, request) : undefined;
  const hit = slot && cache?.read ? fromCache(ctx, slot, schema, cache.maxAgeMs) : undefined;
  if (hit) return hit;

  const fetchedAt = new Date();
  let reply;
  try {
    reply = await client.request({ method: 'GET', path: request.path, query: request.query });
  } catch (error) {
    if (error instanceof ApiError && error.envelope.error_code === 'QUOTA_EXCEEDED') throw await withQuotaReset(ctx, client, error);
    throw error;
  }
  const data = parseShape(schema, reply, `GET ${request.path}`);
  if (slot) {
    const entry = { url: slot.url, fetched_at: fetchedAt.toISOString(), as_of: asOf(reply.body), raw: reply.raw };
    storeReply(slot.store, entry, (await ctx.settings()).apiKey, (message) => ctx.warn(message));
  }
  return { reply, data };
}

/** Where a request's reply is cached: the profile's cache and the request's URL. */
interface CacheSlot {
  store: ReplyCache;
  url: string;
}

async function cacheSlot(ctx: Context, request: DatasetRequest): Promise<CacheSlot> {
  const { cacheDir } = await import('../../config/paths.js');
  const store = new ReplyCache(cacheDir(ctx.io.env), (await ctx.settings()).profile);
  return { store, url: await requestUrl(ctx, request) };
}

/** A fresh cached reply of the right shape, announced on stderr; undefined otherwise. */
function fromCache<S extends z.ZodMiniType>(ctx: Context, slot: CacheSlot, schema: S, maxAgeMs: number): { reply: Reply; data: z.infer<S> } | undefined {
  const entry = slot.store.read(slot.url);
  if (!entry || !isFresh(entry, maxAgeMs)) return undefined;
  const reply = replyOf(entry);
  const parsed = reply && schema.safeParse(reply.body);
  if (!reply || !parsed?.success) return undefined;
  ctx.err(`(from the cache, fetched ${age(Date.parse(entry.fetched_at))}; --no-cache fetches it anew)`);
  if (ctx.debug) ctx.err(`debug: cache hit ${slot.store.fileFor(slot.url)}`);
  return { reply, data: parsed.data };
}

/** The URL a request goes to, with its query sorted so the order of --param flags does not matter. */
async function requestUrl(ctx: Context, request: DatasetRequest): Promise<string> {
  const { requireBaseUrl } = await import('../../config/resolve.js');
  const url = new URL(requireBaseUrl(await ctx.settings()) + request.path);
  const entries = Object.entries(request.query).filter((e): e is [string, string] => e[1] !== undefined);
  for (const [name, value] of entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) url.searchParams.append(name, value);
  return url.toString();
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

function age(fetched: number, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - fetched) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  return `${(seconds / 3600).toFixed(1)} h ago`;
}

/**
 * The quota error with one more line: when the Data API quota resets (from `GET /v1/usage`, when
 * that works). Machine output keeps the envelope alone on stderr.
 */
async function withQuotaReset(ctx: Context, client: ApiClient, error: ApiError): Promise<ApiError> {
  if (ctx.machineOutput) return error;
  try {
    const reply = await client.request({ method: 'GET', path: '/v1/usage' });
    const resetsAt = parseShape(usage, reply, 'GET /v1/usage').quotas.find((q) => q.name === 'data_api')?.resets_at;
    if (resetsAt) error.hints.push(`The Data API quota resets at ${formatDateTime(printable(resetsAt))} (see \`svc usage\`).`);
  } catch {
    // no better news than the error itself
  }
  return error;
}
