// The family table of `svc data` against the table of docs/guides/datasets.md and against the mock:
// the selector values the mock serves (src/mock/data/replies.ts, and the per-bank profit and loss
// of src/mock/data/bank-pnl.ts) and the requests it answers; and the fixtures against their
// generator and their own arithmetic.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  DATA_FAMILIES,
  familiesHelp,
  findFamily,
  latestPath,
  seriesPath,
  snapshotPath,
} from '../../src/commands/data/families.js';
import { UsageError } from '../../src/core/errors.js';
import { renderText } from '../../src/core/program/document.js';
import { BANK_CODES, bankPnlLatest } from '../../src/mock/data/bank-pnl.js';
import { type DatasetFixture, DATASETS, months } from '../../src/mock/data/datasets.js';
import { FAMILIES } from '../../src/mock/data/replies.js';
import { type MockServer, startMockServer } from '../../src/mock/server.js';
import { keyOf } from '../support/keys.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * The table of docs/guides/datasets.md, "Families": each family, its path under /v1/data/cbank/ and
 * its series selector parameter.
 */
const DOCUMENTED = (() => {
  const guide = readFileSync(join(ROOT, 'docs', 'guides', 'datasets.md'), 'utf8');
  const section = guide.slice(
    guide.indexOf('## Families'),
    guide.indexOf('\n## ', guide.indexOf('## Families') + 1),
  );
  return [...section.matchAll(/^\|\s*`([^`]+)`\s*\|\s*`([^`]+)`\s*\|\s*`([^`]+)`/gm)].map(
    ([, name, path, selector]) => [name!, path!, selector!],
  );
})();

const fixture = (path: string) => DATASETS.find((d) => d.path === path)!;
const item = (d: DatasetFixture, key: string) => d.items.find((i) => i.key === key)!.values;

/** The selector values the mock serves for one bank: the keys of its /latest line items. */
const bankLines = (bank: string) => bankPnlLatest(bank).line_items.map((i) => i.key);

describe('the family table', () => {
  it('is the table of the datasets guide', () => {
    // The rows matter, not their order.
    const rows = DATA_FAMILIES.map((f) => [f.name, f.path, f.selector]);
    expect(DOCUMENTED).toHaveLength(10);
    expect(rows).toHaveLength(DOCUMENTED.length);
    expect(rows).toEqual(expect.arrayContaining(DOCUMENTED));
    expect(DATA_FAMILIES.filter((f) => f.perBank).map((f) => f.name)).toEqual(['bank-pnl']);
  });

  it('builds the documented paths', () => {
    const cpi = findFamily('cpi');
    expect(latestPath(cpi)).toBe('/v1/data/cbank/cpi/latest');
    expect(seriesPath(findFamily('balance-sheet'))).toBe(
      '/v1/data/cbank/banking/balance-sheet/series',
    );
    expect(latestPath(findFamily('bank-pnl'))).toBe('/v1/data/cbank/banks/pnl/latest');
    expect(seriesPath(findFamily('bank-pnl'))).toBe('/v1/data/cbank/banks/pnl/series');
    expect(snapshotPath()).toBe('/v1/data/cbank/banking/snapshot');
  });

  it('refuses an unknown family with the list of families', () => {
    expect(() => findFamily('gold')).toThrow(UsageError);
    expect(() => findFamily('gold')).toThrow(
      /\(choose balance-sheet, pnl, credit, indicators, cbs, cpi, interest-rates, trade, bank-pnl, macro\)$/,
    );
    expect(() => findFamily('CPI')).toThrow(UsageError);
  });

  it('agrees with the mock on every path and selector parameter, and its examples are selectors the mock serves', () => {
    const served = FAMILIES.map((f) => ({
      path: f.dataset.path,
      param: f.dataset.selector_param,
      selectors: f.dataset.items.map(f.selector),
    }));
    const shared = DATA_FAMILIES.filter((f) => !f.perBank);
    expect(served.map((s) => [s.path, s.param])).toEqual(shared.map((f) => [f.path, f.selector]));
    for (const family of shared)
      expect(served.find((s) => s.path === family.path)!.selectors, family.name).toContain(
        family.example,
      );

    // banks/pnl has routes of its own: `line` takes a key of the bank's /latest, with or without
    // the bank's prefix (`nabil.income.interest-income`), so the example is one for every bank.
    const bankPnl = findFamily('bank-pnl');
    expect(BANK_CODES.length).toBeGreaterThan(1);
    for (const bank of BANK_CODES)
      expect(bankLines(bank), bank).toContain(`${bank.toLowerCase()}.${bankPnl.example}`);
  });

  describe('against the mock’s answers', () => {
    let mock: MockServer;
    beforeAll(async () => {
      mock = await startMockServer({ port: 0 });
    });
    afterAll(() => mock.close());

    it.each(DATA_FAMILIES.map((f) => [f.name, f] as const))(
      '%s: /latest, and /series by its selector parameter and example',
      async (_name, family) => {
        const key = keyOf(mock, undefined, { scope: 'READ_ONLY' });
        const get = (path: string) =>
          fetch(`${mock.url}${path}`, { headers: { Authorization: `Bearer ${key}` } });
        const bank = family.perBank ? `&bank=${BANK_CODES[0]}` : '';
        expect((await get(latestPath(family))).status).toBe(200);
        const series = await get(
          `${seriesPath(family)}?${family.selector}=${encodeURIComponent(family.example)}${bank}&from=2025-01&to=2025-02`,
        );
        expect(series.status).toBe(200);
        // The selector parameter is the one the mock reads: without it, the mock names it as
        // missing.
        const missing = await get(`${seriesPath(family)}?${bank.slice(1)}`);
        expect(missing.status).toBe(400);
        expect(((await missing.json()) as { error_message: string }).error_message).toContain(
          `'${family.selector}' is required`,
        );
      },
    );
  });

  it('is listed in the help', () => {
    const help = renderText(familiesHelp(), 80).replace(/\s+/g, ' ');
    for (const family of DATA_FAMILIES)
      expect(help).toContain(
        ` ${family.name} ${family.summary} (${family.path}, by ${family.selector})`,
      );
  });
});

describe('the dataset fixtures', () => {
  it('are exactly what the generator writes', () => {
    const out = mkdtempSync(join(tmpdir(), 'svc-gen-'));
    try {
      execFileSync(
        process.execPath,
        [join(ROOT, 'scripts/generate-data-fixtures.mjs'), '--out', out],
        { stdio: 'pipe' },
      );
      const committed = join(ROOT, 'src/mock/fixtures/data');
      expect(readdirSync(out).sort()).toEqual(readdirSync(committed).sort());
      for (const file of readdirSync(out))
        expect(readFileSync(join(out, file), 'utf8'), file).toBe(
          readFileSync(join(committed, file), 'utf8'),
        );
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('run monthly from 2021-01, one value per month for every item, with unique keys', () => {
    for (const d of DATASETS) {
      expect(d.first_month).toBe('2021-01');
      expect(d.as_of > `${d.last_month}-31`).toBe(true); // published after the month it describes
      const count = months(d).length;
      expect(count).toBeGreaterThanOrEqual(60);
      expect(new Set(d.items.map((i) => i.key)).size).toBe(d.items.length);
      for (const i of d.items) {
        expect(i.values, `${d.family}/${i.key}`).toHaveLength(count);
        expect(i.values.every(Number.isFinite)).toBe(true);
      }
    }
  });

  it('balance: total assets equal total capital and liabilities, deposits add up', () => {
    const d = fixture('banking/balance-sheet');
    const deposits = ['current', 'savings', 'fixed', 'call', 'other'].map((k) =>
      item(d, `deposits-${k}`),
    );
    item(d, 'total-assets').forEach((total, m) => {
      expect(total).toBe(item(d, 'total-liabilities')[m]);
      expect(deposits.reduce((s, v) => s + v[m]!, 0)).toBeCloseTo(item(d, 'total-deposits')[m]!, 1);
      const assets = [
        'cash-in-hand',
        'balance-with-nrb',
        'balance-with-bfis',
        'investments',
        'loans-and-advances',
        'fixed-assets',
        'other-assets',
      ];
      expect(assets.reduce((s, k) => s + item(d, k)[m]!, 0)).toBeCloseTo(total, 1);
    });
  });

  it('credit: sectors and products each add up to the total', () => {
    const d = fixture('banking/credit');
    item(d, 'total-credit').forEach((total, m) => {
      const sum = (prefix: string) =>
        d.items.filter((i) => i.key.startsWith(prefix)).reduce((s, i) => s + i.values[m]!, 0);
      expect(sum('sector-')).toBeCloseTo(total, 1);
      expect(sum('product-')).toBeCloseTo(total, 1);
    });
  });

  it('central bank survey: reserve money is net foreign plus net domestic assets, SDMX-style codes', () => {
    const d = fixture('cbs');
    for (const i of d.items) expect(i.key).toMatch(/^CBS(\.[A-Z_]+)+$/);
    item(d, 'CBS.RM').forEach((rm, m) => {
      expect(item(d, 'CBS.NFA')[m]! + item(d, 'CBS.NDA')[m]!).toBeCloseTo(rm, 1);
      expect(
        item(d, 'CBS.RM.CURR')[m]! + item(d, 'CBS.RM.ODC')[m]! + item(d, 'CBS.RM.OTH')[m]!,
      ).toBeCloseTo(rm, 1);
    });
  });

  it('trade: SITC sections add up to exports FOB and imports CIF', () => {
    const d = fixture('trade');
    item(d, 'exports-fob').forEach((x, m) => {
      const sum = (prefix: string) =>
        d.items.filter((i) => i.key.startsWith(prefix)).reduce((s, i) => s + i.values[m]!, 0);
      expect(sum('exports-sitc-')).toBeCloseTo(x, 1);
      expect(sum('imports-sitc-')).toBeCloseTo(item(d, 'imports-cif')[m]!, 1);
    });
  });

  it('macro: every indicator carries a source quote with its latest figure', () => {
    for (const i of fixture('macro').items) {
      expect(i.source_quote, i.key).toBeTruthy();
      const latest = i.values.at(-1)!;
      expect(
        i.source_quote!.includes(Math.abs(latest).toFixed(1)) ||
          i.source_quote!.includes(latest.toFixed(2)),
        i.key,
      ).toBe(true);
    }
  });

  it('interest rates include base, spread and weighted averages', () => {
    expect(fixture('interest-rates').items.map((i) => i.key)).toEqual(
      expect.arrayContaining(['base-rate', 'spread-rate', 'wavg-deposit', 'wavg-credit']),
    );
  });
});
