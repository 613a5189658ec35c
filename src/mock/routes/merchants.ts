// POST /v1/merchants/resolve: terminal numbers and merchant-name strings in, merchants out.
// FULL scope (checked by api.ts), at most 1000 lookups a call, one billing unit a call.
import { JsonText, parseJsonBody, type Reply, stringsNeedNoEscape } from '../http.js';
import { merchantDirectory } from '../merchants/directory.js';
import { type Call, invalid, type Route } from '../route.js';

/** Lookups one call may carry (terminals and names together). */
export const MAX_LOOKUPS_PER_CALL = 1000;
/** Longest lookup value accepted; longer ones are no terminal number or shop name. */
const MAX_LOOKUP_LENGTH = 256;

export const merchantRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/v1\/merchants\/resolve$/,
    scope: 'FULL',
    handle: resolveMerchants,
  },
];

function resolveMerchants({ request, key, store }: Call): Reply {
  const { terminals, names } = readBody(request.body);
  store.charge(key.organization_id, 'merchant_resolve', 1);
  const directory = merchantDirectory();
  const results = directory.resolveJson(terminals, names, stringsNeedNoEscape(request.body));
  // {"data": {"count", "matched", "results"}, "meta": {"source"}}, written by hand around the
  // results.
  const json = `{"data":{"count":${terminals.length + names.length},"matched":${results.matched},"results":${results.json}},"meta":{"source":${JSON.stringify(directory.source)}}}`;
  return { status: 200, body: new JsonText(json) };
}

function readBody(body: Call['request']['body']): { terminals: string[]; names: string[] } {
  const parsed = parseJsonBody(body);
  const value = parsed.ok ? parsed.value : undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalid('The request body must be a JSON object: {"terminals": [...], "names": [...]}.');
  }
  const terminals = lookupList(value, 'terminals');
  const names = lookupList(value, 'names');
  const total = terminals.length + names.length;
  if (total === 0) throw invalid("Give at least one lookup in 'terminals' or 'names'.");
  if (total > MAX_LOOKUPS_PER_CALL) {
    throw invalid(
      `A call may carry at most ${MAX_LOOKUPS_PER_CALL} lookups; this one has ${total}. Split them into several calls.`,
    );
  }
  return { terminals, names };
}

function lookupList(body: object, field: 'terminals' | 'names'): string[] {
  const list = (body as Record<string, unknown>)[field];
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw invalid(`'${field}' must be an array of strings.`);
  list.forEach((item, index) => {
    if (typeof item !== 'string') throw invalid(`'${field}[${index}]' must be a string.`);
    if (item.trim() === '') throw invalid(`'${field}[${index}]' is empty.`);
    if (item.length > MAX_LOOKUP_LENGTH)
      throw invalid(`'${field}[${index}]' is longer than ${MAX_LOOKUP_LENGTH} characters.`);
  });
  return list as string[];
}
