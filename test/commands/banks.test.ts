// `--bank`: the documented bank codes (src/api/banks.ts) in the help, in completion, and checked
// before any request. `svc parse` takes auto or a documented code (refused otherwise, exit 2, with
// the nearest codes); the per-bank datasets cover more banks than any document lists, so `svc
// data … bank-pnl` sends an unknown code as given, with a warning when a documented one is near.
// A code is sent in the form the documentation writes it: `nabil` as NABIL.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  AUTO_BANK,
  BANK_CODES,
  BANKS,
  DATA_BANK_CODES,
  readBankCode,
} from '../../src/api/banks.js';
import { allCommands, describeProgram, type FlagSpec } from '../../src/core/completion/spec.js';
import { processIO } from '../../src/core/io.js';
import { buildProgram } from '../../src/main.js';
import { documented } from '../support/fixtures.js';
import {
  FakeService,
  type InProcessResult,
  MODES,
  scratchDir,
  svc,
  unwrapped,
} from '../support/in-process.js';

const REPORT = documented('report');
const BANK_PNL = documented('banks-pnl-latest');
const META = documented('dataset-meta');

/** A statement file: a PDF by its first bytes. */
function statement(): string {
  const path = join(scratchDir(), 'bank-statement.pdf');
  writeFileSync(path, '%PDF-1.4\n');
  return path;
}

/** The `bank` field of the multipart upload svc sent. */
function bankSent(result: InProcessResult): string | undefined {
  const body = result.requests[0]?.body ?? '';
  return /name="bank"\r\n\r\n([^\r]*)\r\n/.exec(body)?.[1];
}

const upload = () => new FakeService().expect('POST', '/v1/parse', { body: REPORT });

describe('the table of bank codes', () => {
  it('holds the codes the documentation lists, each once, upper case, with a name', () => {
    expect(BANK_CODES).toEqual([
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
    ]);
    for (const bank of BANKS) {
      expect(bank.code).toMatch(/^[A-Z_]+$/);
      expect(bank.name.length).toBeGreaterThan(2);
    }
    // The wallets have no bank data.
    expect(DATA_BANK_CODES).not.toContain('ESEWA');
    expect(DATA_BANK_CODES).not.toContain('KHALTI');
  });

  it.each([
    ['NABIL', { code: 'NABIL' }],
    ['nabil', { code: 'NABIL' }],
    [' Nic_Asia ', { code: 'NIC_ASIA' }],
    ['AUTO', { code: 'auto' }],
    ['nabl', { unknown: 'nabl', near: ['NABIL'] }],
    ['nic-asia', { unknown: 'nic-asia', near: ['NIC_ASIA'] }],
    ['global ime', { unknown: 'global ime', near: ['GLOBAL_IME'] }],
    ['XYZ', { unknown: 'XYZ', near: [] }],
  ])('reads %j as %j', (typed, read) => {
    expect(readBankCode(typed, BANK_CODES, true)).toEqual(read);
  });
});

describe('svc parse --bank', () => {
  it.each([
    [[], AUTO_BANK],
    [['--bank', 'NABIL'], 'NABIL'],
    [['--bank', 'nabil'], 'NABIL'],
    [['--bank', 'Global_IME'], 'GLOBAL_IME'],
    [['--bank', 'khalti'], 'KHALTI'],
    [['--bank', 'Auto'], AUTO_BANK],
  ])('%j sends bank=%s', async (args, sent) => {
    const result = await svc(['parse', statement(), ...args, '--json'], { service: upload() });
    expect(result.code, result.stderr).toBe(0);
    expect(bankSent(result)).toBe(sent);
  });

  it.each(MODES)(
    'refuses a code no document lists before any request (exit 2), with the nearest, for $mode',
    async ({ tty }) => {
      const result = await svc(['parse', statement(), '--bank', 'NABL'], { tty });
      expect(result.code).toBe(2);
      expect(result.requests).toEqual([]);
      expect(result.stdout).toBe('');
      expect(unwrapped(result.stderr)).toBe(
        'error: --bank takes a bank code (auto, NABIL, NIC_ASIA, NIMB, NMB, KUMARI, SIDDHARTHA, PRABHU, GARIMA, GLOBAL_IME, ESEWA, KHALTI), not "NABL"\nDid you mean "NABIL"?\n',
      );
    },
  );

  it('names no code when none is near', async () => {
    const result = await svc(['parse', statement(), '--bank', 'EVEREST']);
    expect(result.code).toBe(2);
    expect(result.requests).toEqual([]);
    expect(result.stderr).not.toContain('Did you mean');
  });

  it('--json: the refusal as one JSON line, the suggestion in it', async () => {
    const result = await svc(['parse', statement(), '--bank', 'sidharta', '--json']);
    expect(result.code).toBe(2);
    const line = JSON.parse(result.stderr);
    expect(line.error_message).toContain('not "sidharta"');
    expect(line.suggested_action).toBe('Did you mean "SIDDHARTHA"?');
  });

  it('lists the codes in its help', async () => {
    const result = await svc(['parse', '--help']);
    expect(result.code).toBe(0);
    const help = result.stdout.replace(/\s+/g, ' ');
    expect(help).toContain(
      `--bank <code> the issuing bank: auto (the service finds it) or ${BANK_CODES.join(', ')} (default: auto)`,
    );
  });
});

