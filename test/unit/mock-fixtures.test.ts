// The fixture files are hand-editable data: these checks keep them consistent with each other,
// with the documents, and with the README that tests rely on.
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { ERROR_KINDS } from '../../src/mock/errors.js';
import { type CounterpartiesFixture, fixtures } from '../../src/mock/fixtures.js';
import bankPnl from '../../src/mock/fixtures/bank-pnl.json' with { type: 'json' };
import { merchantDirectory } from '../../src/mock/merchants/directory.js';

const readme = readFileSync(new URL('../../src/mock/fixtures/README.md', import.meta.url), 'utf8');
const banks = new Set(fixtures.banks.map((b) => b.bank_code));
/** The `bank` values of POST /v1/parse in the documents (besides `auto`). */
const DOCUMENTED_BANKS = [
  'NABIL',
  'NIC_ASIA',
  'NIMB',
  'NMB',
  'KUMARI',
  'SIDDHARTHA',
  'PRABHU',
  'GARIMA',
  'GLOBAL_IME',
  'ESEWA',
  'KHALTI',
];
const statements = [
  ...fixtures.reports
    .filter((r) => r.status === 'complete')
    .map(
      (r) => [r.report_id, r.transaction_count!, fixtures.counterparties[r.report_id]!] as const,
    ),
  ...fixtures.scenarios.report_scenarios.map(
    (s) => [s.scenario, s.statement.transaction_count, s.statement.counterparties] as const,
  ),
];

/** The flows of a statement fixture add up: by type to the totals, by count to its transactions. */
function expectFlowsAddUp(name: string, c: CounterpartiesFixture, transactionCount: number) {
  expect(c.by_type.map((t) => t.type).sort(), name).toEqual([
    'cash',
    'individual',
    'institution',
    'merchant',
    'self',
    'wallet',
  ]);
  expect(
    c.by_type.reduce((sum, t) => sum + t.inflow, 0),
    name,
  ).toBeCloseTo(c.total_inflow, 2);
  expect(
    c.by_type.reduce((sum, t) => sum + t.outflow, 0),
    name,
  ).toBeCloseTo(c.total_outflow, 2);
  expect(
    c.by_type.reduce((sum, t) => sum + t.inflow_count + t.outflow_count, 0),
    name,
  ).toBe(transactionCount);
  expect(c.top_people.every((p) => p.type === 'individual')).toBe(true);
  expect(c.top_merchants.every((p) => p.type === 'merchant')).toBe(true);
}

