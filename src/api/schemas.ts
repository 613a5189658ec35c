// Shapes of the service's replies. Every object is loose: fields the service adds later pass
// through untouched, and only what a table needs is checked.
import { z } from 'zod';

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

export const report = reportSummary.extend({
  account_holder: z.string().nullish(),
  account_number: z.string().nullish(),
  bank_name: z.string().nullish(),
  file_name: z.string().nullish(),
  pages: z.number().int().nullish(),
  transaction_count: z.number().int().nullish(),
  statement_period: z.looseObject({ from: isoDate, to: isoDate }).nullish(),
  completed_at: isoDate.nullish(),
  error: z.looseObject({ error_code: z.string(), error_message: z.string() }).nullish(),
});

export const nameMatch = z.looseObject({
  match_score: z.number().int().min(0).max(100),
  result: z.enum(['match', 'partial_match', 'no_match', 'no_data']),
  statement_name: z.string().nullable(),
  reasons: z.array(z.string()),
});

export const authView = z.looseObject({
  report_id: z.string(),
  account_holder: z.string().nullable(),
  account_number: z.string().nullable(),
  bank_code: z.string(),
  bank_name: z.string().nullish(),
  swift_bic: z.string().nullable(),
  swift_note: z.string().nullable(),
  verification_status: z.string(),
});

export const identityView = z.looseObject({
  report_id: z.string(),
  account_holder: z.string().nullable(),
  account_number: z.string().nullable(),
  bank_code: z.string(),
  bank_name: z.string().nullish(),
  currency: z.string(),
  statement_period: z.looseObject({ from: isoDate, to: isoDate }).nullable(),
});

export const counterpartyType = z.enum(['merchant', 'individual', 'institution', 'wallet', 'cash', 'self']);

const flowByType = z.looseObject({
  type: counterpartyType,
  inflow: amount,
  outflow: amount,
  inflow_count: z.number().int(),
  outflow_count: z.number().int(),
});

const namedCounterparty = z.looseObject({
  name: z.string(),
  type: counterpartyType,
  inflow: amount,
  outflow: amount,
  transaction_count: z.number().int(),
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
  occurrences: z.number().int(),
  status: z.enum(['MATURE', 'EARLY_DETECTION']),
  is_active: z.boolean(),
  last_date: isoDate,
  next_date: isoDate.nullable(),
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
  report_id: z.string().nullish(),
  account_holder: z.string().nullish(),
  issued_at: isoDate.nullish(),
  revoked_at: isoDate.nullish(),
});

export const statementList = z.looseObject({
  statements: z.array(statement),
});

const quota = z.looseObject({
  name: z.string(),
  used: z.number(),
  limit: z.number().nullable(),
  resets_at: isoDate.nullish(),
});

export const usage = z.looseObject({
  organization_id: z.string(),
  organization_name: z.string().nullish(),
  plan: z.string(),
  environment: z.enum(['live', 'test']),
  period_start: isoDate,
  period_end: isoDate,
  quotas: z.array(quota),
});

/** Both error envelopes: the flat one every endpoint uses, and the older nested one. */
export const flatErrorEnvelope = z.looseObject({
  error_type: z.string().optional(),
  error_code: z.string(),
  error_message: z.string().optional(),
  display_message: z.string().nullish(),
  request_id: z.string().optional(),
  documentation_url: z.string().optional(),
  suggested_action: z.string().optional(),
});

export const nestedErrorEnvelope = z.looseObject({
  error: z.looseObject({ code: z.string(), message: z.string().optional(), type: z.string().optional() }),
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
