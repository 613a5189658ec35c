// The number flags, checked by their declaration (integerOption and the parsers given to
// `.option()`): a value the flag does not take is refused before the command runs, in one line
// that names the flag, what it takes and the value, with exit 2, nothing on stdout and nothing
// sent; for a person at a terminal and a script alike. A good value reaches the handler as a
// number (the commands' own tests use them).
import { describe, expect, it } from 'vitest';

import { MODES, svc, unwrapped } from '../support/in-process.js';

const ID = 'rpt_0123456789abcdef';
const LOAN = ['--principal', '500000', '--tenor-months', '36', '--annual-rate', '12'];
const RECORD = ['decisions', 'record', '--client-reference-id', 'loan-1', '--decision', 'approved'];

/** [the command line before the flag, the flag, bad values, what the flag takes]. */
const FLAGS: [string[], string, string[], string][] = [
  [
    ['usage'],
    '--timeout',
    ['0', '0.05', '3601', 'ten', '', 'Infinity', 'NaN'],
    'a number of seconds from 0.1 to 3600',
  ],
  [['usage'], '--retries', ['11', '-1', '1.5', 'two', ''], 'a whole number from 0 to 10'],
  [['reports', 'list'], '--limit', ['0', '101', '1e2', 'ten'], 'a whole number from 1 to 100'],
  [
    ['reports', 'transactions', ID],
    '--limit',
    ['0', '1001', '10.0', ' 5'],
    'a whole number from 1 to 1000',
  ],
  [['decisions', 'list'], '--limit', ['0', '201', '-1', '0x10'], 'a whole number from 1 to 200'],
  [
    ['consents', 'create', ID, '--scopes', 'income'],
    '--expires-in-days',
    ['0', '366', '1.5', '-1', 'ten', ''],
    'a whole number from 1 to 365',
  ],
  [
    ['merchants', 'resolve', '1234567890123456'],
    '--concurrency',
    ['0', '17', 'four'],
    'a whole number from 1 to 16',
  ],
  [
    ['ready', '/nonexistent/svc-ready'],
    '--wait',
    ['0', '86401', '1m'],
    'a whole number from 1 to 86400',
  ],
  [
    ['parse', '/nonexistent/statement.pdf', '--wait'],
    '--wait-timeout',
    ['0', '86401', '10s'],
    'a whole number from 1 to 86400',
  ],
  [
    ['reports', 'underwrite', ID, '--principal', '500000', '--annual-rate', '12'],
    '--tenor-months',
    ['0', '601', '12.0'],
    'a whole number from 1 to 600',
  ],
  [
    [...RECORD],
    '--amount',
    ['0', '-5', '1e5', 'abc', '', '1,000', 'Infinity', '0.00'],
    'a positive number, such as 250000',
  ],
  [
    ['reports', 'underwrite', ID, '--tenor-months', '36', '--annual-rate', '12'],
    '--principal',
    ['0', '-5', 'Infinity'],
    'the loan amount, a number above 0',
  ],
  [
    ['reports', 'underwrite', ID, '--principal', '500000', '--tenor-months', '36'],
    '--annual-rate',
    ['101', 'twelve'],
    'the yearly interest rate in percent, from 0 to 100',
  ],
  [
    ['data', 'latest', 'cpi'],
    '--max-age',
    ['-1', '5y', 'h', '12 hours', '400d', ''],
    'a duration such as 90, 30m, 12h or 7d (at most 366d)',
  ],
  [
    ['reports', 'underwrite', ID, ...LOAN],
    '--foir-ceiling',
    ['0', '1.5', 'half'],
    'a fraction above 0 and at most 1 (e.g. 0.5 for 50%)',
  ],
];

const cases = FLAGS.flatMap(([before, flag, values, takes]) =>
  values.flatMap((value) =>
    MODES.map(({ mode, tty }) => ({
      argv: [...before, `${flag}=${value}`],
      flag,
      value,
      takes,
      mode,
      tty,
    })),
  ),
);

describe('number flags refuse what they do not take', () => {
  it.each(cases)('svc $argv, for $mode', async ({ argv, flag, value, takes, tty }) => {
    const result = await svc(argv, { tty });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(unwrapped(result.stderr)).toMatch(
      new RegExp(
        `^error: ${escaped(`${flag} takes ${takes}`)}.*, not ${escaped(JSON.stringify(value))}.*\\n$`,
      ),
    );
    expect(result.requests).toEqual([]);
  });
});

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
