// Shapes of the service's replies. Every object is loose: fields the service adds later pass
// through untouched, and only what a table needs is checked.
import * as z from 'zod/mini';

const amount = z.number();
const isoDate = z.string();

export const reportSummary = z.looseObject({
  report_id: z.string(),
  status: z.enum(['complete', 'processing', 'failed']),
  bank_code: z.string(),
  created_at: isoDate,
});

export const reportList = z.looseObject({
  data: z.array(reportSummary),
});

export const report = z.extend(reportSummary, {
  account_holder: z.nullish(z.string()),
  account_number: z.nullish(z.string()),
  bank_name: z.nullish(z.string()),
  file_name: z.nullish(z.string()),
  pages: z.nullish(z.int()),
  transaction_count: z.nullish(z.int()),
  statement_period: z.nullish(z.looseObject({ from: isoDate, to: isoDate })),
  completed_at: z.nullish(isoDate),
  error: z.nullish(z.looseObject({ error_code: z.string(), error_message: z.string() })),
});

export const nameMatch = z.looseObject({
  match_score: z.int().check(z.minimum(0), z.maximum(100)),
  result: z.enum(['match', 'partial_match', 'no_match', 'no_data']),
  statement_name: z.nullable(z.string()),
  reasons: z.array(z.string()),
});

export const authView = z.looseObject({
  report_id: z.string(),
  account_holder: z.nullable(z.string()),
  account_number: z.nullable(z.string()),
  bank_code: z.string(),
  bank_name: z.nullish(z.string()),
  swift_bic: z.nullable(z.string()),
  swift_note: z.nullable(z.string()),
  verification_status: z.string(),
});

export const identityView = z.looseObject({
  report_id: z.string(),
  account_holder: z.nullable(z.string()),
  account_number: z.nullable(z.string()),
  bank_code: z.string(),
  bank_name: z.nullish(z.string()),
  currency: z.string(),
  statement_period: z.nullable(z.looseObject({ from: isoDate, to: isoDate })),
});

export const counterpartyType = z.enum(['merchant', 'individual', 'institution', 'wallet', 'cash', 'self']);

const flowByType = z.looseObject({
  type: counterpartyType,
  inflow: amount,
  outflow: amount,
  inflow_count: z.int(),
  outflow_count: z.int(),
});

const namedCounterparty = z.looseObject({
  name: z.string(),
  type: counterpartyType,
  inflow: amount,
  outflow: amount,
  transaction_count: z.int(),
});

export const counterpartiesView = z.looseObject({
  report_id: z.string(),
  currency: z.string(),
  total_inflow: amount,
  total_outflow: amount,
  by_type: z.array(flowByType),
  top_people: z.array(namedCounterparty),
  top_merchants: z.array(namedCounterparty),
});

export const recurringStream = z.looseObject({
  counterparty: z.string(),
  category: z.string(),
  cadence: z.string(),
  average_amount: amount,
  occurrences: z.int(),
  status: z.enum(['MATURE', 'EARLY_DETECTION']),
  is_active: z.boolean(),
  last_date: isoDate,
  next_date: z.nullable(isoDate),
});

export const recurringView = z.looseObject({
  report_id: z.string(),
  currency: z.string(),
  inflow_streams: z.array(recurringStream),
  outflow_streams: z.array(recurringStream),
});

export const statement = z.looseObject({
  statement_id: z.string(),
  content_hash: z.string(),
  verify_url: z.string(),
  status: z.enum(['issued', 'revoked']),
  report_id: z.nullish(z.string()),
  account_holder: z.nullish(z.string()),
  issued_at: z.nullish(isoDate),
  revoked_at: z.nullish(isoDate),
});

export const statementList = z.looseObject({
  statements: z.array(statement),
});

const quota = z.looseObject({
  name: z.string(),
  used: z.number(),
  limit: z.nullable(z.number()),
  resets_at: z.nullish(isoDate),
});

export const usage = z.looseObject({
  organization_id: z.string(),
  organization_name: z.nullish(z.string()),
  plan: z.string(),
  environment: z.enum(['live', 'test']),
  period_start: isoDate,
  period_end: isoDate,
  quotas: z.array(quota),
});

export type ReportSummary = z.infer<typeof reportSummary>;
export type Report = z.infer<typeof report>;
export type NameMatch = z.infer<typeof nameMatch>;
export type AuthView = z.infer<typeof authView>;
export type IdentityView = z.infer<typeof identityView>;
export type CounterpartiesView = z.infer<typeof counterpartiesView>;
export type RecurringStream = z.infer<typeof recurringStream>;
export type RecurringView = z.infer<typeof recurringView>;
export type Statement = z.infer<typeof statement>;
export type Usage = z.infer<typeof usage>;
