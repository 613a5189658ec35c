// `svc help`: the help of any command, the help topics (made from the lists the code reads), the
// examples of every command, the man page, and "did you mean" for mistyped commands, flags and
// topics (exit 2, nothing sent).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HELP_TOPICS } from '../../src/commands/help/topics.js';
import { allCommands, describeProgram } from '../../src/docs/completion/spec.js';
import { ENVIRONMENT } from '../../src/core/environment.js';
import { EXIT_CODES } from '../../src/core/errors.js';
import { processIO } from '../../src/core/io.js';
import { buildProgram } from '../../src/main.js';
import { ROOT, run, STACK_LINE, useWorld, type Result } from './harness.js';

const world = useWorld();

/** The real command tree, as the completion scripts and the man page see it. */
const spec = describeProgram(buildProgram({ action: () => async () => {} }, processIO()));
const commands = allCommands(spec.root).filter((command) => command.path.length > 0);

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
    for (const command of spec.root.commands) expect(result.stdout).toMatch(new RegExp(`^  ${command.name}\\b`, 'm'));
    for (const topic of HELP_TOPICS) expect(result.stdout).toMatch(new RegExp(`^  ${topic.name} +${topic.summary}$`, 'm'));
  });

  it('COMMAND [SUBCOMMAND] prints the same help as --help', async () => {
    for (const path of [['reports', 'list'], ['data'], ['completion'], ['help']]) {
      const [viaHelp, viaFlag] = await Promise.all([world.bare(['help', ...path]), world.bare([...path, '--help'])]);
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
    for (const format of output.value?.kind === 'choices' ? output.value.choices : []) expect(result.stdout).toMatch(new RegExp(`^  ${format.value} `, 'm'));
    for (const word of ['NO_COLOR', 'FORCE_COLOR', 'CLICOLOR', '--no-color', '| jq ']) expect(result.stdout).toContain(word);
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
      const results = await Promise.all(batch.map((command) => world.bare([...command.path, '--help'])));
      batch.forEach((command, j) => {
        const name = ['svc', ...command.path].join(' ');
        const { code, stdout, stderr } = results[j]!;
        if (code !== 0 || stderr !== '') problems.push(`${name} --help: exit ${code}, stderr ${JSON.stringify(stderr)}`);
        if (!/^Examples:$/m.test(stdout)) problems.push(`${name} --help: no "Examples:" section`);
        if (!/^ {2}\$ \S*svc /m.test(stdout)) problems.push(`${name} --help: no "$ svc …" example`);
        if (command.examples.length === 0) problems.push(`${name}: no example in the tree`);
      });
    }
    expect(problems).toEqual([]);
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
    [['rep'], '`reports`'],
    [['repots', 'list'], '`reports`'],
    [['reports', 'lsit'], '`list`'],
    [['sandbox', 'fir', 'rpt_1'], '`fire`'],
    [['reports', 'list', '--stauts', 'failed'], '`--status`'],
    [['reports', 'list', '--stat', 'failed'], '`--status`'],
    [['data', 'series', 'cpi', 'overall', '--chrt'], '`--chart`'],
    [['--jsn', 'usage'], '`--json`'],
    [['help', 'enviroment'], '`environment`'],
    [['help', 'exit-code'], '`exit-codes`'],
    [['help', 'reports', 'lsit'], '`list`'],
    [['reports', 'help'], '`svc help reports`'],
  ])('svc %j suggests %s, exits 2 and sends nothing', async (args, suggestion) => {
    const result = await world.svc(args);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toMatch(/^error: /);
    expect(result.stderr.split('\n')[0]).toContain(suggestion);
    expect(result.stderr).not.toMatch(STACK_LINE);
    expect(await world.requests()).toEqual([]);
  });

  it('far from every name gets no suggestion', async () => {
    const result = await world.svc(['xyzzy']);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe("error: unknown command 'xyzzy'");
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
});
