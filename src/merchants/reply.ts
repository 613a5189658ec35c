// The reply of one call, checked and put back in the order of its lookups. Only what merging walks
// is required: `data.results`, each with its `input` (docs/reference/output.md, "Reading replies").
// The check is by hand: a run of 200,000 lookups checks 200,000 results. Numbers JSON.parse would
// not give back as written are kept as received (exact-json.ts): the merged reply writes the
// service's own values.
import type { ApiReply } from '../api/client.js';
import type { MerchantReply, MerchantResult } from '../api/merchants.js';
import { UnexpectedReplyError } from '../core/errors.js';
import { exactBody } from '../core/json/exact-json.js';
import { isRecord, jsonType } from '../core/json/values.js';
import type { Lookup } from './lookup-set.js';

/** The reply's body when merging can walk it; otherwise exit 10 with what is wrong. */
export function checkedReply(reply: ApiReply, what: string): MerchantReply {
  const body = exactBody(reply.raw, reply.body);
  const results = isRecord(body) && isRecord(body.data) ? body.data.results : undefined;
  if (!Array.isArray(results)) {
    const found = !isRecord(body)
      ? `the body is ${jsonType(body)}`
      : !isRecord(body.data)
        ? '"data" is not an object'
        : `"data.results" is ${results === undefined ? 'missing' : jsonType(results)}`;
    throw new UnexpectedReplyError(
      `unexpected reply to ${what}: ${found}; merging needs the list data.results`,
    );
  }
  for (let i = 0; i < results.length; i++) {
    const result: unknown = results[i];
    if (!isRecord(result) || typeof result.input !== 'string') {
      throw new UnexpectedReplyError(
        `unexpected reply to ${what}: data.results[${i}] has no "input" text to match it to its lookup`,
      );
    }
  }
  return body as MerchantReply;
}

/** Results are matched to lookups by their `input` (and `type`, where it tells them apart). */
export function inLookupOrder(
  lookups: readonly Lookup[],
  results: readonly MerchantResult[],
  what: string,
): MerchantResult[] {
  return inRequestOrder(lookups, results) ?? byInput(lookups, results, what);
}

/**
 * The results when they come as the request listed the lookups, the terminals' then the names'
 * (as the service answers): found by walking both lists, no map made; undefined otherwise.
 */
function inRequestOrder(
  lookups: readonly Lookup[],
  results: readonly MerchantResult[],
): MerchantResult[] | undefined {
  if (results.length !== lookups.length) return undefined;
  let terminals = 0;
  for (const lookup of lookups) if (lookup.type === 'terminal') terminals++;
  const ordered = new Array<MerchantResult>(lookups.length);
  let nextTerminal = 0;
  let nextName = terminals;
  for (let i = 0; i < lookups.length; i++) {
    const lookup = lookups[i]!;
    const result = results[lookup.type === 'terminal' ? nextTerminal++ : nextName++]!;
    if (result.input !== lookup.value || (result.type !== undefined && result.type !== lookup.type))
      return undefined;
    ordered[i] = result;
  }
  return ordered;
}

function byInput(
  lookups: readonly Lookup[],
  results: readonly MerchantResult[],
  what: string,
): MerchantResult[] {
  const byInput = new Map<string, MerchantResult>();
  // The same input as a terminal and as a name (`--name 1234567890123456`) is rare: kept aside.
  let twins: MerchantResult[] | undefined;
  for (const result of results) {
    if (byInput.has(result.input)) (twins ??= []).push(result);
    else byInput.set(result.input, result);
  }
  return lookups.map((lookup) => {
    let result = byInput.get(lookup.value);
    if (twins && result && result.type !== lookup.type)
      result = twins.find((r) => r.input === lookup.value && r.type === lookup.type) ?? result;
    if (!result)
      throw new UnexpectedReplyError(
        `unexpected reply to ${what}: no result for the ${lookup.type} "${lookup.value}"`,
      );
    return result;
  });
}
