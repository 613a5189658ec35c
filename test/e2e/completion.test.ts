// Shell completion, driven through the real shells: bash (the completion function called as
// `complete -F` would, with COMP_WORDS/COMP_CWORD/COMP_LINE/COMP_POINT set), zsh (an interactive
// zsh in a pseudo-terminal, zpty, where TAB runs the completion system) and fish (`complete -C`).
// Each shell uses the committed script in completions/, and asks the built svc (through a `svc` on
// PATH) for profile names and cached series selectors. Where zsh or fish is not installed, its
// tests are skipped with a note saying so; with SVC_TEST_REQUIRE_SHELLS=1 (as .ci/run sets, after
// installing them) a missing shell fails the run instead. bash is not optional: the whole e2e
// harness uses it.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { AUTO_BANK, BANK_CODES, DATA_BANK_CODES } from '../../src/api/banks.js';
import { DATA_FAMILIES } from '../../src/commands/data/families.js';
import { ReplyCache } from '../../src/service/cache.js';
import { ROOT, run, SVC, useWorld } from './harness.js';
import { traceRun } from './trace.js';

const world = useWorld();

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type ShellName = (typeof SHELLS)[number];
const SCRIPT: Record<ShellName, string> = {
  bash: join(ROOT, 'completions', 'svc.bash'),
  zsh: join(ROOT, 'completions', '_svc'),
  fish: join(ROOT, 'completions', 'svc.fish'),
};

/** Which shells run here: zsh and fish if found on PATH; bash always (see above). */
const onPath = (command: string): boolean =>
  !spawnSync(command, ['--version'], { stdio: 'ignore' }).error;
const HAVE: Record<ShellName, boolean> = { bash: true, zsh: onPath('zsh'), fish: onPath('fish') };
// A missing shell: one failing test when SVC_TEST_REQUIRE_SHELLS is set (to anything but 0), else a
// note and one skipped test naming it; its completion tests are skipped either way.
const REQUIRE_SHELLS = !['', '0'].includes(process.env.SVC_TEST_REQUIRE_SHELLS ?? '');
for (const shell of SHELLS.filter((name) => !HAVE[name])) {
  if (REQUIRE_SHELLS) {
    it(`${shell} is installed (SVC_TEST_REQUIRE_SHELLS is set)`, () => {
      throw new Error(
        `${shell} is not installed, and SVC_TEST_REQUIRE_SHELLS=${process.env.SVC_TEST_REQUIRE_SHELLS} requires it (apt-get install -y ${shell})`,
      );
    });
  } else {
    const note = `${shell} is not installed here: its completion tests are skipped`;
    console.warn(`note: ${note} (set SVC_TEST_REQUIRE_SHELLS=1 to fail instead)`);
    it.skip(note, () => {});
  }
}

/**
 * A user's machine: `svc` on PATH, a config file with two profiles, a cache filled by svc itself.
 */
let home: string;
let env: Record<string, string>;
let cpiSelectors: string[];

