// A run that names a top-level command runs the bundle of that command's noun alone
// (scripts/build.mjs, src/launch/route.ts): the table of which register function declares which
// top-level commands must be true, and the command line must be read as commander reads it, or
// the run would meet a program without its command.
import { describe, expect, it } from 'vitest';

import { processIO } from '../../src/core/io.js';
import { SvcCommand } from '../../src/core/program/svc-command.js';
import { bundleOf } from '../../src/launch/route.js';
import { buildProgram, launchTable, NOUNS } from '../../src/main.js';

const app = { action: () => async () => {} };
const io = { ...processIO(), env: {} };
const EVERY = buildProgram(app, io).commands.flatMap((c) => [c.name(), ...c.aliases()]);
/** The top-level commands of the bundle that runs `argv`. */
const topLevel = (argv: string[] = []) => {
  const noun = bundleOf(argv, launchTable());
  return noun === undefined ? EVERY : NOUNS.find(([, names]) => names[0] === noun)![1];
};

describe('the table of nouns', () => {
  it.each(NOUNS.map(([register, names]) => [register.name, names] as const))(
    '%s declares %j at the top level, and nothing else',
    (name, names) => {
      const register = NOUNS.find(([r]) => r.name === name)![0];
      const root = new SvcCommand('svc');
      register(root, app);
      expect(root.commands.flatMap((c) => [c.name(), ...c.aliases()])).toEqual(names);
    },
  );

  it('names every top-level command of the program once', () => {
    expect(NOUNS.flatMap(([, names]) => names).sort()).toEqual([...EVERY].sort());
  });
});

describe('the noun a command line names', () => {
  it.each([
    [
      ['reports', 'list', '--json'],
      ['reports', 'match', 'auth', 'recurring'],
    ],
    [
      ['match', 'rpt_1', '--name', 'x'],
      ['reports', 'match', 'auth', 'recurring'],
    ],
    [['--profile', 'staging', 'data', 'series', 'cpi'], ['data']],
    [['--json', '-o', 'json', '--no-color', 'usage'], ['usage']],
    [['--timeout', 'reports', 'usage'], ['usage']],
    [
      ['--base-url=https://a.example', '--jq', '.data', 'whoami'],
      ['login', 'logout', 'whoami'],
    ],
    [['--api-key', '--json', 'usage'], ['usage']],
    [['mock', '--port', '0'], ['mock']],
  ])('%j builds %j', (argv, expected) => {
    expect(topLevel(argv)).toEqual(expected);
  });

  it.each([
    [[]],
    [['--help']],
    [['help', 'reports', 'list']],
    [['completion', 'bash']],
    [['repots', 'list']],
    [['-ojson', 'usage']],
    [['--', 'usage']],
    [['--bogus', 'usage']],
    [['--profile']],
    [['constructor']],
  ])('%j builds every command', (argv) => {
    expect(topLevel(argv)).toEqual(EVERY);
  });
});
