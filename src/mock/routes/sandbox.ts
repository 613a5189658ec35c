// The sandbox (test keys only): scenario reports made on demand, and webhook deliveries fired on
// demand. A sandbox report is an ordinary report of the caller's organisation: every report
// command can read it.
import { randomBytes } from 'node:crypto';
import { EVENT_KINDS, ERROR_CODE_FORM, type WebhookEvent } from '../../webhooks/events.js';
import { isoDate, isoSeconds } from '../dates.js';
import { ApiError } from '../errors.js';
import type { CounterpartiesFixture, RecurringFixture } from '../fixtures.js';
import scenariosJson from '../fixtures/scenarios.json' with { type: 'json' };
import { parseJsonBody, type Reply, type RequestBody } from '../http.js';
import type { KeyIdentity } from '../keys.js';
import { invalid, SEGMENT, type Call, type Route } from '../route.js';
import { NOTHING_READ, type MockStore } from '../store.js';
import { reportView, type StoredReport } from '../views.js';

interface ScenarioStatement {
  account_holder: string;
  account_number: string;
  pages: number;
  transaction_count: number;
  statement_period: { from: string; to: string };
  counterparties: CounterpartiesFixture;
  recurring: RecurringFixture;
}

interface Scenario {
  name: string;
  description: string;
  bank_code: string;
  /** A complete report reads this statement; a failed one has `error` instead. */
  statement?: ScenarioStatement;
  error?: { error_code: string; error_message: string };
}

const scenarios = scenariosJson as { default: string; scenarios: Scenario[] };

const DAY_MS = 86_400_000;

export const sandboxRoutes: Route[] = [
  { method: 'GET', pattern: /^\/v1\/sandbox\/scenarios$/, handle: listScenarios },
  { method: 'POST', pattern: /^\/v1\/sandbox\/reports$/, scope: 'FULL', handle: createSandboxReport },
  { method: 'POST', pattern: new RegExp(`^/v1/sandbox/reports/${SEGMENT}/fire_webhook$`), handle: fireWebhook },
];

function requireTestKey(key: KeyIdentity): void {
  if (key.mode !== 'test') {
    throw new ApiError('TEST_KEY_REQUIRED', 'The sandbox works with test keys only; this is a live key.', {
      displayMessage: 'Use a test key (svc_sk_test_...) for sandbox operations.',
    });
  }
}

/** The body as a JSON object; an empty body is an empty object. */
function jsonObject(body: RequestBody, example: string): Record<string, unknown> {
  if (body.size === 0) return {};
  const parsed = parseJsonBody(body);
  const value = parsed.ok ? parsed.value : undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalid(`The request body must be a JSON object, e.g. ${example}.`);
  return value as Record<string, unknown>;
}

function listScenarios({ key }: Call): Reply {
  requireTestKey(key);
  return {
    status: 200,
    body: {
      data: scenarios.scenarios.map((s) => ({
        name: s.name,
        description: s.description,
        status: s.error ? 'failed' : 'complete',
        error_code: s.error?.error_code ?? null,
        default: s.name === scenarios.default,
      })),
    },
  };
}

function createSandboxReport({ request, key, store }: Call): Reply {
  requireTestKey(key);
  const body = jsonObject(request.body, '{"scenario": "salaried"}');
  const name = body.scenario ?? scenarios.default;
  if (typeof name !== 'string') throw invalid("'scenario' must be a string, the name of a scenario.");
  const scenario = scenarios.scenarios.find((s) => s.name === name);
  if (!scenario) {
    throw invalid(`Unknown scenario '${name}'; the scenarios are ${scenarios.scenarios.map((s) => s.name).join(', ')}.`);
  }
  const report = storeScenarioReport(store, key.organization_id, scenario, new Date());
  return { status: 201, body: { ...reportView(report, store.bank(report.bank_code)), scenario: scenario.name } };
}

/**
 * Stores a new report of the organisation that reads as the scenario says. The store makes the
 * report (its id, creation time and place in the listings); the scenario then fills in what was
 * "read".
 */
function storeScenarioReport(store: MockStore, organizationId: string, scenario: Scenario, now: Date): StoredReport {
  const document = { kind: 'pdf' as const, sha256: randomBytes(32).toString('hex'), holder: null, pages: 1, failure: null };
  const made = store.createReport(organizationId, { document, bankCode: scenario.bank_code, fileName: null }, 'sync');
  const report = { ...made, ...scenarioFields(scenario, now) };
  store.saveReport(report);
  return report;
}

function scenarioFields(scenario: Scenario, now: Date): Partial<StoredReport> {
  const { statement, error } = scenario;
  if (error || !statement) {
    return { ...NOTHING_READ, status: 'failed', error: { ...error! } };
  }
  // The statement ends five days before now, as an uploaded one does.
  const shiftDays = Math.round((now.getTime() - 5 * DAY_MS - Date.parse(statement.statement_period.to)) / DAY_MS);
  const shift = (date: string) => isoDate(Date.parse(date) + shiftDays * DAY_MS);
  const recurring = structuredClone(statement.recurring);
  for (const stream of [...recurring.inflow_streams, ...recurring.outflow_streams]) {
    stream.last_date = shift(stream.last_date);
    stream.next_date = stream.next_date === null ? null : shift(stream.next_date);
  }
  return {
    status: 'complete',
    error: null,
    account_holder: statement.account_holder,
    account_number: statement.account_number,
    pages: statement.pages,
    transaction_count: statement.transaction_count,
    statement_period: { from: shift(statement.statement_period.from), to: shift(statement.statement_period.to) },
    completed_at: isoSeconds(now),
    verification_status: 'statement_parsed',
    counterparties: structuredClone(statement.counterparties),
    recurring,
  };
}

function fireWebhook({ request, key, params, store, webhooks }: Call): Reply {
  requireTestKey(key);
  const body = jsonObject(request.body, '{"event": "report.ready"}');
  const { event, error_code: errorCode } = body;
  if (event !== undefined && !(EVENT_KINDS as readonly unknown[]).includes(event)) {
    throw invalid(`'event' must be one of ${EVENT_KINDS.join(', ')}.`);
  }
  if (errorCode !== undefined && (typeof errorCode !== 'string' || !ERROR_CODE_FORM.test(errorCode))) {
    throw invalid("'error_code' must be an error code such as TAMPER_DETECTED.");
  }
  const report = store.findReport(key.organization_id, params[0]!);
  // By default the event says what became of the report.
  const kind = (event as string | undefined) ?? (report.status === 'failed' ? 'report.failed' : 'report.ready');
  if (kind === 'report.ready' && errorCode !== undefined) throw invalid("'error_code' goes with the report.failed event only.");

  const payload: WebhookEvent = { event: kind, report_id: report.report_id, timestamp: isoSeconds(new Date()) };
  if (kind === 'report.failed') payload.error_code = (errorCode as string | undefined) ?? report.error?.error_code ?? 'DOCUMENT_PARSE_FAILED';
  webhooks.send(payload);
  return { status: 200, body: { fired: kind, report_id: report.report_id, environment: 'test' } };
}
