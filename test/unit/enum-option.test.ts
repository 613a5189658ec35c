// An enum flag is declared once (enumOption): the one list of values refuses any other before the
// command runs, in svc's words and with exit 2; the help shows the values; completion offers them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { allCommands, describeProgram } from '../../src/core/completion/spec.js';
import { UsageError } from '../../src/core/errors.js';
import { processIO } from '../../src/core/io.js';
import { SvcCommand } from '../../src/core/program/svc-command.js';
import { enumOption } from '../../src/core/program/typed-options.js';
import { buildProgram } from '../../src/main.js';
import { FakeService, svc } from '../support/in-process.js';
import { valueOrUsageError } from '../support/usage-error.js';

const STATES = ['complete', 'processing', 'failed'] as const;

/** `svc reports list --status …` alone, without the rest of the program. */
function command() {
  const root = new SvcCommand('svc').exitOverride();
  return root
    .command('list')
    .addOption(enumOption('--status <status>', 'only reports in this state', STATES))
    .action(() => {});
}

function parse(...args: string[]) {
  const list = command();
  list.parent!.parse(['list', ...args], { from: 'user' });
  return list.opts();
}

describe('enumOption validates', () => {
  it('takes each of its values', () => {
    for (const state of STATES) expect(parse('--status', state)).toEqual({ status: state });
    expect(parse()).toEqual({});
  });

  it('refuses any other text with a usage error naming the flag and its values, the nearest as "did you mean"', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...STATES)), (text) => {
        const result = valueOrUsageError(() => parse('--status', text));
        expect(result instanceof UsageError).toBe(!(STATES as readonly string[]).includes(text));
        if (result instanceof UsageError)
          expect(result.message).toBe(
            `--status takes one of complete, processing, failed, not "${text}"`,
          );
      }),
      { numRuns: 300 },
    );
    const near = valueOrUsageError(() => parse('--status', 'faild'));
    expect(near).toBeInstanceOf(UsageError);
    expect((near as UsageError).hints).toEqual(['Did you mean "failed"?']);
  });

  it('a required one, left out, says the values it takes', () => {
    const root = new SvcCommand('svc').exitOverride();
    root
      .command('record')
      .addOption(
        enumOption('--decision <decision>', 'what you decided', [
          'approved',
          'review',
          'declined',
        ]).makeOptionMandatory(),
      )
      .action(() => {});
    const missing = valueOrUsageError(() => root.parse(['record'], { from: 'user' }));
    expect((missing as UsageError).message).toBe(
      'missing --decision: one of approved, review, declined',
    );
  });

  it('on the command line: exit 2 and nothing sent, whatever else the line holds', async () => {
    const result = await svc(
      [
        'decisions',
        'record',
        '--client-reference-id',
        'loan-1',
        '--decision',
        'aproved',
        '--amount',
        '5',
      ],
      { service: new FakeService() },
    );
    expect(result.code).toBe(2);
    expect(result.requests).toEqual([]);
    expect(result.stderr).toBe(
      'error: --decision takes one of approved, review, declined, not "aproved"\nDid you mean "approved"?\n',
    );
  });
});

describe('enumOption documents', () => {
  it('the help writes the values after the description', () => {
    expect(command().helpInformation().replace(/\s+/g, ' ')).toContain(
      '--status <status> only reports in this state (one of: complete, processing, failed)',
    );
  });

  it('in every command that declares one', async () => {
    const help = async (...path: string[]) =>
      (await svc([...path, '--help'])).stdout.replace(/\s+/g, ' ');
    expect(await help('decisions', 'record')).toContain(
      '--decision <decision> what you decided (one of: approved, review, declined)',
    );
    expect(await help('reports', 'transactions')).toContain(
      '--direction <direction> only money in (credit) or only money out (debit) (one of: credit, debit)',
    );
  });
});

describe('enumOption completes', () => {
  const spec = describeProgram(buildProgram({ action: () => async () => {} }, processIO()));
  const offered = (path: string, flag: string) => {
    const value = allCommands(spec.root)
      .find((c) => c.path.join(' ') === path)!
      .flags.find((f) => f.long === flag)!.value;
    return value?.kind === 'choices' ? value.choices.map((c) => c.value) : value;
  };

  it.each([
    ['reports list', '--status', ['complete', 'processing', 'failed']],
    ['reports transactions', '--direction', ['credit', 'debit']],
    ['statements list', '--status', ['issued', 'revoked']],
    ['sandbox fire', '--event', ['report.ready', 'report.failed']],
    ['decisions record', '--decision', ['approved', 'review', 'declined']],
    ['decisions list', '--outcome', ['repaid', 'delinquent', 'defaulted', 'written_off']],
    ['decisions outcome', '--outcome', ['repaid', 'delinquent', 'defaulted', 'written_off']],
  ])('svc %s %s offers its values', (path, flag, values) => {
    expect(offered(path, flag)).toEqual(values);
  });

  it('the global --output too', () => {
    expect(spec.globalFlags.find((f) => f.long === '--output')!.value).toEqual({
      kind: 'choices',
      choices: ['table', 'wide', 'json', 'ndjson', 'csv'].map((value) => ({ value })),
    });
  });
});
