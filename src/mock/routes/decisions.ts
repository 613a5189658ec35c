// Lending decisions and outcomes (FULL keys). The documents give the request fields; every reply
// shape is the mock's own (fixtures/README.md): the decision record, `{data, has_more}` for the
// list, and the outcome record.
import { type Decision, DECISIONS, OUTCOMES } from '../decisions.js';
import {
  integerQuery,
  jsonObjectBody,
  optionalNumber,
  optionalString,
  requiredChoice,
  requiredString,
} from '../fields.js';
import type { Reply } from '../http.js';
import { type Call, invalid, type Route } from '../route.js';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;
const MAX_AMOUNT = 1e12;

export const decisionRoutes: Route[] = [
  { method: 'POST', pattern: /^\/v1\/decisions$/, scope: 'FULL', handle: recordDecision },
  { method: 'GET', pattern: /^\/v1\/decisions$/, scope: 'FULL', handle: listDecisions },
  { method: 'POST', pattern: /^\/v1\/outcomes$/, scope: 'FULL', handle: recordOutcome },
];

function recordDecision({ request, key, store, decisions }: Call): Reply {
  const fields = jsonObjectBody(
    request.body,
    '{"client_reference_id": "loan-1001", "decision": "approved", "report_id": "rpt_…", "amount": 500000}',
  );
  const clientReferenceId = requiredString(fields, 'client_reference_id');
  const decision = requiredChoice(fields, 'decision', DECISIONS);
  const reportId = optionalString(fields, 'report_id') ?? null;
  const rationale = optionalString(fields, 'decision_rationale', 2000) ?? null;
  const amount = optionalNumber(fields, 'amount', { min: 0, max: MAX_AMOUNT }) ?? null;
  // A named report must be one of the organisation's, in any state: a decision may follow a failed
  // parse.
  if (reportId !== null) store.findReport(key.organization_id, reportId);
  const recorded = decisions.record(key.organization_id, {
    client_reference_id: clientReferenceId,
    decision,
    report_id: reportId,
    decision_rationale: rationale,
    amount,
  });
  return { status: 201, body: decisionRecord(recorded) };
}

function listDecisions({ request, key, decisions }: Call): Reply {
  const query = request.url.searchParams;
  const outcome = query.get('outcome');
  if (outcome !== null && !(OUTCOMES as readonly string[]).includes(outcome)) {
    throw invalid(`outcome must be one of ${OUTCOMES.join(', ')}, got '${outcome}'.`);
  }
  const limit = integerQuery(query, 'limit', 1, MAX_LIMIT) ?? DEFAULT_LIMIT;
  const listed = decisions.list(key.organization_id, {
    limit,
    ...(outcome !== null && { outcome: outcome as (typeof OUTCOMES)[number] }),
  });
  return {
    status: 200,
    body: { data: listed.decisions.map(decisionRecord), has_more: listed.hasMore },
  };
}

function recordOutcome({ request, key, decisions }: Call): Reply {
  const fields = jsonObjectBody(
    request.body,
    '{"client_reference_id": "loan-1001", "outcome": "delinquent", "detail": "90+ DPD"}',
  );
  const clientReferenceId = requiredString(fields, 'client_reference_id');
  const outcome = requiredChoice(fields, 'outcome', OUTCOMES);
  const detail = optionalString(fields, 'detail', 2000) ?? null;
  return {
    status: 201,
    body: decisions.recordOutcome(key.organization_id, clientReferenceId, outcome, detail),
  };
}

/**
 * A copy: the stored decision changes with its outcomes, a reply kept for an Idempotency-Key must
 * not.
 */
function decisionRecord(d: Decision): Decision {
  return { ...d };
}