beforeAll(async () => {
  home = world.tempDir('svc-completion-');
  const bin = join(home, 'bin');
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'svc'),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(SVC)} "$@"\n`,
  );
  chmodSync(join(bin, 'svc'), 0o755);
  mkdirSync(join(home, 'config'), { recursive: true });
  writeFileSync(
    join(home, 'config', 'config.json'),
    JSON.stringify({
      current_profile: 'default',
      profiles: {
        default: { base_url: world.mock.url, api_key: world.key().key },
        staging: { base_url: 'https://sandbox.example.com' },
      },
    }),
  );
  mkdirSync(join(home, 'files'));
  writeFileSync(join(home, 'files', 'statement.pdf'), '%PDF-1.4\n');
  env = {
    PATH: `${bin}:${process.env.PATH ?? ''}`,
    HOME: home,
    SVC_CONFIG_DIR: join(home, 'config'),
    SVC_CACHE_DIR: join(home, 'cache'),
    LANG: 'C.UTF-8',
    TERM: 'xterm',
  };
  // The selectors of cpi reach the cache the way a user's do: `svc data keys cpi`.
  const keys = await run(['data', 'keys', 'cpi', '--json'], { configDir: home });
  expect(keys.code, keys.stderr).toBe(0);
  // `--json` is the latest cpi reply as documented: data.indicators[], each named by `indicator`.
  cpiSelectors = (
    JSON.parse(keys.stdout) as { data: { indicators: { indicator: string }[] } }
  ).data.indicators.map((item) => item.indicator);
  expect(cpiSelectors.length).toBeGreaterThan(3);
});

interface ShellRun {
  stdout: string;
  stderr: string;
  code: number | null;
}

function runShell(command: string, args: string[], cwd: string): Promise<ShellRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code });
    });
  });
}

/** Single-quoted for sh, bash and zsh. */
function sq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * Splits the output of a multi-line run at `=== <line>` markers into the candidates of each line.
 */
function sections(stdout: string, lines: readonly string[]): Map<string, string[]> {
  const result = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const row of stdout.split('\n')) {
    const marker = /^=== (.*)$/.exec(row);
    if (marker && lines.includes(marker[1]!)) result.set(marker[1]!, (current = []));
    else if (current && row.trim() !== '') current.push(row.split('\t')[0]!);
  }
  for (const line of lines)
    if (!result.has(line)) throw new Error(`no completion output for "${line}"`);
  return result;
}

/** bash: what `complete -F _svc svc` gives for each line, the cursor at its end. */
async function bashComplete(
  lines: readonly string[],
  cwd = home,
  splitWords?: (line: string) => string[],
): Promise<Map<string, string[]>> {
  const calls = lines.map((line) => {
    const words = splitWords ? splitWords(line) : line.split(' ');
    return [
      `echo ${sq(`=== ${line}`)}`,
      `COMP_WORDS=(${words.map(sq).join(' ')}); COMP_CWORD=${words.length - 1}; COMP_LINE=${sq(line)}; COMP_POINT=${line.length}`,
      'COMPREPLY=(); _svc; printf "%s\\n" "${COMPREPLY[@]}"',
    ].join('\n');
  });
  const script = [`source ${sq(SCRIPT.bash)}`, 'complete -p svc', ...calls].join('\n');
  const result = await runShell('bash', ['--norc', '--noprofile', '-c', script], cwd);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(result.stdout.split('\n')[0]).toBe('complete -F _svc svc');
  return sections(result.stdout, lines);
}

/**
 * zsh: an interactive `zsh -f` in a pseudo-terminal (zpty) with compinit and the script autoloaded
 * from $fpath; each line is typed followed by TAB. compadd is wrapped to write what it is given to
 * a file, and the TAB widget marks the end of each completion there.
 */
async function zshComplete(lines: readonly string[], cwd = home): Promise<Map<string, string[]>> {
  const dir = world.tempDir('svc-zsh-');
  const capture = join(dir, 'capture');
  const setup = join(dir, 'setup.zsh');
  const driver = join(dir, 'driver.zsh');
  writeFileSync(
    setup,
    [
      "PS1='' PROMPT='' RPROMPT=''",
      `fpath=(${sq(join(ROOT, 'completions'))} $fpath)`,
      'autoload -Uz compinit && compinit -u -D',
      // What completion offers: compadd's matches, written to the capture file, then added as
      // usual.
      'compadd() {',
      '  if (( ${@[(I)-[OAD]*]} )); then builtin compadd "$@"; return; fi',
      '  local -a hits; builtin compadd -A hits "$@"',
      `  print -rl -- $hits >> ${sq(capture)}`,
      '  builtin compadd "$@"',
      '}',
      "zstyle ':completion:*' menu no",
      "zstyle ':completion:*' list-prompt ''",
      // TAB completes, then marks the end of that completion.
      `svc-complete() { zle complete-word; print -r -- ZSH-COMPLETION-DONE >> ${sq(capture)}; }`,
      'zle -N svc-complete',
      "bindkey '^I' svc-complete",
      '',
    ].join('\n'),
  );
  writeFileSync(
    driver,
    [
      'zmodload zsh/zpty',
      'capture=$1; setup=$2; shift 2',
      'zpty z zsh -f -i',
      'zpty -w z "source ${(q)setup}"',
      'integer done=0 deadline',
      'for line in "$@"; do',
      '  print -r -- "=== $line" >> $capture',
      '  zpty -w -n z "$line"$\'\\t\'',
      '  (( done++ ))',
      '  deadline=$(( SECONDS + 15 ))',
      // Drain the terminal (a full one would stop the shell) until the completion has ended.
      '  while (( SECONDS < deadline )); do',
      '    while zpty -rt z chunk 2>/dev/null; do :; done',
      '    (( $(grep -c ZSH-COMPLETION-DONE $capture 2>/dev/null) >= done )) && break',
      '    sleep 0.05',
      '  done',
      "  zpty -w -n z $'\\C-u'",
      'done',
      'zpty -d z',
      'grep -v ZSH-COMPLETION-DONE $capture',
      '',
    ].join('\n'),
  );
  const result = await runShell('zsh', ['-f', driver, capture, setup, ...lines], cwd);
  expect(result.code, result.stderr).toBe(0);
  return sections(result.stdout, lines);
}

/** fish: `complete -C` for each line, after sourcing the script. */
async function fishComplete(lines: readonly string[], cwd = home): Promise<Map<string, string[]>> {
  const fq = (text: string) => `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;
  const script = [
    `source ${fq(SCRIPT.fish)}`,
    ...lines.map((line) => `echo ${fq(`=== ${line}`)}; complete -C ${fq(line)}`),
  ].join('\n');
  const result = await runShell('fish', ['--no-config', '-c', script], cwd);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return sections(result.stdout, lines);
}

