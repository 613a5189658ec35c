// The sandbox (test keys only, checked by api.ts; no quota drawn): scenario reports made on
// demand, and webhook deliveries fired on demand. A sandbox report is an ordinary report of the
// caller's organisation: every report endpoint can read it.
import { addDays, isCalendarDate, isoDate, isoSeconds } from '../dates.js';
import { ApiError, type ErrorCode } from '../errors.js';
import { type Fields, jsonObjectBody } from '../fields.js';
import { fixtures, type ReportScenario } from '../fixtures.js';
import type { Reply, RequestBody } from '../http.js';
import { categorise, type WrittenTransaction } from '../report/categorise.js';
import { type Ledger, ledger } from '../report/ledger.js';
import { seededRandom } from '../report/random.js';
import { shiftProfile, synthesizeTransactions } from '../report/synthesize.js';
import { type Call, invalid, type Route, SEGMENT } from '../route.js';
import type { ReadStatement } from '../store.js';
import { reportBody, reportListItem } from '../views.js';

const { scenarios } = fixtures;

/** The events a delivery can carry (the documents name these two). */
const EVENTS = ['report.ready', 'report.failed'] as const;
/** An error code as the service writes them: upper-case letters, digits and underscores. */
const ERROR_CODE_FORM = /^[A-Z][A-Z0-9_]{0,63}$/;
/** How long before its creation a scenario's statement ends, as an upload's does. */
const STATEMENT_AGE_DAYS = 5;
/** As many as POST /v1/enrich takes. */
const MAX_OVERRIDES = 5000;

