// The fixture files are hand-editable data: these checks keep them consistent with each other,
// with the reply schemas, and with the README that tests rely on.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixtures } from '../../src/mock/fixtures.js';

const readme = readFileSync(new URL('../../src/mock/fixtures/README.md', import.meta.url), 'utf8');
const banks = new Set(fixtures.banks.map((b) => b.bank_code));

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
      expect(r.error !== null).toBe(r.status === 'failed');
    }
  });

  it('keeps counterparty totals equal to the sum by type, for all six types', () => {
    for (const [id, c] of Object.entries(fixtures.counterparties)) {
      expect(c.by_type.map((t) => t.type).sort(), id).toEqual(['cash', 'individual', 'institution', 'merchant', 'self', 'wallet']);
      expect(c.by_type.reduce((sum, t) => sum + t.inflow, 0)).toBeCloseTo(c.total_inflow, 2);
      expect(c.by_type.reduce((sum, t) => sum + t.outflow, 0)).toBeCloseTo(c.total_outflow, 2);
      expect(c.top_people.every((p) => p.type === 'individual')).toBe(true);
      expect(c.top_merchants.every((p) => p.type === 'merchant')).toBe(true);
    }
  });

  it('forecasts a next date exactly for active recurring streams', () => {
    const streams = Object.values(fixtures.recurring).flatMap((r) => [...r.inflow_streams, ...r.outflow_streams]);
    expect(new Set(streams.map((s) => s.cadence))).toEqual(new Set(['weekly', 'monthly', 'quarterly']));
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
    expect(new Set(fixtures.statements.map((s) => s.status))).toEqual(new Set(['issued', 'revoked']));
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
    const rows = [...readme.matchAll(/^\| `(stmt_[0-9a-f]{16})` \| [^|]+ \| (\w+) \| `(rpt_[0-9a-f]{16})` \|/gm)];
    expect(rows).toHaveLength(fixtures.statements.length);
    for (const [, id, status, report] of rows) {
      expect(fixtures.statements.find((s) => s.statement_id === id)).toMatchObject({ status, report_id: report });
    }
  });
});