const COMPLETE: Record<
  ShellName,
  (lines: readonly string[], cwd?: string) => Promise<Map<string, string[]>>
> = {
  bash: bashComplete,
  zsh: zshComplete,
  fish: fishComplete,
};

const sorted = (values: readonly string[]) => [...new Set(values)].sort();

for (const shell of SHELLS)
  describe.skipIf(!HAVE[shell])(`${shell} completes`, () => {
    const LINES = [
      'svc rep',
      'svc reports list --status ',
      'svc statements list --status ',
      'svc reports transactions rpt_1 --calendar ',
      'svc help cal',
      'svc data series ',
      'svc --profile ',
      'svc reports list --profile ',
      'svc data series cpi ',
      'svc --profile default data series --from 2024-01 cpi ',
      'svc data series cpi PCPI_CP_0',
      'svc reports list --',
      'svc reports ',
      'svc -o ',
      'svc help ',
      'svc completion ',
      'svc sandbox fire rpt_1 --event ',
      'svc consents create rpt_1 --scopes ',
      'svc connect --scopes ',
      'svc parse statement.pdf --bank ',
      'svc data latest bank-pnl --bank ',
    ];
    let got: Map<string, string[]>;
    beforeAll(async () => {
      got = await COMPLETE[shell](LINES);
    });

    it('a command from its first letters: svc rep<TAB> → reports', () => {
      expect(got.get('svc rep')).toEqual(['reports']);
    });

    it('the states --status takes, which differ by command', () => {
      expect(sorted(got.get('svc reports list --status ')!)).toEqual([
        'complete',
        'failed',
        'processing',
      ]);
      expect(sorted(got.get('svc statements list --status ')!)).toEqual(['issued', 'revoked']);
    });

    it('the calendars --calendar takes, and the help topic of them', () => {
      expect(sorted(got.get('svc reports transactions rpt_1 --calendar ')!)).toEqual(['ad', 'bs']);
      expect(got.get('svc help cal')).toEqual(['calendar']);
    });

    it('the data families, from the family table', () => {
      expect(sorted(got.get('svc data series ')!)).toEqual(
        sorted(DATA_FAMILIES.map((f) => f.name)),
      );
    });

    it('the profiles of the config file, before or after the command', () => {
      expect(sorted(got.get('svc --profile ')!)).toEqual(['default', 'staging']);
      expect(sorted(got.get('svc reports list --profile ')!)).toEqual(['default', 'staging']);
    });

    it('the series selectors of a family, from the reply cache', () => {
      expect(sorted(got.get('svc data series cpi ')!)).toEqual(sorted(cpiSelectors));
      expect(sorted(got.get('svc --profile default data series --from 2024-01 cpi ')!)).toEqual(
        sorted(cpiSelectors),
      );
      const typed = cpiSelectors.filter((s) => s.startsWith('PCPI_CP_0'));
      expect(typed.length).toBeGreaterThan(1);
      expect(typed.length).toBeLessThan(cpiSelectors.length);
      expect(sorted(got.get('svc data series cpi PCPI_CP_0')!)).toEqual(sorted(typed));
    });

    it("a command's own flags and the global ones", () => {
      const flags = got.get('svc reports list --')!;
      for (const flag of ['--status', '--limit', '--json', '--output', '--profile', '--help'])
        expect(flags).toContain(flag);
      expect(flags).not.toContain('--chart');
    });

    it('subcommands, enumerated values, help topics and shells', () => {
      expect(sorted(got.get('svc reports ')!)).toEqual(
        sorted([
          'auth',
          'balance',
          'counterparties',
          'get',
          'identity',
          'income',
          'liabilities',
          'list',
          'match',
          'recurring',
          'score',
          'transactions',
          'underwrite',
          'verify',
        ]),
      );
      expect(sorted(got.get('svc -o ')!)).toEqual(['csv', 'json', 'ndjson', 'table', 'wide']);
      expect(got.get('svc help ')).toEqual(
        expect.arrayContaining([
          'environment',
          'exit-codes',
          'formatting',
          'config',
          'reports',
          'data',
        ]),
      );
      expect(sorted(got.get('svc completion ')!)).toEqual(['bash', 'fish', 'zsh']);
      expect(sorted(got.get('svc sandbox fire rpt_1 --event ')!)).toEqual([
        'report.failed',
        'report.ready',
      ]);
      expect(sorted(got.get('svc consents create rpt_1 --scopes ')!)).toEqual([
        'identity',
        'income',
        'liabilities',
        'transactions',
        'verify',
      ]);
      expect(sorted(got.get('svc connect --scopes ')!)).toEqual(['identity', 'income']);
    });

    it('the bank codes, from the bank table: auto and every code for a statement, the banks for a dataset', () => {
      expect(sorted(got.get('svc parse statement.pdf --bank ')!)).toEqual(
        sorted([AUTO_BANK, ...BANK_CODES]),
      );
      expect(sorted(got.get('svc data latest bank-pnl --bank ')!)).toEqual(sorted(DATA_BANK_CODES));
    });

    it('file names for parse FILE and --file, --body, --input', async () => {
      const lines = [
        'svc parse st',
        'svc merchants resolve --file st',
        'svc webhooks verify --body st',
        'svc api POST reports --input st',
      ];
      const files = await COMPLETE[shell](lines, join(home, 'files'));
      for (const line of lines) expect(files.get(line), line).toEqual(['statement.pdf']);
    });
  });

