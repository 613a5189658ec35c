// `svc help` and `svc completion` in-process, as a person and as a script: what only a real shell
// shows (the scripts completing in bash, zsh and fish) is in test/e2e/completion.test.ts.
import { describe, expect, it } from 'vitest';

import { svc } from '../support/in-process.js';

const MODES = [
  ['a person', true],
  ['a script', false],
] as const;

describe.each(MODES)('svc help, for %s', (_who, tty) => {
  it('lists the commands and the topics', async () => {
    const result = await svc(['help'], { tty });
    expect(result.code).toBe(0);
    for (const name of [
      'reports',
      'consents',
      'decisions',
      'enrich',
      'grants',
      'environment',
      'exit-codes',
    ])
      expect(result.stdout).toContain(name);
    expect(result.stderr).toBe('');
  });

  it('prints a topic: the environment lists every variable svc reads, SVC_ACCESS_TOKEN too', async () => {
    const result = await svc(['help', 'environment'], { tty });
    expect(result.code).toBe(0);
    for (const name of ['SVC_API_KEY', 'SVC_BASE_URL', 'SVC_ACCESS_TOKEN', 'NO_COLOR'])
      expect(result.stdout).toContain(name);
  });

  it('prints the formatting topic: the records of a view, and its CSV without JSON in a cell', async () => {
    const result = await svc(['help', 'formatting'], { tty });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const text = result.stdout.replace(/\s+/g, ' ');
    expect(text).toContain('one object per item of those lists, its list named in `list`');
    expect(text).toContain(
      "nested objects go to dotted columns (period.from, counterparties.0.name) and lists of plain values are joined with '; ', so no cell holds JSON",
    );
    expect(text).toContain('wide A table with every column, free text wrapped rather than cut');
    expect(text).toContain(
      '--columns a,b,c The columns of a table, its lines in a pipe, or a CSV, in this order',
    );
  });

  it("prints a command's help, ending with its request", async () => {
    const result = await svc(['help', 'reports', 'score'], { tty });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: svc reports score');
    expect(result.stdout.replace(/\s+/g, ' ')).toContain(
      'Request: GET /v1/reports/{report_id}/score (any key; costs 1 billing unit per call)',
    );
  });

  it('answers an unknown topic with exit 2 and the nearest names', async () => {
    const result = await svc(['help', 'enviroment'], { tty });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: .*enviroment/);
    expect(result.stderr).toContain('environment');
  });
});

describe.each(MODES)('svc completion, for %s', (_who, tty) => {
  it.each([
    ['bash', /complete -F/],
    ['zsh', /^#compdef svc/],
    ['fish', /^complete -c svc/m],
  ])('prints the %s script on stdout', async (shell, marker) => {
    const result = await svc(['completion', shell], { tty });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(marker);
    expect(result.stdout).toContain('consents');
    expect(result.stderr).toBe('');
  });

  it('refuses a shell it has no script for (exit 2)', async () => {
    const result = await svc(['completion', 'powershell'], { tty });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('powershell');
  });
});

describe.each(MODES)('svc version, for %s', (_who, tty) => {
  it('prints the version alone, as svc --version does', async () => {
    const [command, flag] = [await svc(['version'], { tty }), await svc(['--version'], { tty })];
    expect(command.code).toBe(0);
    expect(command.stdout).toMatch(/^\S+\n$/);
    expect(command.stdout).toBe(flag.stdout);
    expect(command.stderr).toBe('');
  });

  it('is a command of the help and of every completion script; a typo of it is answered with it', async () => {
    expect((await svc(['help'], { tty })).stdout).toMatch(
      /^ {2}version +print the version, as svc --version does$/m,
    );
    const offered = {
      bash: /^ +''\) __svc_reply='reports [^']*\bversion\b/m,
      zsh: /'version:print the version, as svc --version does'/,
      fish: /-a 'version' -d 'print the version, as svc --version does'/,
    };
    for (const [shell, command] of Object.entries(offered))
      expect((await svc(['completion', shell], { tty })).stdout).toMatch(command);
    const typo = await svc(['versoin'], { tty });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe(
      'error: unknown command "versoin"\nDid you mean "version"?\nRun `svc --help` for the commands.\n',
    );
  });
});
