// Lending decisions and their outcomes, as an organisation records them (POST /v1/decisions,
// POST /v1/outcomes) so that the service can learn which reports led to loans that were repaid.
// Each decision is named by the caller's own `client_reference_id`, one decision per reference.
import { type Clock, isoSeconds } from './dates.js';
import { ApiError } from './errors.js';
import { newId } from './tokens.js';

export const DECISIONS = ['approved', 'review', 'declined'] as const;
export const OUTCOMES = ['repaid', 'delinquent', 'defaulted', 'written_off'] as const;
export type DecisionValue = (typeof DECISIONS)[number];
export type OutcomeValue = (typeof OUTCOMES)[number];

export interface Decision {
  id: string;
  client_reference_id: string;
  decision: DecisionValue;
  report_id: string | null;
  decision_rationale: string | null;
  amount: number | null;
  created_at: string;
  /** The latest outcome recorded, or null. */
  outcome: OutcomeValue | null;
  outcome_detail: string | null;
  outcome_recorded_at: string | null;
}

export type NewDecision = Pick<
  Decision,
  'client_reference_id' | 'decision' | 'report_id' | 'decision_rationale' | 'amount'
>;

export interface Outcome {
  id: string;
  client_reference_id: string;
  decision_id: string;
  outcome: OutcomeValue;
  detail: string | null;
  recorded_at: string;
}

export class DecisionBook {
  /**
   * By organisation, then client_reference_id, oldest first (a Map keeps the order of insertion).
   */
  private readonly byReference = new Map<string, Map<string, Decision>>();

  constructor(private readonly clock: Clock) {}

  /** A second decision for the same reference is refused: the first stands. */
  record(organizationId: string, fields: NewDecision): Decision {
    const references = this.references(organizationId);
    if (references.has(fields.client_reference_id)) {
      throw new ApiError(
        'DECISION_EXISTS',
        `A decision for client_reference_id '${fields.client_reference_id}' is already recorded.`,
      );
    }
    const decision: Decision = {
      id: newId('dec'),
      ...fields,
      created_at: isoSeconds(this.clock()),
      outcome: null,
      outcome_detail: null,
      outcome_recorded_at: null,
    };
    references.set(decision.client_reference_id, decision);
    return decision;
  }

  /** Newest first; `outcome` keeps the decisions whose latest outcome it is. */
  list(
    organizationId: string,
    query: { outcome?: OutcomeValue; limit: number },
  ): { decisions: Decision[]; hasMore: boolean } {
    const matching = [...this.references(organizationId).values()]
      .filter((d) => !query.outcome || d.outcome === query.outcome)
      .reverse();
    return { decisions: matching.slice(0, query.limit), hasMore: matching.length > query.limit };
  }

  /** An outcome replaces the decision's previous one (a delinquent loan may later default). */
  recordOutcome(
    organizationId: string,
    clientReferenceId: string,
    outcome: OutcomeValue,
    detail: string | null,
  ): Outcome {
    const decision = this.references(organizationId).get(clientReferenceId);
    if (!decision) {
      throw new ApiError(
        'DECISION_NOT_FOUND',
        `No decision with client_reference_id '${clientReferenceId}' is recorded; record it with POST /v1/decisions first.`,
      );
    }
    const recordedAt = isoSeconds(this.clock());
    Object.assign(decision, { outcome, outcome_detail: detail, outcome_recorded_at: recordedAt });
    return {
      id: newId('out'),
      client_reference_id: clientReferenceId,
      decision_id: decision.id,
      outcome,
      detail,
      recorded_at: recordedAt,
    };
  }

  private references(organizationId: string): Map<string, Decision> {
    let references = this.byReference.get(organizationId);
    if (!references)
      this.byReference.set(organizationId, (references = new Map<string, Decision>()));
    return references;
  }
}