export const sandboxRoutes: Route[] = [
  { method: 'GET', pattern: /^\/v1\/sandbox\/scenarios$/, keyMode: 'test', handle: listScenarios },
  {
    method: 'POST',
    pattern: /^\/v1\/sandbox\/reports$/,
    scope: 'FULL',
    keyMode: 'test',
    handle: createSandboxReport,
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/v1/sandbox/reports/${SEGMENT}/fire_webhook$`),
    keyMode: 'test',
    handle: fireWebhook,
  },
];

/** The documents do not show this reply: its shape is the mock's own. */
function listScenarios(): Reply {
  return {
    status: 200,
    body: {
      default: scenarios.default,
      report_scenarios: scenarios.report_scenarios.map((s) => ({
        scenario: s.scenario,
        description: s.description,
      })),
      error_scenarios: scenarios.error_scenarios.map((s) => ({
        scenario: s.scenario,
        error_code: s.error_code,
        description: s.description,
      })),
    },
  };
}

/** 201 with the full report of the scenario; an error scenario answers as that failure would. */
function createSandboxReport({ request, key, store, clock }: Call): Reply {
  const body = jsonObject(request.body, '{"scenario": "salaried"}');
  const name = body.scenario ?? scenarios.default;
  if (typeof name !== 'string')
    throw invalid("'scenario' must be a string, the name of a scenario.");
  const failure = scenarios.error_scenarios.find((s) => s.scenario === name);
  if (failure) throw new ApiError(failure.error_code as ErrorCode, failure.error_message);
  const scenario = scenarios.report_scenarios.find((s) => s.scenario === name);
  if (!scenario) {
    const names = [...scenarios.report_scenarios, ...scenarios.error_scenarios].map(
      (s) => s.scenario,
    );
    throw invalid(`Unknown scenario '${name}'; the scenarios are ${names.join(', ')}.`);
  }
  const overrides =
    body.override_transactions === undefined
      ? undefined
      : writtenTransactions(body.override_transactions);
  const end = addDays(isoDate(clock().getTime()), -STATEMENT_AGE_DAYS);
  const report = store.addReport(key.organization_id, {
    status: 'complete',
    bank_code: scenario.bank_code,
    error: null,
    statement: overrides
      ? scenarioStatement(scenario, end, overrides)
      : sharedScenarioStatement(scenario, end),
  });
  return { status: 201, body: reportBody(report, store.bank(report.bank_code)) };
}

/**
 * The statement of a scenario without override_transactions, by scenario: the same for every
 * report made from it on one day, so those reports share it (reports are read, never changed). A
 * long run making sandbox reports then keeps a few hundred bytes per report instead of the ~40 KB
 * of its transactions; one statement per scenario is kept, the one of the latest day.
 */
const scenarioStatements = new Map<string, { end: string; statement: ReadStatement }>();

function sharedScenarioStatement(scenario: ReportScenario, end: string): ReadStatement {
  const made = scenarioStatements.get(scenario.scenario);
  if (made?.end === end) return made.statement;
  const statement = scenarioStatement(scenario, end, undefined);
  scenarioStatements.set(scenario.scenario, { end, statement });
  return statement;
}

/**
 * What the scenario's statement holds: its transactions made from the same seed every time, or the
 * caller's own transactions instead (with the scenario's holder and opening balance, and no
 * recurring streams detected).
 */
function scenarioStatement(
  scenario: ReportScenario,
  end: string,
  overrides: WrittenTransaction[] | undefined,
): ReadStatement {
  const { statement } = scenario;
  const random = seededRandom(scenario.scenario);
  let made: Ledger & Pick<ReadStatement, 'period' | 'recurring'>;
  if (overrides) {
    const dates = overrides.map((t) => t.date).sort();
    made = {
      ...ledger(overrides.map(categorise), random, scenario.opening_balance),
      period: { from: dates[0] ?? end, to: dates.at(-1) ?? end },
      recurring: { inflow_streams: [], outflow_streams: [] },
    };
  } else {
    const profile = shiftProfile(
      {
        period: statement.statement_period,
        counterparties: statement.counterparties,
        recurring: statement.recurring,
        opening_balance: scenario.opening_balance,
      },
      end,
    );
    made = {
      ...synthesizeTransactions(profile, scenario.scenario),
      period: profile.period,
      recurring: profile.recurring,
    };
  }
  return {
    account_holder: statement.account_holder,
    account_number: statement.account_number,
    shape: 'newer',
    ...made,
  };
}

/** `override_transactions`: [{date, description, amount, direction}], each checked. */
function writtenTransactions(value: unknown): WrittenTransaction[] {
  if (!Array.isArray(value))
    throw invalid(
      "'override_transactions' must be an array of {date, description, amount, direction}.",
    );
  if (value.length > MAX_OVERRIDES)
    throw invalid(`'override_transactions' takes at most ${MAX_OVERRIDES} transactions.`);
  return value.map((item: unknown, i) => {
    const at = `override_transactions[${i}]`;
    if (item === null || typeof item !== 'object' || Array.isArray(item))
      throw invalid(`'${at}' must be an object.`);
    const { date, description, amount, direction } = item as Record<string, unknown>;
    if (typeof date !== 'string' || !isCalendarDate(date))
      throw invalid(`'${at}.date' must be a date written YYYY-MM-DD.`);
    if (typeof description !== 'string' || description.trim() === '')
      throw invalid(`'${at}.description' must be a non-empty string.`);
    if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0)
      throw invalid(`'${at}.amount' must be a number greater than 0.`);
    if (direction !== 'credit' && direction !== 'debit')
      throw invalid(`'${at}.direction' must be 'credit' or 'debit'.`);
    return { date, description, amount, direction };
  });
}

/**
 * Delivers an event about one of the organisation's reports to its webhook endpoints (and every
 * --webhook-url).
 */
function fireWebhook({ request, key, params, store, webhooks, clock }: Call): Reply {
  const body = jsonObject(request.body, '{"event": "report.ready"}');
  const { event = 'report.ready', error_code: errorCode } = body;
  if (!(EVENTS as readonly unknown[]).includes(event))
    throw invalid(`'event' must be one of ${EVENTS.join(', ')}.`);
  if (
    errorCode !== undefined &&
    (typeof errorCode !== 'string' || !ERROR_CODE_FORM.test(errorCode))
  ) {
    throw invalid("'error_code' must be an error code such as TAMPER_DETECTED.");
  }
  if (event === 'report.ready' && errorCode !== undefined)
    throw invalid("'error_code' goes with the report.failed event only.");
  const report = store.findReport(key.organization_id, params[0]!);
  const bank = store.bank(report.bank_code);
  let deliveredTo: string[];
  if (event === 'report.ready') {
    deliveredTo = webhooks.send(
      {
        event,
        report_id: report.report_id,
        timestamp: isoSeconds(clock()),
        result: reportBody(report, bank),
      },
      key.organization_id,
    );
  } else {
    const code = errorCode ?? report.error?.error_code ?? 'DOCUMENT_PARSE_FAILED';
    const error =
      report.error?.error_code === code
        ? report.error
        : { error_code: code, error_message: 'Failure simulated by the sandbox.' };
    const result = { ...reportListItem(report), status: 'failed', error };
    deliveredTo = webhooks.send(
      {
        event: 'report.failed',
        report_id: report.report_id,
        timestamp: isoSeconds(clock()),
        error_code: code,
        result,
      },
      key.organization_id,
    );
  }
  // `delivered_to` is the mock's own addition (the documented reply is the first three fields): the
  // endpoints the event is being delivered to, in the background; [] when it reaches none.
  return {
    status: 200,
    body: {
      fired: event,
      report_id: report.report_id,
      environment: 'test',
      delivered_to: deliveredTo,
    },
  };
}

/** The body as a JSON object; an empty body is an empty object. */
function jsonObject(body: RequestBody, example: string): Fields {
  return body.size === 0 ? {} : jsonObjectBody(body, example);
}
