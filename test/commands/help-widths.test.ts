// Help and errors wrap to the terminal (docs/reference/output.md, "Wrapping and widths"): at word
// boundaries, to its width (80 in a pipe), no line wider, no word split; an example command too
// long for a line goes on after a trailing ` \`. Every command's help is rendered at 60, 80 and 120
// columns and read against the same help rendered with no width limit.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';

import { HELP_TOPICS } from '../../src/commands/help/topics.js';
import { processIO } from '../../src/core/io.js';
import { lineWidth } from '../../src/core/output/fit.js';
import { renderText } from '../../src/core/program/document.js';
import { buildProgram } from '../../src/main.js';
import { expectFailure, plain, svc } from '../support/in-process.js';

const program = buildProgram({ action: () => async () => {} }, processIO());
const commands: CommandUnknownOpts[] = [];
const walk = (command: CommandUnknownOpts) => {
  commands.push(command);
  command.commands.forEach(walk);
};
walk(program);
const pathOf = (command: CommandUnknownOpts): string[] =>
  command.parent ? [...pathOf(command.parent), command.name()] : [];

/** A command's help with no width limit: each paragraph, description and example on one line. */
function unwrapped(command: CommandUnknownOpts): string {
  const help = command.createHelp();
  help.helpWidth = Number.MAX_SAFE_INTEGER;
  return help.formatHelp(command, help);
}

/**
 * The words of a text, sorted: a word split in two would be two others. A ` \` that continues a
 * command is no word, nor a `#` that starts a comment (a comment too long to stay beside its
 * command has lines of its own, above it).
 */
const words = (text: string) =>
  text
    .split(/\s+/)
    .filter((word) => word !== '' && word !== '\\' && word !== '#')
    .sort();

/** The lines of `text` wider than `width`, as a list of problems. */
function tooWide(text: string, width: number, what: string): string[] {
  return text
    .split('\n')
    .filter((line) => lineWidth(line) > width)
    .map((line) => `${what}: ${lineWidth(line)} columns: ${line}`);
}

describe('every command’s help, at 60, 80 and 120 columns', () => {
  it('walks the whole tree', () => {
    expect(commands.length).toBeGreaterThan(40);
  });

  it.each([60, 80, 120])(
    'at %i columns: no line wider than the terminal, the words those of the unwrapped help, whole',
    async (width) => {
      const problems: string[] = [];
      for (const command of commands) {
        const path = pathOf(command);
        const name = ['svc', ...path].join(' ');
        const result = await svc([...path, '--help'], { tty: true, columns: width });
        expect(result.code, name).toBe(0);
        expect(result.stderr, name).toBe('');
        const help = plain(result.stdout);
        problems.push(...tooWide(help, width, name));
        if (words(help).join(' ') !== words(unwrapped(command)).join(' '))
          problems.push(`${name}: the words are not those of the unwrapped help`);
      }
      expect(problems).toEqual([]);
    },
  );

  it('in a pipe, at 80 columns whatever the terminal says', async () => {
    const result = await svc(['reports', 'transactions', '--help'], { columns: 200 });
    expect(result.code).toBe(0);
    expect(tooWide(result.stdout, 80, 'reports transactions')).toEqual([]);
    expect(result.stdout.split('\n').some((line) => lineWidth(line) > 70)).toBe(true);
  });

  it('a flag whose description does not fit beside it wraps between words at 60 columns (it was cut mid-word: "(default: th" / "e service decides)")', async () => {
    const result = await svc(['reports', 'list', '--help'], { tty: true, columns: 60 });
    const lines = result.stdout.split('\n');
    const at = lines.findIndex((line) => line.startsWith('  --limit'));
    expect(lines.slice(at, at + 2)).toEqual([
      '  --limit <n>        how many reports, 1 to 100 (default:',
      '                     the service decides)',
    ]);
  });

  it('an example too long for the line goes on after a trailing ` \\`, broken only between the words of the shell', async () => {
    const result = await svc(['reports', 'transactions', '--help'], { tty: true, columns: 60 });
    const lines = result.stdout.split('\n');
    const at = lines.indexOf('  $ svc reports transactions rpt_9f2c41d07ab35e18 \\');
    expect(at).toBeGreaterThan(0);
    // A flag stays with its value.
    expect(lines.slice(at, at + 3)).toEqual([
      '  $ svc reports transactions rpt_9f2c41d07ab35e18 \\',
      '        --category salary --since 2026-01-01 \\',
      '        --until 2026-03-31',
    ]);
    // A quoted jq program stays whole, on one line.
    expect(lines.some((line) => line.includes("'select(.credit != null) | .credit'"))).toBe(true);
  });

  it.each(HELP_TOPICS.map((topic) => topic.name))(
    'the help topic %s at 60 columns: no line wider, every word whole',
    async (name) => {
      const result = await svc(['help', name], { tty: true, columns: 60 });
      expect(result.code).toBe(0);
      expect(tooWide(result.stdout, 60, name)).toEqual([]);
      const topic = HELP_TOPICS.find((t) => t.name === name)!;
      expect(words(result.stdout)).toEqual(
        words(renderText(topic.body(program), Number.MAX_SAFE_INTEGER)),
      );
    },
  );
});

describe('errors, at 60 columns and in a pipe', () => {
  it('wrap between words to the terminal, the lines after the first indented', async () => {
    const result = await svc(
      ['reports', 'transactions', 'rpt_1', '--calendar', 'bs', '--since', '2081-03-32'],
      { tty: true, columns: 60 },
    );
    expectFailure(result, 2, /^error: --since /);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(lineWidth(line), line).toBeLessThanOrEqual(60);
    expect(words(result.stderr)).toEqual(words(lines.join(' ')));
  });
});
