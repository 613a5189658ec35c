// A run that names a top-level command runs the bundle of that command's noun alone
// (scripts/build.mjs, src/launch/route.ts): the table of which register function declares which
// top-level commands must be true, and the command line must be read as commander reads it, or
// the run would meet a program without its command. Within a bundle, the program declares only the
// commands the line names, where that is certain (src/core/program/svc-command.ts declareOnly).
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';

import { processIO } from '../../src/core/io.js';
import { SvcCommand } from '../../src/core/program/svc-command.js';
import { routeOf } from '../../src/launch/route.js';
import { buildProgram, launchTable, NOUNS } from '../../src/main.js';

const app = { action: () => async () => {} };
const io = { ...processIO(), env: {} };
const EVERY = buildProgram(app, io).commands.flatMap((c) => [c.name(), ...c.aliases()]);
/** The top-level commands of the bundle that runs `argv`. */
const topLevel = (argv: string[] = []) => {
  const noun = routeOf(argv, launchTable()).bundle;
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

describe('the code cache a command line uses', () => {
  it.each([
    [['reports', 'list', '--json'], 'reports.list'],
    [['--profile', 'staging', 'data', 'series', 'cpi'], 'data.series'],
    [['--json', 'usage'], 'usage'],
    [['match', 'rpt_1', '--name', 'x'], 'match'],
    [['config', 'set', 'output', 'json'], 'config.set'],
    // A flag before the subcommand, or a word that is none: the noun's.
    [['reports', '--json', 'list'], 'reports'],
    [['reports', 'lst'], 'reports'],
    [['reports'], 'reports'],
    [['help', 'reports', 'list'], 'help'],
    [['completion', 'bash'], 'completion'],
    // No command, or none certain: one cache for all of these.
    [[], 'other'],
    [['--help'], 'other'],
    [['repots', 'list'], 'other'],
    [['--bogus', 'usage'], 'other'],
    [['constructor'], 'other'],
    [['reports', 'constructor'], 'reports'],
  ])('%j uses %j', (argv, cache) => {
    expect(routeOf(argv, launchTable()).cache).toBe(cache);
  });
});

describe('the commands a command line declares', () => {
  /** Each command declared, by its path below the root. */
  const declared = (argv: string[]) => {
    const paths: string[] = [];
    const walk = (command: CommandUnknownOpts, path: string[]) => {
      for (const sub of command.commands) {
        paths.push([...path, sub.name()].join(' '));
        walk(sub, [...path, sub.name()]);
      }
    };
    walk(buildProgram(app, io, argv), []);
    return paths;
  };
  const whole = declared([]);

  it.each([
    [
      ['reports', 'list', '--json'],
      ['reports', 'reports list'],
    ],
    [
      ['--profile', 'staging', 'data', 'series', 'cpi'],
      ['data', 'data series'],
    ],
    [['match', 'rpt_1', '--name', 'x'], ['match']],
    [
      ['webhooks', 'listen'],
      ['webhooks', 'webhooks listen'],
    ],
  ])('%j declares %j alone', (argv, expected) => {
    expect(declared(argv)).toEqual(expected);
  });

  it('declares every command below the one named, and every one below a noun named alone', () => {
    const config = declared(['config', '--help']);
    expect(config).toEqual(whole.filter((path) => path.split(' ')[0] === 'config'));
    expect(config.length).toBeGreaterThan(3);
    // A flag before the subcommand: which word is the subcommand is the parse's to say.
    expect(declared(['reports', '--json', 'list'])).toEqual(
      whole.filter((path) => path.split(' ')[0] === 'reports'),
    );
  });

  it.each([
    [['reports', 'lst']],
    [['repots', 'list']],
    [['help', 'reports']],
    [['completion', 'bash']],
    [['--bogus', 'reports', 'list']],
    [[]],
  ])('%j declares every command: a name to answer with the nearest, or no certain one', (argv) => {
    expect(declared(argv)).toEqual(whole);
  });
});
