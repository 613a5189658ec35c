// What a consent or a Connect grant shares: the report views of its scopes, and nothing else.
// The documents show `{scopes[], data:{identity:{…}, income:{…}, …}}`; each view is the one its
// own endpoint answers.
import type { Bank } from '../fixtures.js';
import type { CompleteReport } from '../store.js';
import { identityView, transactionsView } from '../views.js';
import { incomeView } from './income.js';
import { liabilitiesView } from './liabilities.js';
import { verifyView } from './verify.js';

/** The scopes a consent may grant, as documented. */
export const SHARED_SCOPES = [
  'identity',
  'income',
  'liabilities',
  'verify',
  'transactions',
] as const;
export type SharedScope = (typeof SHARED_SCOPES)[number];

const VIEWS: Record<SharedScope, (report: CompleteReport, bank: Bank | undefined) => unknown> = {
  identity: identityView,
  income: (r) => incomeView(r.statement),
  liabilities: (r) => liabilitiesView(r.statement),
  verify: (r) => verifyView(r.statement),
  transactions: (r) => transactionsView(r.statement.transactions),
};

export function sharedData(
  report: CompleteReport,
  bank: Bank | undefined,
  scopes: readonly SharedScope[],
) {
  return {
    scopes: [...scopes],
    data: Object.fromEntries(scopes.map((scope) => [scope, VIEWS[scope](report, bank)])),
  };
}
