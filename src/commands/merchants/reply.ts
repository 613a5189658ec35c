// The reply of one call, checked and put back in the order of its lookups. The check of the
// documented shape is done by hand here: a run of 200,000 lookups checks 200,000 results, and
// zod (loaded only to explain a reply that fails) would copy each one and add its start-up time.
import type { ApiReply } from '../../api/client.js';
import type { MerchantReply, MerchantResult } from '../../api/merchant-schemas.js';
import { UnexpectedReplyError } from '../../core/errors.js';
import type { Lookup } from './lookup-set.js';

const OPTIONAL_TEXT = ['merchant', 'mcc', 'category', 'city', 'terminal'] as const;

/** The same verdict as `merchantReply.safeParse(body).success` (a unit test holds them together). */
export function isMerchantReply(body: unknown): body is MerchantReply {
  if (!isRecord(body) || !isRecord(body.data) || !isRecord(body.meta) || typeof body.meta.source !== 'string') return false;
  const { count, matched, results } = body.data;
  if (!Number.isSafeInteger(count) || !Number.isSafeInteger(matched) || !Array.isArray(results)) return false;
  for (const result of results) {
    if (!isRecord(result) || typeof result.input !== 'string' || typeof result.type !== 'string' || typeof result.matched !== 'boolean') return false;
    for (const key of OPTIONAL_TEXT) {
      const value = result[key];
      if (value !== undefined && value !== null && typeof value !== 'string') return false;
    }
  }
  return true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The reply's body when it has the documented shape; otherwise exit 10 with what is wrong. */
export async function checkedReply(reply: ApiReply, what: string): Promise<MerchantReply> {
  if (isMerchantReply(reply.body)) return reply.body;
  const [{ merchantReply }, { parseShape }] = await Promise.all([import('../../api/merchant-schemas.js'), import('../../api/shape.js')]);
  return parseShape(merchantReply, reply, what);
}

/** Results are matched to lookups by their `input` (and `type`, where it tells them apart). */
export function inLookupOrder(lookups: readonly Lookup[], results: readonly MerchantResult[], what: string): MerchantResult[] {
  const byInput = new Map<string, MerchantResult>();
  // The same input as a terminal and as a name (`--name 1234567890123456`) is rare: kept aside.
  let twins: MerchantResult[] | undefined;
  for (const result of results) {
    if (byInput.has(result.input)) (twins ??= []).push(result);
    else byInput.set(result.input, result);
  }
  return lookups.map((lookup) => {
    let result = byInput.get(lookup.value);
    if (twins && result && result.type !== lookup.type) result = twins.find((r) => r.input === lookup.value && r.type === lookup.type) ?? result;
    if (!result) throw new UnexpectedReplyError(`unexpected reply to ${what}: no result for the ${lookup.type} "${lookup.value}"`);
    return result;
  });
}