describe('svc data … bank-pnl --bank', () => {
  const latest = (query: string) =>
    new FakeService().expect('GET', `/v1/data/cbank/banks/pnl/latest?${query}`, {
      body: { data: BANK_PNL, meta: META },
    });
  /**
   * What stderr says besides: in a pipe, the dataset's attribution (a terminal shows it under the
   * table).
   */
  const attribution = (tty: boolean) =>
    tty ? '' : `${META.attribution}\nAs of ${META.as_of} · ${META.source} · ${META.source_url}\n`;

  it.each(MODES)(
    'sends a documented code in its documented form, with no warning, for $mode',
    async ({ tty }) => {
      const result = await svc(['data', 'latest', 'bank-pnl', '--bank', 'nabil'], {
        tty,
        service: latest('bank=NABIL'),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe(attribution(tty));
    },
  );

  it.each(MODES)(
    'sends an unknown code as given, warning with the nearest documented code, for $mode',
    async ({ tty }) => {
      const result = await svc(['data', 'latest', 'bank-pnl', '--bank', 'NABL'], {
        tty,
        columns: 240,
        service: latest('bank=NABL'),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe(
        'warning: --bank NABL is not a bank code svc knows: did you mean NABIL? It is sent as given (the per-bank data covers more banks than svc lists).\n' +
          attribution(tty),
      );
    },
  );

  it('sends another bank, none near, as given without a word', async () => {
    const result = await svc(['data', 'latest', 'bank-pnl', '--bank', 'EVEREST'], {
      service: latest('bank=EVEREST'),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe(attribution(false));
  });

  it('series too', async () => {
    const service = new FakeService().expect(
      'GET',
      '/v1/data/cbank/banks/pnl/series?bank=KUMARI&line=income.interest-income',
      {
        body: {
          data: { line: 'income.interest-income', points: [{ month: '2025-07', value: 1 }] },
          meta: META,
        },
      },
    );
    const result = await svc(
      ['data', 'series', 'bank-pnl', 'income.interest-income', '--bank', 'kumari'],
      { service },
    );
    expect(result.code, result.stderr).toBe(0);
  });

  it('still refuses what is no code at all (exit 2)', async () => {
    const result = await svc(['data', 'latest', 'bank-pnl', '--bank', 'a b']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: --bank takes a bank code such as NABIL, not "a b"$/m);
  });

  it('lists the codes in its help', async () => {
    const result = await svc(['data', 'latest', '--help']);
    expect(result.stdout.replace(/\s+/g, ' ')).toContain(
      `--bank <code> the bank of a per-bank family (bank-pnl): ${DATA_BANK_CODES.join(', ')} or another bank's code`,
    );
  });
});

describe('completion of --bank', () => {
  const spec = describeProgram(buildProgram({ action: () => async () => {} }, processIO()));
  const bankFlag = (path: string): FlagSpec => {
    const command = allCommands(spec.root).find((c) => c.path.join(' ') === path)!;
    return command.flags.find((f) => f.long === '--bank')!;
  };
  const offered = (path: string) => {
    const values = bankFlag(path).value;
    return values?.kind === 'choices' ? values.choices.map((c) => c.value) : values;
  };

  it('offers auto and every documented code to svc parse, each with its bank', () => {
    expect(offered('parse')).toEqual([AUTO_BANK, ...BANK_CODES]);
    const value = bankFlag('parse').value;
    expect(
      value?.kind === 'choices' && value.choices.find((c) => c.value === 'NABIL')?.description,
    ).toBe('Nabil Bank');
  });

  it('offers the banks (no wallet) to the data commands', () => {
    for (const path of ['data latest', 'data series', 'data keys'])
      expect(offered(path)).toEqual(DATA_BANK_CODES);
  });
});
