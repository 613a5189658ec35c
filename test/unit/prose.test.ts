// Help and error text wrapped to a terminal (core/output/prose.ts): between words only, and example
// commands that still paste as one.
import { describe, expect, it } from 'vitest';

import { lineWidth } from '../../src/core/output/fit.js';
import { proseLines, shellLines } from '../../src/core/output/prose.js';

describe('prose', () => {
  it('wraps between words, the lines after the first at the hanging indent', () => {
    expect(
      proseLines(
        'error: --since takes a date of the Bikram Sambat calendar (Asar 2081)',
        30,
        '',
        '  ',
      ),
    ).toEqual(['error: --since takes a date of', '  the Bikram Sambat calendar', '  (Asar 2081)']);
  });

  it('never splits a word: one wider than the line stands alone on its own', () => {
    const url = 'https://docs.example.com/concepts/errors#report_not_found';
    expect(proseLines(`Docs: ${url}`, 30)).toEqual(['Docs:', url]);
  });

  it('keeps a span between backticks whole where it fits a line (else parts it between its words), and a date with its time', () => {
    expect(proseLines('Run `svc login --profile staging` to save a new one.', 30)).toEqual([
      'Run',
      '`svc login --profile staging`',
      'to save a new one.',
    ]);
    expect(proseLines('Run `svc login --profile staging` to save a new one.', 20)).toEqual([
      'Run `svc login',
      '--profile staging`',
      'to save a new one.',
    ]);
    expect(proseLines('It expires at 2026-11-27 09:12 UTC, in 10 days.', 20)).toEqual([
      'It expires at',
      '2026-11-27 09:12 UTC,',
      'in 10 days.',
    ]);
  });

  it('counts widths as the terminal does', () => {
    const lines = proseLines('श्री राम प्रसाद शर्मा श्री राम प्रसाद शर्मा', 20);
    expect(lines).toEqual(['श्री राम प्रसाद शर्मा', 'श्री राम प्रसाद शर्मा']);
    for (const line of lines) expect(lineWidth(line)).toBe(18);
  });
});

describe('an example command', () => {
  const at = (command: string, width: number) => shellLines(command, width, '  $ ', '      ');

  it('fits: one line', () => {
    expect(at('svc reports list', 60)).toEqual(['  $ svc reports list']);
  });

  it('goes on after a trailing ` \\`, a flag kept with its value and a redirection with its file, no line wider than the terminal', () => {
    const lines = at(
      'svc reports transactions rpt_9f2c41d07ab35e18 --direction debit --merchant-category dining -o csv > dining.csv',
      60,
    );
    expect(lines).toEqual([
      '  $ svc reports transactions rpt_9f2c41d07ab35e18 \\',
      '      --direction debit --merchant-category dining -o csv \\',
      '      > dining.csv',
    ]);
    for (const line of lines) expect(lineWidth(line)).toBeLessThanOrEqual(60);
  });

  it('a pipeline goes on at its `|`', () => {
    expect(at('svc auth rpt_9f2c41d07ab35e18 --json | jq -r .verification_status', 60)).toEqual([
      '  $ svc auth rpt_9f2c41d07ab35e18 --json \\',
      '      | jq -r .verification_status',
    ]);
  });

  it('is never broken inside quotes (a ` \\` there would be part of the text)', () => {
    const lines = at(
      `cut -f3 payments.tsv | svc merchants resolve --file - -o ndjson | jq -r 'select(.matched) | .category'`,
      40,
    );
    expect(lines.some((line) => line.includes("'select(.matched) | .category'"))).toBe(true);
    expect(
      lines
        .join('\n')
        .replace(/ \\\n +/g, ' ')
        .replace(/^ {2}\$ /, ''),
    ).toBe(
      `cut -f3 payments.tsv | svc merchants resolve --file - -o ndjson | jq -r 'select(.matched) | .category'`,
    );
  });

  it('a comment that does not fit beside it goes above it, wrapped (a ` \\` would end in the comment)', () => {
    expect(
      at(
        'svc merchants resolve --file narrations.txt --no-header   # lines with commas that are not CSV',
        60,
      ),
    ).toEqual([
      '  # lines with commas that are not CSV',
      '  $ svc merchants resolve --file narrations.txt --no-header',
    ]);
  });
});
