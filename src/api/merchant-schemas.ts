// Shape of the reply of POST /v1/merchants/resolve (spec: "Merchant lookup result"). Loose like
// every schema: fields the service adds later pass through to --json and -o ndjson untouched.
import * as z from 'zod/mini';

const text = z.nullish(z.string());

export const merchantResult = z.looseObject({
  input: z.string(),
  /** `terminal` is the only value the spec gives; the mock also answers `name`. */
  type: z.string(),
  matched: z.boolean(),
  merchant: text,
  mcc: text,
  category: text,
  city: text,
  terminal: text,
});

export const merchantReply = z.looseObject({
  data: z.looseObject({
    count: z.int(),
    matched: z.int(),
    results: z.array(merchantResult),
  }),
  meta: z.looseObject({ source: z.string() }),
});

export type MerchantResult = z.infer<typeof merchantResult>;
export type MerchantReply = z.infer<typeof merchantReply>;
