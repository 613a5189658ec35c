// The reply of POST /v1/merchants/resolve (spec: "Merchant lookup result"): `data` = {count,
// matched, results[]}, `meta` = {source}. Merging batches walks `data.results` and matches each
// result to its lookup by `input`: those two are required; every other field is read if present.

export interface MerchantResult {
  input: string;
  /** `terminal` is the only value the spec gives; `name` is likely. */
  type?: unknown;
  matched?: unknown;
  merchant?: unknown;
  mcc?: unknown;
  category?: unknown;
  city?: unknown;
  terminal?: unknown;
  [field: string]: unknown;
}

export interface MerchantReply {
  data: { results: MerchantResult[]; [field: string]: unknown };
  meta?: unknown;
  [field: string]: unknown;
}