describe('fixtures', () => {
  it.each(fixtures.organizations.map((o) => [o.organization_name, o.organization_id] as const))(
    '%s has reports in every status',
    (_name, org) => {
      const reports = fixtures.reports.filter((r) => r.organization_id === org);
      const count = (status: string) => reports.filter((r) => r.status === status).length;
      expect(reports.length).toBeGreaterThanOrEqual(12);
      expect([count('processing'), count('failed')]).toEqual([2, 2]);
      expect(count('complete')).toBeGreaterThan(reports.length / 2);
      expect(reports.some((r) => r.status === 'complete' && r.account_holder === null)).toBe(true);
      const failures = reports.filter((r) => r.status === 'failed').map((r) => r.error?.error_code);
      expect(failures.sort()).toEqual(['DOCUMENT_PARSE_FAILED', 'TAMPER_DETECTED']);
    },
  );

  it('knows exactly the banks and wallets the documents list for parse', () => {
    expect([...banks].sort()).toEqual([...DOCUMENTED_BANKS].sort());
    for (const { bank } of bankPnl.banks) expect(banks.has(bank), bank).toBe(true);
  });

  it('uses well-formed, unique ids, known banks and 2026 dates', () => {
    const ids = fixtures.reports.map((r) => r.report_id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of fixtures.reports) {
      expect(r.report_id).toMatch(/^rpt_[0-9a-f]{16}$/);
      expect(banks.has(r.bank_code)).toBe(true);
      expect(r.created_at).toMatch(/^2026-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
  });

  it('gives every complete report its views, and no other report any', () => {
    for (const r of fixtures.reports) {
      const complete = r.status === 'complete';
      expect(fixtures.counterparties[r.report_id] !== undefined).toBe(complete);
      expect(fixtures.recurring[r.report_id] !== undefined).toBe(complete);
      expect(r.statement_period !== null).toBe(complete);
      expect(r.transaction_shape !== undefined).toBe(complete);
      expect(r.error !== null).toBe(r.status === 'failed');
    }
  });

  it('uses both documented transaction shapes', () => {
    expect(new Set(fixtures.reports.map((r) => r.transaction_shape).filter(Boolean))).toEqual(
      new Set(['older', 'newer']),
    );
  });

  it.each(statements)(
    '%s: flows that add up to the totals of every type and to its transaction count',
    (name, count, counterparties) => {
      expectFlowsAddUp(name, counterparties, count);
    },
  );

  it('names only merchants of the merchant directory, so their terminals resolve', () => {
    const directory = merchantDirectory();
    for (const [name, , counterparties] of statements) {
      for (const m of counterparties.top_merchants)
        expect(directory.resolveName(m.name).matched, `${name}: ${m.name}`).toBe(true);
    }
  });

  it('has report scenarios of known banks and error scenarios of known error codes', () => {
    const { scenarios } = fixtures;
    expect(scenarios.report_scenarios.map((s) => s.scenario)).toContain(scenarios.default);
    for (const s of scenarios.report_scenarios)
      expect(banks.has(s.bank_code), s.scenario).toBe(true);
    for (const s of scenarios.error_scenarios) {
      expect(s.scenario).toMatch(/^error_/);
      expect(Object.keys(ERROR_KINDS), s.scenario).toContain(s.error_code);
    }
  });

  it('forecasts a next date exactly for active recurring streams', () => {
    const recurring = [
      ...Object.values(fixtures.recurring),
      ...fixtures.scenarios.report_scenarios.map((s) => s.statement.recurring),
    ];
    const streams = recurring.flatMap((r) => [...r.inflow_streams, ...r.outflow_streams]);
    expect(new Set(streams.map((s) => s.cadence))).toEqual(
      new Set(['weekly', 'monthly', 'quarterly']),
    );
    expect(new Set(streams.map((s) => s.status))).toEqual(new Set(['MATURE', 'EARLY_DETECTION']));
    for (const s of streams) {
      expect(s.next_date === null).toBe(!s.is_active);
      if (s.next_date) expect(s.next_date > s.last_date).toBe(true);
    }
  });

  it('has issued and revoked statements of real reports of the same organisation', () => {
    for (const s of fixtures.statements) {
      expect(s.statement_id).toMatch(/^stmt_[0-9a-f]{16}$/);
      expect(s.content_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(s.revoked_at !== null).toBe(s.status === 'revoked');
      const report = fixtures.reports.find((r) => r.report_id === s.report_id);
      expect(report?.organization_id).toBe(s.organization_id);
    }
    expect(new Set(fixtures.statements.map((s) => s.status))).toEqual(
      new Set(['issued', 'revoked']),
    );
  });

  it('gives a SWIFT/BIC to class A banks only, with a note otherwise', () => {
    for (const b of fixtures.banks) {
      expect(b.swift_bic !== null).toBe(b.class === 'A');
      expect(b.swift_note !== null).toBe(b.class !== 'A');
    }
  });
});

describe('fixtures/README.md', () => {
  it('describes every report as it is', () => {
    const rows = [...readme.matchAll(/^\| `(rpt_[0-9a-f]{16})` \| (\w+) \| (\w+) \| ([^|]+) \|/gm)];
    expect(rows.map((m) => m[1]).sort()).toEqual(fixtures.reports.map((r) => r.report_id).sort());
    for (const [, id, status, bank, holder] of rows) {
      const report = fixtures.reports.find((r) => r.report_id === id)!;
      expect([report.status, report.bank_code], id).toEqual([status, bank]);
      expect(report.account_holder ?? '—', id).toBe(holder!.replace(' (null)', '').trim());
    }
  });

  it('describes every statement as it is', () => {
    const rows = [
      ...readme.matchAll(
        /^\| `(stmt_[0-9a-f]{16})` \| [^|]+ \| (\w+) \| `(rpt_[0-9a-f]{16})` \|/gm,
      ),
    ];
    expect(rows).toHaveLength(fixtures.statements.length);
    for (const [, id, status, report] of rows) {
      expect(fixtures.statements.find((s) => s.statement_id === id)).toMatchObject({
        status,
        report_id: report,
      });
    }
  });
});
