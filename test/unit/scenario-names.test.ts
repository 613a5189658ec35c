// The names `sandbox create --scenario` completes to: read from a scenarios list of any shape, or
// the documented names before any list was fetched.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { DOCUMENTED_SCENARIOS, scenarioNames } from '../../src/commands/sandbox/scenario-names.js';
import { dynamicValues } from '../../src/completion/dynamic.js';

describe('scenarioNames', () => {
  it('reads names from lists of names and from objects naming one, with their descriptions', () => {
    expect(scenarioNames({ scenarios: ['salaried', 'thin_file'] }).map((s) => s.value)).toEqual([
      'salaried',
      'thin_file',
    ]);
    expect(
      scenarioNames({
        default: 'salaried',
        report_scenarios: [{ scenario: 'salaried', description: 'Steady salary' }],
        error_scenarios: [{ scenario: 'error_unsupported_bank', error_code: 'UNSUPPORTED_BANK' }],
      }),
    ).toEqual([
      { value: 'salaried', description: 'Steady salary' },
      { value: 'error_unsupported_bank', description: '' },
    ]);
    expect(scenarioNames({ data: [{ name: 'remittance', status: 'complete' }] })).toEqual([
      { value: 'remittance', description: '' },
    ]);
  });

  it('ignores what cannot be a scenario name', () => {
    expect(scenarioNames({ data: [{ name: 'Not A Name' }, 42, null, ['a b']] })).toEqual([]);
    expect(scenarioNames('salaried')).toEqual([]);
  });
});

describe('completion of --scenario', () => {
  it('offers the documented names when no list was fetched', () => {
    const home = mkdtempSync(join(tmpdir(), 'svc-scenarios-'));
    const env = {
      SVC_CONFIG_DIR: join(home, 'config'),
      SVC_CACHE_DIR: join(home, 'cache'),
      SVC_BASE_URL: 'http://127.0.0.1:9',
    };
    const values = dynamicValues({ source: 'scenarios' }, env).map((c) => c.value);
    expect(values).toEqual(DOCUMENTED_SCENARIOS.map((s) => s.value));
    expect(values).toEqual(
      expect.arrayContaining([
        'salaried',
        'thin_file',
        'high_risk',
        'remittance',
        'error_unsupported_bank',
      ]),
    );
  });
});
