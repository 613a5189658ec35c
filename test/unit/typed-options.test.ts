// The flag vocabulary of core/program: decimal, size, duration and list flags parsed where they
// are declared, what a flag needs and conflicts with, and what a declaration completes to.
import { Argument, Option } from '@commander-js/extra-typings';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { describeProgram } from '../../src/core/completion/spec.js';
import { completes, fromMachine, plain } from '../../src/core/completion/values.js';
import { UsageError } from '../../src/core/errors.js';
import { conflicts, needs } from '../../src/core/program/flag-relations.js';
import { SvcCommand } from '../../src/core/program/svc-command.js';
import {
  byteSize,
  commaList,
  decimalNumber,
  decimalOption,
  durationOption,
  listOption,
  sizeOption,
} from '../../src/core/program/typed-options.js';
import { valueOrUsageError } from '../support/usage-error.js';

/** A root and one command `run` with these flags; returns the options parsed from `args`. */
function parseWith(options: Option[], args: string[]) {
  const root = new SvcCommand('svc').exitOverride();
  const run = root.command('run').action(() => {});
  for (const option of options) run.addOption(option);
  root.parse(['run', ...args], { from: 'user' });
  return run.opts();
}

const message = (run: () => unknown) => {
  const result = valueOrUsageError(run);
  return result instanceof UsageError ? result.message : result;
};

describe('decimalOption', () => {
  const ratio = { form: 'decimal', above: 0, max: 1, takes: 'a fraction' } as const;

  it('gives the handler a number and refuses in the flag’s words', () => {
    expect(parseWith([decimalOption('--ratio <r>', 'a ratio', ratio)], ['--ratio', '.5'])).toEqual({
      ratio: 0.5,
    });
    expect(
      message(() => parseWith([decimalOption('--ratio <r>', 'a ratio', ratio)], ['--ratio', '2'])),
    ).toBe('--ratio takes a fraction, not "2"');
  });

  it('reads each form as it says, and keeps to its bounds', () => {
    const decimal = decimalNumber('--n', { form: 'decimal', min: 0, max: 1e6, takes: 'n' });
    const plain = decimalNumber('--n', { form: 'plain', above: 0, takes: 'n' });
    const number = decimalNumber('--n', { form: 'number', min: 0.1, max: 10, takes: 'n' });
    expect([decimal('5e5'), decimal('.5'), plain(' 12.50 '), number('0x2')]).toEqual([
      5e5, 0.5, 12.5, 2,
    ]);
    for (const [parse, text] of [
      [decimal, '-1'],
      [decimal, ' 5'],
      [plain, '5e5'],
      [plain, '0'],
      [number, ''],
      [number, 'Infinity'],
    ] as const)
      expect(() => parse(text)).toThrow(UsageError);
    expect(message(() => decimal('5,00,000'))).toBe(
      '--n takes n, not "5,00,000" (write it without grouping commas)',
    );
  });

  it('says a number out of bounds in its own words, with its hint', () => {
    const foir = decimalNumber('--f', {
      form: 'decimal',
      above: 0,
      max: 1,
      takes: 'a fraction such as 0.5',
      takesInBounds: 'a fraction',
      hint: (n) => ` (${n / 100})`,
    });
    expect(message(() => foir('x'))).toBe('--f takes a fraction such as 0.5, not "x"');
    expect(message(() => foir('50'))).toBe('--f takes a fraction, not "50" (0.5)');
  });

  it('takes every number in its bounds as JavaScript writes it', () => {
    const parse = decimalNumber('--n', { form: 'decimal', min: 0, max: 100, takes: 'n' });
    fc.assert(
      fc.property(fc.double({ min: 0, max: 100, noNaN: true }), (n) => {
        const text = String(Object.is(n, -0) ? 0 : n);
        expect(parse(text)).toBe(Number(text));
      }),
    );
  });
});