describe('the completion scripts', () => {
  it('bash completes --flag=value, which bash splits at =', async () => {
    // What bash itself puts in COMP_WORDS for `svc reports list --status=pro`.
    const got = await bashComplete(
      ['svc reports list --status=pro', 'svc reports list --status='],
      home,
      (line) => {
        const [flag, value] = line.split(' ').at(-1)!.split('=');
        return ['svc', 'reports', 'list', flag!, '=', ...(value ? [value] : [''])];
      },
    );
    expect(got.get('svc reports list --status=pro')).toEqual(['processing']);
    expect(sorted(got.get('svc reports list --status=')!)).toEqual([
      'complete',
      'failed',
      'processing',
    ]);
  });

  it.skipIf(!HAVE.zsh)(
    'zsh loads the script sourced after compinit, without a word on stderr',
    async () => {
      const script = `autoload -Uz compinit && compinit -u -D && source ${sq(SCRIPT.zsh)} && print -r -- $_comps[svc]`;
      const result = await runShell('zsh', ['-f', '-c', script], home);
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe('_svc\n');
    },
  );

  it.skipIf(!HAVE.fish)('fish loads the script without a word on stderr', async () => {
    const result = await runShell(
      'fish',
      ['--no-config', '-c', `source '${SCRIPT.fish}'; and complete -c svc | head -1`],
      home,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^complete /);
  });

  it.each(SHELLS)('svc completion %s prints the committed script', async (shell) => {
    const result = await world.bare(['completion', shell]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(readFileSync(SCRIPT[shell], 'utf8'));
  });

  it('the committed scripts and man page are those the command tree gives now', async () => {
    const check = spawnSync(
      process.execPath,
      [join(ROOT, 'scripts', 'generate-docs.mjs'), '--check'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  it('an unknown shell is a usage error that names the shells', async () => {
    const result = await world.bare(['completion', 'tcsh']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: .*bash, zsh, fish.*tcsh/);
  });
});

describe('svc __complete (what the scripts ask while the user types)', () => {
  it('lists profiles with their base URL, and selectors with their labels, from local files only', async () => {
    const profiles = await run(['__complete', 'profiles'], { configDir: home });
    expect(profiles.code, profiles.stderr).toBe(0);
    expect(profiles.stdout).toBe(
      `default\t${world.mock.url} (current)\nstaging\thttps://sandbox.example.com\n`,
    );

    const selectors = await run(['__complete', 'data-selectors', 'cpi'], { configDir: home });
    expect(selectors.stdout.split('\n')[0]).toBe('PCPI_IX\tOverall index, index (index)');
    // Another profile has no cached replies: nothing, and no request to find out.
    const other = await run(['__complete', 'data-selectors', 'cpi', '--profile', 'staging'], {
      configDir: home,
    });
    expect(other).toEqual({ stdout: '', stderr: '', code: 0 });
    expect(await world.requests()).toEqual([]);
  });

  it('offers the sandbox scenarios of a cached scenarios reply', async () => {
    const reply = await fetch(`${world.mock.url}/v1/sandbox/scenarios`, {
      headers: { Authorization: `Bearer ${world.key().key}` },
    });
    const raw = await reply.text();
    new ReplyCache(join(home, 'cache'), 'default').write({
      url: `${world.mock.url}/v1/sandbox/scenarios`,
      fetched_at: new Date().toISOString(),
      as_of: null,
      raw,
    });
    const body = JSON.parse(raw) as Record<
      'report_scenarios' | 'error_scenarios',
      { scenario: string }[]
    >;
    const names = [...body.report_scenarios, ...body.error_scenarios].map((s) => s.scenario);
    expect(names).toEqual(
      expect.arrayContaining([
        'salaried',
        'thin_file',
        'high_risk',
        'remittance',
        'error_unsupported_bank',
      ]),
    );
    const got = await bashComplete(['svc sandbox create --scenario ']);
    expect(sorted(got.get('svc sandbox create --scenario ')!)).toEqual(sorted(names));
  });

  it('never offers a cached value the shell would expand: bash inserts completions unquoted', async () => {
    const url = `${world.mock.url}/v1/data/cbank/cbs/latest`;
    const indicators = [
      'CBS_SAFE.1',
      'ov$(touch pwned)',
      '`touch pwned`',
      'a;touch pwned',
      'two words',
    ].map((indicator) => ({ indicator }));
    new ReplyCache(join(home, 'cache'), 'default').write({
      url,
      fetched_at: new Date().toISOString(),
      as_of: null,
      raw: JSON.stringify({ data: { indicators } }),
    });
    const got = await bashComplete(['svc data series cbs ']);
    expect(got.get('svc data series cbs ')).toEqual(['CBS_SAFE.1']);
  });

  it('is quiet about a damaged config file or an unknown family, and refuses an unknown source', async () => {
    const broken = world.tempDir('svc-broken-');
    mkdirSync(join(broken, 'config'));
    writeFileSync(join(broken, 'config', 'config.json'), '{not json');
    expect(await run(['__complete', 'profiles'], { configDir: broken })).toEqual({
      stdout: '',
      stderr: '',
      code: 0,
    });
    expect(await run(['__complete', 'data-selectors', 'nope'], { configDir: home })).toEqual({
      stdout: '',
      stderr: '',
      code: 0,
    });
    const unknown = await run(['__complete', 'everything'], { configDir: home });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /^error: usage: svc __complete profiles\|data-selectors\|scenarios/,
    );
  });

  it('loads no commander, HTTP, prompt or schema code: every module a completion call loads', async () => {
    const traced = await traceRun(
      ['__complete', 'data-selectors', 'cpi'],
      env,
      world.tempDir('svc-trace-'),
    );
    expect(traced.status, traced.stderr).toBe(0);
    expect(traced.stdout.split('\n')[0]).toMatch(/^PCPI_IX\t/);
    expect(traced.files).toEqual(['bin/svc.cjs', 'dist/complete.cjs']);
    expect(traced.packages).toEqual([]);
    // (net is there anyway: Node makes stdout a socket when it is a pipe.)
    for (const builtin of ['http', 'https', 'tls', 'readline'])
      expect(traced.builtins).not.toContain(builtin);
  });
});
