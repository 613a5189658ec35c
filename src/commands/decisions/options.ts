// The checks of `svc decisions record|list|outcome`: each failure is a usage error (exit 2) before
// any request. Pure: flags in, request bodies and queries out, absent options left out.
import { UsageError } from '../../core/errors.js';
import { hasControlCharacter } from '../../core/output/format.js';
import type { DecimalRule } from '../../core/program/typed-options.js';
import { checkId } from '../args.js';

export const DECISIONS = ['approved', 'review', 'declined'] as const;
export const OUTCOMES = ['repaid', 'delinquent', 'defaulted', 'written_off'] as const;
export type Decision = (typeof DECISIONS)[number];
export type Outcome = (typeof OUTCOMES)[number];

/**
 * The flags of `decisions record`: the required ones and the values of the enum flags checked by
 * their declaration (index.ts).
 */
export interface RecordFlags {
  clientReferenceId: string;
  decision: Decision;
  reportId?: string;
  rationale?: string;
  /** Checked by its declaration (POSITIVE_NUMBER). */
  amount?: number;
}

export interface DecisionBody {
  client_reference_id: string;
  decision: Decision;
  report_id?: string;
  decision_rationale?: string;
  amount?: number;
}

/** The body of POST /v1/decisions. */
export function decisionBody(flags: RecordFlags): DecisionBody {
  const reference = checkReference(flags.clientReferenceId);
  const reportId = flags.reportId === undefined ? undefined : checkId(flags.reportId, 'report id');
  const rationale = checkText(flags.rationale, '--rationale');
  const amount = flags.amount;
  return {
    client_reference_id: reference,
    decision: flags.decision,
    ...(reportId !== undefined && { report_id: reportId }),
    ...(rationale !== undefined && { decision_rationale: rationale }),
    ...(amount !== undefined && { amount }),
  };
}

/** The flags of `decisions outcome`, as for RecordFlags. */
export interface OutcomeFlags {
  clientReferenceId: string;
  outcome: Outcome;
  detail?: string;
}

export interface OutcomeBody {
  client_reference_id: string;
  outcome: Outcome;
  detail?: string;
}

/** The body of POST /v1/outcomes. */
export function outcomeBody(flags: OutcomeFlags): OutcomeBody {
  const reference = checkReference(flags.clientReferenceId);
  const detail = checkText(flags.detail, '--detail');
  return {
    client_reference_id: reference,
    outcome: flags.outcome,
    ...(detail !== undefined && { detail }),
  };
}

/** The flags of `decisions list`. */
export interface ListFlags {
  outcome?: Outcome;
  /** Checked by its declaration (integerOption, index.ts). */
  limit?: number;
}

/** The query of GET /v1/decisions. */
export function decisionsQuery(flags: ListFlags): { outcome?: Outcome; limit?: number } {
  return { outcome: flags.outcome, limit: flags.limit };
}

/** Your own id of the loan application ("loan-1001"): not empty, one line. */
export function checkReference(reference: string): string {
  if (reference.trim() === '')
    throw new UsageError(
      '--client-reference-id is empty: give your own id of the application, e.g. loan-1001',
    );
  if (hasControlCharacter(reference))
    throw new UsageError('--client-reference-id must be one line, without control characters');
  return reference;
}

function checkText(value: string | undefined, flag: string): string | undefined {
  if (value !== undefined && value.trim() === '')
    throw new UsageError(`${flag} is empty: leave it out, or give a text`);
  return value;
}

/** A plain positive number: `250000`, `1250.50` (`--amount`, index.ts). */
export const POSITIVE_NUMBER: DecimalRule = {
  form: 'plain',
  above: 0,
  takes: 'a positive number, such as 250000',
};

/** What says what happened, first in every view of a decision or an outcome. */
export const FIRST = ['decision', 'outcome', 'status'];
