// The lending views of a report: income, balance, liabilities, score and verify, which any key may
// read, and underwriting a loan against the report, which needs a FULL key. The rules behind each
// live in lending/.
import {
  jsonObjectBody,
  optionalNumber,
  optionalString,
  requiredNumber,
  requiredObject,
} from '../fields.js';
import type { Reply, RequestBody } from '../http.js';
import { balanceView } from '../lending/balance.js';
import { incomeView } from '../lending/income.js';
import { liabilitiesView } from '../lending/liabilities.js';
import { scoreView } from '../lending/score.js';
import { DEFAULT_FOIR_CEILING, type LoanApplication, underwrite } from '../lending/underwriting.js';
import { verifyView } from '../lending/verify.js';
import { type Call, type Route, SEGMENT } from '../route.js';
import { productView } from './reports.js';

const CURRENCY = 'NPR';
/** The largest principal the mock will consider: more than any statement could support. */
const MAX_PRINCIPAL = 1e12;

const view = (name: string) => new RegExp(`^/v1/reports/${SEGMENT}/${name}$`);

export const lendingRoutes: Route[] = [
  { method: 'GET', pattern: view('income'), handle: productView((r) => incomeView(r.statement)) },
  {
    method: 'GET',
    pattern: view('balance'),
    handle: productView((r) => balanceView(r.statement, CURRENCY)),
  },
  {
    method: 'GET',
    pattern: view('liabilities'),
    handle: productView((r) => liabilitiesView(r.statement)),
  },
  { method: 'GET', pattern: view('score'), handle: productView((r) => scoreView(r.statement)) },
  { method: 'GET', pattern: view('verify'), handle: productView((r) => verifyView(r.statement)) },
  { method: 'POST', pattern: view('underwriting'), scope: 'FULL', handle: underwriting },
];

function underwriting({ request, key, params, store }: Call): Reply {
  // The body is checked before the report is looked up: a bad request is bad for any report.
  const application = readApplication(request.body);
  const report = store.completeReport(key.organization_id, params[0]!);
  return {
    status: 200,
    body: underwrite(
      {
        report_id: report.report_id,
        account_holder: report.statement.account_holder,
        statement: report.statement,
      },
      application,
    ),
  };
}

function readApplication(body: RequestBody): LoanApplication {
  const fields = jsonObjectBody(
    body,
    '{"applicant_name": "Ram Bahadur Shrestha", "foir_ceiling": 0.5, "loan": {"principal": 500000, "tenor_months": 36, "annual_rate_pct": 12.5}}',
  );
  const loan = requiredObject(fields, 'loan');
  return {
    applicant_name: optionalString(fields, 'applicant_name', 200),
    foir_ceiling:
      optionalNumber(fields, 'foir_ceiling', { min: 0, aboveMin: true, max: 1 }) ??
      DEFAULT_FOIR_CEILING,
    loan: {
      principal: requiredNumber(loan, 'loan.principal', {
        min: 0,
        aboveMin: true,
        max: MAX_PRINCIPAL,
      }),
      tenor_months: requiredNumber(loan, 'loan.tenor_months', { min: 1, max: 600, integer: true }),
      annual_rate_pct: requiredNumber(loan, 'loan.annual_rate_pct', { min: 0, max: 100 }),
    },
  };
}