describe('sizeOption and durationOption', () => {
  it('give bytes and milliseconds, and refuse what is out of bounds', () => {
    const size = sizeOption('--size <size>', 'a size', { max: 1024 ** 2, takes: 'a size' });
    const age = durationOption('--age <d>', 'an age', { maxMs: 86_400_000, takes: 'a duration' });
    expect(parseWith([size, age], ['--size', '1.5K', '--age', '30m'])).toEqual({
      size: 1536,
      age: 1_800_000,
    });
    expect(
      message(() =>
        parseWith(
          [sizeOption('--size <size>', 'a size', { max: 10, takes: 'a size' })],
          ['--size', '1K'],
        ),
      ),
    ).toBe('--size takes a size, not "1K"');
    expect(
      message(() =>
        parseWith(
          [durationOption('--age <d>', 'an age', { maxMs: 1000, takes: 'a duration' })],
          ['--age', '2s'],
        ),
      ),
    ).toBe('--age takes a duration, not "2s"');
    expect([byteSize('300', 1000), byteSize('2 MiB', 4 * 1024 ** 2), byteSize('0', 10)]).toEqual([
      300,
      2 * 1024 ** 2,
      undefined,
    ]);
  });
});

describe('listOption', () => {
  it('gives the items trimmed, without empty ones; a second use replaces the list', () => {
    const list = () => listOption('--scopes <list>', 'scopes');
    expect(parseWith([list()], ['--scopes', ' a, ,b '])).toEqual({ scopes: ['a', 'b'] });
    expect(parseWith([list()], ['--scopes', 'a', '--scopes', 'b,c'])).toEqual({
      scopes: ['b', 'c'],
    });
    expect(commaList(' , ')).toEqual([]);
  });
});

describe('needs and conflicts', () => {
  const flags = () => [
    new Option('--file <path>', 'a file'),
    new Option('--dry-run', 'plan only'),
    conflicts(
      needs(new Option('--resume <kept>', 'resume'), 'file', '--resume needs --file'),
      'dryRun',
      '--resume conflicts with --dry-run',
    ),
  ];

  it('refuse in the declared words, needs first, before the command runs', () => {
    expect(message(() => parseWith(flags(), ['--resume', 'k']))).toBe('--resume needs --file');
    expect(message(() => parseWith(flags(), ['--resume', 'k', '--dry-run']))).toBe(
      '--resume needs --file',
    );
    expect(message(() => parseWith(flags(), ['--file', 'f', '--dry-run', '--resume', 'k']))).toBe(
      '--resume conflicts with --dry-run',
    );
    const refusal = valueOrUsageError(() => parseWith(flags(), ['--resume', 'k']));
    expect(refusal instanceof UsageError && refusal.hints).toEqual([]);
  });

  it('let the flags through when what they ask holds, and ask nothing of a flag not given', () => {
    expect(parseWith(flags(), ['--file', 'f', '--resume', 'k'])).toEqual({
      file: 'f',
      resume: 'k',
    });
    expect(parseWith(flags(), ['--dry-run'])).toEqual({ dryRun: true });
  });

  it('declare the conflict to commander too', () => {
    const [, , resume] = flags();
    expect((resume as unknown as { conflictsWith: string[] }).conflictsWith).toEqual(['dryRun']);
  });
});

describe('completes', () => {
  it('is what completion offers for the flag or argument declared with it', () => {
    const root = new SvcCommand('svc');
    root
      .command('run')
      .addOption(completes(new Option('--profile <name>', 'a profile'), fromMachine('profiles')))
      .addOption(listOption('--scopes <list>', 'scopes'))
      .addArgument(completes(new Argument('[shell]', 'a shell'), () => plain(['bash', 'zsh'])));
    const run = describeProgram(root).root.commands[0]!;
    expect(run.flags.map((f) => [f.long, f.value, f.repeatable])).toEqual([
      ['--profile', { kind: 'dynamic', source: 'profiles' }, false],
      ['--scopes', { kind: 'text' }, false],
    ]);
    expect(run.args[0]!.value).toEqual({
      kind: 'choices',
      choices: [{ value: 'bash' }, { value: 'zsh' }],
    });
  });
});
