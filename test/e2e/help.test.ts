// `svc help`: the help of any command, the help topics (made from the lists the code reads), the
// examples of every command, the man page, and "did you mean" for mistyped commands, flags and
// topics (exit 2, nothing sent).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { HELP_TOPICS } from '../../src/commands/help/topics.js';
import { allCommands, describeProgram } from '../../src/core/completion/spec.js';
import { processIO } from '../../src/core/io.js';
import { buildProgram } from '../../src/main.js';
import { ENVIRONMENT } from '../../src/service/environment.js';
import { EXIT_CODES } from '../../src/service/errors.js';
import { inSizedTerminal, type Result, ROOT, run, STACK_LINE, useWorld } from './harness.js';

const world = useWorld();

/** The real command tree, as the completion scripts and the man page see it. */
const spec = describeProgram(buildProgram({ action: () => async () => {} }, processIO()));
const commands = allCommands(spec.root).filter((command) => command.path.length > 0);
/** The flags all commands share (--help aside, which every command lists as its own). */
const globalFlags = spec.globalFlags.filter((flag) => flag.long !== '--help');

/** Text as a reader sees it, whatever the wrapping. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

function expectHelpText(result: Result): void {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toBe('');
  expect(result.stdout.length).toBeGreaterThan(100);
}

describe('svc help', () => {
  it('alone lists every command and every topic', async () => {
    const result = await world.bare(['help']);
    expectHelpText(result);
    for (const command of spec.root.commands)
      expect(result.stdout).toMatch(new RegExp(`^  ${command.name}\\b`, 'm'));
    for (const topic of HELP_TOPICS)
      expect(result.stdout).toMatch(new RegExp(`^  ${topic.name} +${topic.summary}$`, 'm'));
  });

  it('COMMAND [SUBCOMMAND] prints the same help as --help', async () => {
    for (const path of [['reports', 'list'], ['data'], ['completion'], ['help']]) {
      const [viaHelp, viaFlag] = await Promise.all([
        world.bare(['help', ...path]),
        world.bare([...path, '--help']),
      ]);
      expectHelpText(viaHelp);
      expect(viaHelp.stdout).toBe(viaFlag.stdout);
    }
  });

  it('environment lists every variable of the list the code reads', async () => {
    const result = await world.bare(['help', 'environment']);
    expectHelpText(result);
    for (const variable of ENVIRONMENT) {
      expect(result.stdout).toMatch(new RegExp(`^  ${variable.name}\\b`, 'm'));
      if ('alias' in variable) expect(result.stdout).toContain(variable.alias);
      expect(flat(result.stdout)).toContain(flat(variable.description));
    }
  });

  it('exit-codes lists every row of the exit-code table', async () => {
    const result = await world.bare(['help', 'exit-codes']);
    expectHelpText(result);
    for (const row of EXIT_CODES) {
      expect(result.stdout).toMatch(new RegExp(`^  ${row.exit} +\\S`, 'm'));
      expect(flat(result.stdout)).toContain(row.meaning);
      for (const code of row.errorCodes) expect(result.stdout).toContain(code);
    }
  });

  it('formatting names every output format, the colour rules and jq recipes', async () => {
    const result = await world.bare(['help', 'formatting']);
    expectHelpText(result);
    const output = spec.globalFlags.find((flag) => flag.long === '--output')!;
    expect(output.value?.kind).toBe('choices');
    for (const format of output.value?.kind === 'choices' ? output.value.choices : [])
      expect(result.stdout).toMatch(new RegExp(`^  ${format.value} `, 'm'));
    for (const word of ['NO_COLOR', 'FORCE_COLOR', 'CLICOLOR', '--no-color', '| jq '])
      expect(result.stdout).toContain(word);
  });

  it('config describes the resolution order and the commands that change the file, from the tree', async () => {
    const result = await world.bare(['help', 'config']);
    expectHelpText(result);
    expect(result.stdout).toContain('config.json');
    const config = spec.root.commands.find((c) => c.name === 'config')!;
    for (const sub of config.commands) {
      expect(result.stdout).toContain(`svc config ${sub.name}`);
      expect(flat(result.stdout)).toContain(sub.description);
    }
  });
});

describe('every command', () => {
  it('has examples in its --help (the whole tree, walked)', async () => {
    expect(commands.length).toBeGreaterThan(30);
    const problems: string[] = [];
    for (let i = 0; i < commands.length; i += 12) {
      const batch = commands.slice(i, i + 12);
      const results = await Promise.all(
        batch.map((command) => world.bare([...command.path, '--help'])),
      );
      batch.forEach((command, j) => {
        const name = ['svc', ...command.path].join(' ');
        const { code, stdout, stderr } = results[j]!;
        if (code !== 0 || stderr !== '')
          problems.push(`${name} --help: exit ${code}, stderr ${JSON.stringify(stderr)}`);
        if (!/^Examples:$/m.test(stdout)) problems.push(`${name} --help: no "Examples:" section`);
        if (!/^ {2}\$ \S*svc /m.test(stdout)) problems.push(`${name} --help: no "$ svc …" example`);
        if (command.examples.length === 0) problems.push(`${name}: no example in the tree`);
        // gh's manner: the global flags are not repeated; one line at most names them.
        // (Before the examples: an example too long for a line goes on, indented, with its flags.)
        const flags = stdout.split('\nExamples:')[0]!;
        for (const flag of globalFlags)
          if (new RegExp(`^ +${flag.long}\\b`, 'm').test(flags))
            problems.push(`${name} --help: lists the global ${flag.long}`);
        if ((stdout.match(/^Global flags: /gm) ?? []).length > 1)
          problems.push(`${name} --help: more than one "Global flags:" line`);
        if (/"\d+"/.test(stdout.split('\nExamples:')[0]!))
          problems.push(`${name} --help: a quoted number (a default?)`);
      });
    }
    expect(problems).toEqual([]);
  });
});

describe('the help, in the manner of gh', () => {
  it('of a noun lists its commands before its flags, and the global flags in one line', async () => {
    const result = await world.bare(['reports', '--help']);
    expectHelpText(result);
    expect(result.stdout).toMatch(/^Usage: svc reports <command> \[flags\]$/m);
    expect(result.stdout.indexOf('\nCommands:\n')).toBeGreaterThan(0);
    expect(result.stdout.indexOf('\nCommands:\n')).toBeLessThan(
      result.stdout.indexOf('\nFlags:\n'),
    );
    expect(result.stdout).toMatch(
      /^Global flags: --json, --output, --no-color and 13 more \(svc help global-flags\)$/m,
    );
  });

  it('of a leaf lists its own flags, choices and defaults as typed, and one line for the global flags', async () => {
    const result = await world.bare(['reports', 'list', '--help']);
    expectHelpText(result);
    expect(result.stdout).toMatch(/^Usage: svc reports list \[flags\]$/m);
    expect(flat(result.stdout)).toContain(
      '--status <status> only reports in this state (one of: complete, processing, failed)',
    );
    expect(result.stdout.match(/^Global flags: .*$/gm)).toEqual([
      'Global flags: --json, --output, --no-color and 13 more (svc help global-flags)',
    ]);
    expect(result.stdout).not.toMatch(/^ +--api-key/m);
    const mock = await world.bare(['mock', '--help']);
    expect(flat(mock.stdout)).toContain('(default: 8787)');
    expect(mock.stdout).not.toContain('"8787"');
  });

  it.each([
    [['mock'], 'Global flags: --json, --output, --no-color and 6 more (svc help global-flags)'],
    [
      ['webhooks', 'verify'],
      'Global flags: --json, --output, --no-color and 6 more (svc help global-flags)',
    ],
    [
      ['webhooks', 'listen'],
      'Global flags: --json, --output, --no-color and 13 more (svc help global-flags)',
    ],
    [['completion'], undefined],
    [['help'], undefined],
  ])('of svc %j names only the global flags that apply to it', async (path, line) => {
    const result = await world.bare([...path, '--help']);
    expectHelpText(result);
    expect(result.stdout.match(/^Global flags: .*$/gm)?.[0]).toBe(line);
    for (const flag of ['--api-key', '--base-url', '--retries', '--profile', '--debug'])
      expect(result.stdout).not.toContain(flag);
  });

  it('at the root groups the commands, lists the global flags and ends with "Learn more"', async () => {
    const result = await world.bare(['help']);
    expectHelpText(result);
    const headings = result.stdout
      .split('\n')
      .filter((line) => /^[A-Z][^:]*:$/.test(line) || /^Help topics/.test(line));
    expect(headings).toEqual([
      'Core commands:',
      'Lending commands:',
      'Data commands:',
      'Webhooks and sandbox commands:',
      'Setup commands:',
      'Global flags:',
      'Examples:',
      'Help topics (svc help TOPIC):',
      'Learn more:',
    ]);
    for (const flag of spec.globalFlags)
      expect(result.stdout).toMatch(new RegExp(`^  (-\\w, )?${flag.long}\\b`, 'm'));
    expect(result.stdout).toContain('svc help global-flags');
    const [docs, man] = result.stdout.trimEnd().split('\n').slice(-2);
    expect(docs).toMatch(/README.*docs\//);
    expect(man).toMatch(/man page.*man\/svc\.1/);
  });

  it('global-flags lists every global flag of the program, and the commands that take fewer', async () => {
    const result = await world.bare(['help', 'global-flags']);
    expectHelpText(result);
    for (const flag of globalFlags) {
      expect(result.stdout).toMatch(new RegExp(`^  (-\\w, )?${flag.long}\\b`, 'm'));
      expect(flat(result.stdout)).toContain(flat(flag.description));
    }
    expect(result.stdout).toMatch(
      /^  svc mock +--json, --output, --no-color, --no-pager, --calendar,\n +--jq, --columns, --no-headers, --no-formula-guard$/m,
    );
    expect(result.stdout).toMatch(/^  svc completion +none of them$/m);
  });
});

describe('the man page', () => {
  const page = readFileSync(join(ROOT, 'man', 'svc.1'), 'utf8');
  const roff = (text: string) => text.replace(/-/g, '\\-');

  it('is roff with a section for every command, every topic and every variable', () => {
    expect(page.split('\n')[1]).toMatch(/^\.TH SVC 1 /);
    for (const command of commands) expect(page).toContain(`.SS "${roff(command.usage)}"`);
    for (const topic of HELP_TOPICS) expect(page).toContain(`.SH ${topic.manSection}\n`);
    for (const variable of ENVIRONMENT) expect(page).toContain(`\\fB${variable.name}`);
    // Only ASCII: other characters are groff escapes.
    expect(page).toMatch(/^[\x00-\x7f]*$/);
  });
});

describe('a mistyped name', () => {
  it.each([
    [['rep'], 'Did you mean "reports"?'],
    [['repots', 'list'], 'Did you mean "reports"?'],
    [['reports', 'lsit'], 'Did you mean "list"?'],
    [['sandbox', 'fir', 'rpt_1'], 'Did you mean "fire"?'],
    [['reports', 'list', '--stauts', 'failed'], 'Did you mean "--status"?'],
    [['reports', 'list', '--stat', 'failed'], 'Did you mean "--status"?'],
    [['data', 'series', 'cpi', 'overall', '--chrt'], 'Did you mean "--chart"?'],
    [['--jsn', 'usage'], 'Did you mean "--json"?'],
    [['help', 'enviroment'], 'Did you mean "environment"?'],
    [['help', 'exit-code'], 'Did you mean "exit-codes"?'],
    [['help', 'reports', 'lsit'], 'Did you mean "list"?'],
    [['reports', 'help'], '`svc help reports`'],
  ])('svc %j suggests %s, exits 2 and sends nothing', async (args, suggestion) => {
    const result = await world.svc(args);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    // One line saying what is wrong, then the suggestion on a line of its own.
    expect(result.stderr.split('\n')[0]).toMatch(/^error: (unknown|no help topic)/);
    expect(
      result.stderr
        .split('\n')
        .slice(1)
        .some((line) => line.includes(suggestion)),
    ).toBe(true);
    expect(result.stderr).not.toMatch(STACK_LINE);
    expect(await world.requests()).toEqual([]);
  });

  it('far from every name gets no suggestion', async () => {
    const result = await world.svc(['xyzzy']);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('error: unknown command "xyzzy"');
    expect(result.stderr).not.toContain('Did you mean');
  });
});

describe('the root help prepared at build time', () => {
  it('is what the program itself prints for `svc help`', async () => {
    const prepared = await run(['--help'], { configDir: world.dir });
    const full = await run(['help'], { configDir: world.dir });
    expect(prepared.code).toBe(0);
    expect(prepared.stderr).toBe('');
    expect(prepared.stdout).toBe(full.stdout);
    expect(prepared.stdout).toMatch(/^Usage: svc /);
  });

  it.each([60, 80, 120])(
    'on a terminal %i columns wide, is the help the program wraps to it',
    async (columns) => {
      const terminal = (args: string) =>
        inSizedTerminal(args, {
          columns,
          configDir: world.dir,
          scratch: world.tempDir('svc-help-pty-'),
        });
      const [prepared, full] = await Promise.all([terminal('--help'), terminal('help')]);
      expect(prepared.code).toBe(0);
      expect(prepared.terminal).toBe(full.terminal);
      const lines = prepared.terminal.replace(/\r/g, '').split('\n');
      expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(columns);
      if (columns !== 80)
        expect(prepared.terminal).not.toBe(readFileSync(join(ROOT, 'dist', 'help.txt'), 'utf8'));
    },
  );
});
