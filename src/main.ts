// Builds the program, registers the nouns, runs a command and maps every failure to one message
// and one exit code. Only bin/svc.cjs touches the process exit.
import {
  type Command,
  CommanderError,
  type CommandUnknownOpts,
  InvalidArgumentError,
  Option,
} from '@commander-js/extra-typings';

import { LARGEST_REPLY_BYTES } from './api/reply-size.js';
import type { App } from './app/app.js';
import { Context, type Paging } from './app/context.js';
import { paged } from './app/pager.js';
import type { Services } from './app/services.js';
import { registerApi } from './commands/api/index.js';
import { registerCompletion } from './commands/completion/index.js';
import { registerConfig } from './commands/config/index.js';
import { registerConnect } from './commands/connect/index.js';
import { registerConsents } from './commands/consents/index.js';
import { registerData } from './commands/data/index.js';
import { registerDecisions } from './commands/decisions/index.js';
import { registerEnrich } from './commands/enrich/index.js';
import { registerGrants } from './commands/grants/index.js';
import { registerHelp } from './commands/help/index.js';
import { registerLogin } from './commands/login/index.js';
import { registerMerchants } from './commands/merchants/index.js';
import { registerMock } from './commands/mock/index.js';
import { registerParse } from './commands/parse/index.js';
import { registerReady } from './commands/ready/index.js';
import { registerReports } from './commands/reports/index.js';
import { registerSandbox } from './commands/sandbox/index.js';
import { registerStatements } from './commands/statements/index.js';
import { registerUsage } from './commands/usage/index.js';
import { registerVersion } from './commands/version/index.js';
import { registerWebhooks } from './commands/webhooks/index.js';
import { CALENDARS } from './core/calendar/calendar.js';
import { noteCommandRan } from './core/command-ran.js';
import { completes, fromMachine } from './core/completion/values.js';
import { CliError, EXIT, InterruptedError } from './core/errors.js';
import { type IO, maskedIO, processIO, withStreams } from './core/io.js';
import { OUTPUT_FORMATS } from './core/output/formats.js';
import { checkJqExpression, filteredIO, type JqFilter } from './core/output/jq.js';
import { commandWords, type FlagValue } from './core/program/command-words.js';
import { examples, helpWidth } from './core/program/document.js';
import { globalFlag } from './core/program/reach.js';
import { SvcCommand } from './core/program/svc-command.js';
import { commandPath } from './core/program/svc-help.js';
import {
  decimalOption,
  enumOption,
  integerOption,
  sizeOption,
} from './core/program/typed-options.js';
import { Secrets } from './core/secrets/secrets.js';
import { PagedOutput } from './core/stream/pager.js';
import { readEnv } from './service/environment.js';
import { KEY_FORMS } from './service/keys.js';
import { errorsAsJson, reportError, type ReportMode } from './service/report-error.js';
import { VERSION } from './version.js';

/**
 * `--jq`: the expression checked before anything is sent, and the IO that holds the output to
 * filter.
 */
async function jqFilter(io: IO, expression: string, secrets: Secrets): Promise<JqFilter> {
  await checkJqExpression(expression);
  return filteredIO(io, expression, (text) => secrets.mask(text));
}

/**
 * Runs svc with these arguments on this IO and returns the exit code. `signal` asks it to stop
 * (Ctrl-C); `services` replaces the network, clock, prompts, browser or cache (tests do).
 */
export async function main(
  argv: readonly string[],
  unmaskedIO: IO,
  signal: AbortSignal,
  services: Services = {},
): Promise<number> {
  // Every byte svc writes goes through these streams, which mask the secrets the run comes to know.
  const secrets = new Secrets(KEY_FORMS);
  // On a terminal, an output may go through a pager (app/pager.ts): stdout's end, under the
  // masking.
  const output = unmaskedIO.stdoutIsTTY ? new PagedOutput(unmaskedIO.stdout) : undefined;
  const { io, flush } = maskedIO(
    output ? withStreams(unmaskedIO, { stdout: output.stream }) : unmaskedIO,
    secrets,
  );
  try {
    return await runProgram(argv, io, secrets, signal, services, output && { output, flush });
  } finally {
    flush();
  }
}

async function runProgram(
  argv: readonly string[],
  io: IO,
  secrets: Secrets,
  signal: AbortSignal,
  services: Services,
  paging: Paging | undefined,
): Promise<number> {
  let context: Context | undefined;
  const app: App = {
    // Commander passes the declared arguments, then the options, then the command itself: all go to
    // the handler after the context (a handler names those it needs; App.action checks its types).
    action:
      (handler) =>
      async (...given) => {
        // The command itself comes last: which one ran decides what the code cache keeps (launch/).
        noteCommandRan(commandPath(given.at(-1) as CommandUnknownOpts));
        // The global flags are the root's options, typed by their declaration below.
        const flags = program.opts();
        const filter = flags.jq === undefined ? undefined : await jqFilter(io, flags.jq, secrets);
        context = new Context(filter?.io ?? io, flags, signal, secrets, services, paging);
        try {
          await handler(context, ...given);
        } catch (error) {
          // What the command printed before it failed is filtered too; if jq cannot take it, the
          // error says why stdout stays empty (an interruption needs no such word).
          const unfiltered = await filter?.finish(false);
          if (unfiltered && error instanceof CliError && !(error instanceof InterruptedError))
            error.hints.push(unfiltered);
          throw error;
        }
        // What jq made of the output is an output of its own, paged on a terminal.
        if (filter) await paged(context, async () => void (await filter.finish(true)));
      },
  };
  const program = buildProgram(app, io, argv);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Only help and version end here (with code 0), and a command named without its subcommand
      // (its help on stderr): every mistake on the command line is a UsageError (svc-command.ts).
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    return reportError(error, io, context ?? beforeAnyCommand(argv, io), secrets);
  }
}

/**
 * How to report an error met before a command ran (a mistake on the command line, or global flags
 * that conflict): the parse stopped where it failed, before it read every flag, so the flags that
 * ask for a machine format are looked for on the whole line.
 */
function beforeAnyCommand(argv: readonly string[], io: IO): ReportMode {
  let json = false;
  let output: string | undefined;
  const end = argv.indexOf('--');
  const args = end === -1 ? argv : argv.slice(0, end);
  args.forEach((arg, i) => {
    if (arg === '--json' || arg === '--jq' || arg.startsWith('--jq=')) json = true;
    else if (arg === '-o' || arg === '--output') output = args[i + 1];
    else if (arg.startsWith('--output=')) output = arg.slice('--output='.length);
    else if (/^-o[^-]/.test(arg)) output = arg.slice(2);
  });
  const machineFormat = json || output === 'json' || output === 'ndjson' || output === 'csv';
  return {
    jsonErrors: errorsAsJson(machineFormat, io.stderrIsTTY),
    debug: args.includes('--debug') || readEnv(io.env, 'SVC_DEBUG') === '1',
  };
}

type Register = (program: Command, app: App) => void;

/**
 * The root help lists the commands in these groups, in this order (as gh's does); each register
 * function declares the top-level commands named beside it (a test keeps the names true). Each
 * noun but help and completion, which read the whole program, is also a bundle of its own.
 */
const COMMAND_GROUPS: readonly (readonly [
  heading: string,
  nouns: readonly (readonly [Register, readonly string[]])[],
])[] = [
  [
    'Core commands:',
    [
      [registerReports, ['reports', 'match', 'auth', 'recurring']],
      [registerParse, ['parse']],
      [registerStatements, ['statements']],
      [registerMerchants, ['merchants']],
      [registerUsage, ['usage']],
      [registerApi, ['api']],
    ],
  ],
  [
    'Lending commands:',
    [
      [registerEnrich, ['enrich']],
      [registerConnect, ['connect']],
      [registerConsents, ['consents']],
      [registerGrants, ['grants']],
      [registerDecisions, ['decisions']],
    ],
  ],
  ['Data commands:', [[registerData, ['data']]]],
  [
    'Webhooks and sandbox commands:',
    [
      [registerSandbox, ['sandbox']],
      [registerWebhooks, ['webhooks']],
      [registerMock, ['mock']],
      [registerReady, ['ready']],
    ],
  ],
  [
    'Setup commands:',
    [
      [registerLogin, ['login', 'logout', 'whoami']],
      [registerConfig, ['config']],
      [registerCompletion, ['completion']],
      [registerVersion, ['version']],
      // Last: `svc help` lists the topics and how to learn more after every command.
      [registerHelp, ['help']],
    ],
  ],
];

/** The register functions and the top-level commands each declares. */
export const NOUNS = COMMAND_GROUPS.flatMap(([, nouns]) => nouns);

/**
 * The commands that read the whole program: `svc help` (every command's help) and the completion
 * scripts.
 */
const READ_WHOLE_PROGRAM = new Set(['help', 'completion']);

/**
 * What the launcher needs to pick a command line's bundle and code cache (src/launch/route.ts;
 * scripts/build.mjs writes it into dist/launch.cjs): each top-level command and its noun's bundle,
 * named by the noun's first name, each top-level command's subcommands, and the root's flags.
 */
export function launchTable() {
  const root = buildProgram({ action: () => async () => {} }, processIO());
  return {
    bundles: Object.fromEntries(
      NOUNS.flatMap(([, names]) =>
        READ_WHOLE_PROGRAM.has(names[0]!) ? [] : names.map((name) => [name, names[0]!]),
      ),
    ),
    subcommands: Object.fromEntries(
      root.commands.flatMap((command) => {
        const subcommands = Object.fromEntries(
          command.commands.flatMap((sub) =>
            [sub.name(), ...sub.aliases()].map((name) => [name, sub.name()]),
          ),
        );
        return [command.name(), ...command.aliases()].map((name) => [name, subcommands]);
      }),
    ),
    flags: rootFlags(root),
  };
}

/** Each flag of the root (`--profile`, `-o`), and whether a value of its own follows it. */
function rootFlags(root: CommandUnknownOpts): Record<string, FlagValue> {
  return Object.fromEntries(
    root.options.flatMap((option) =>
      [option.long, option.short]
        .filter((name) => name !== undefined)
        .map(
          (name) =>
            [name, option.required ? 'required' : option.optional ? 'optional' : 'none'] as const,
        ),
    ),
  );
}

/**
 * The program: the root with its global flags and every noun of COMMAND_GROUPS (a bundle of one
 * noun is built with the others' register functions doing nothing: scripts/build.mjs). Given the
 * command line, only the commands it names are declared where that is certain (svc-command.ts
 * `declareOnly`), unless that leaves out the one it asks for.
 */
export function buildProgram(app: App, io: IO, argv?: readonly string[]) {
  const program = declareProgram(app, io, argv);
  return argv && program.leftOutNamed() ? declareProgram(app, io) : program;
}

function declareProgram(app: App, io: IO, argv?: readonly string[]) {
  // SvcCommand: no built-in help command (`svc help` replaces it), gh-like help (svc-help.ts), and
  // every mistake on the command line a UsageError in svc's words, with "did you mean" suggestions.
  const program = new SvcCommand('svc')
    .description('Bank-statement reports and their lending views, from your terminal.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    // The global flags, each with the reach of the commands it applies to (reach.ts): a command's
    // help names those it takes, and `svc help global-flags` lists them all.
    .addOption(
      globalFlag(
        new Option('--json', 'print the reply body as JSON, exactly as received'),
        'output',
      ),
    )
    .addOption(
      globalFlag(
        enumOption(
          '-o, --output <format>',
          'output format; wide: a table with every column',
          OUTPUT_FORMATS,
        ),
        'output',
      ),
    )
    .addOption(globalFlag(new Option('--no-color', 'never colour the output'), 'output'))
    .addOption(
      globalFlag(
        new Option(
          '--no-pager',
          'never page output taller than the terminal (also SVC_PAGER="" or config key pager)',
        ),
        'output',
      ),
    )
    .addOption(
      globalFlag(
        enumOption(
          '--calendar <calendar>',
          'calendar of the dates tables show and date flags take: ad, or bs, Bikram Sambat (also SVC_CALENDAR; default: ad)',
          CALENDARS,
        ),
        'output',
      ),
    )
    .addOption(
      globalFlag(
        new Option(
          '--jq <expression>',
          'filter the JSON output with a jq expression (implies --json)',
        ),
        'output',
      ),
    )
    .addOption(
      globalFlag(
        new Option(
          '--columns <names>',
          'the columns of a table or CSV, in this order: field names as in --json, comma-separated, dotted for nested ones (date,description,debit)',
        ).argParser((text) => {
          const names = text.split(',').map((name) => name.trim());
          // What the flag takes: the reporter writes `--columns takes field names …, not "a,,b"`.
          if (names.some((name) => name === ''))
            throw new InvalidArgumentError(
              'field names separated by commas, such as date,description,debit',
            );
          return names;
        }),
        'output',
      ),
    )
    .addOption(
      globalFlag(
        new Option('--no-headers', 'leave out the header line of a table or CSV'),
        'output',
      ),
    )
    .addOption(
      globalFlag(
        new Option(
          '--no-formula-guard',
          "write CSV cells as received, without the ' before = + - @ that keeps a spreadsheet from running them as formulas (a spreadsheet may then run them)",
        ),
        'output',
      ),
    )
    .addOption(
      globalFlag(
        new Option('--debug', 'trace each HTTP request and reply on stderr (also SVC_DEBUG=1)'),
        'service',
      ),
    )
    .addOption(
      globalFlag(
        decimalOption('--timeout <seconds>', 'time limit of each HTTP attempt (default: 30)', {
          form: 'number',
          min: 0.1,
          max: 3600,
          takes: 'a number of seconds from 0.1 to 3600',
        }),
        'network',
      ),
    )
    .addOption(
      globalFlag(
        integerOption('--retries <n>', 'retries of a failed request (default: 2)', {
          min: 0,
          max: 10,
        }),
        'service',
      ),
    )
    .addOption(
      globalFlag(
        sizeOption(
          '--max-reply-size <size>',
          'largest reply body taken, e.g. 200M (default: 64M)',
          {
            max: LARGEST_REPLY_BYTES,
            takes: 'a size from 1 byte to 500M, such as 200M',
          },
        ),
        'service',
      ),
    )
    .addOption(
      globalFlag(
        new Option(
          '--api-key <key>',
          'API key (prefer SVC_API_KEY: a flag is visible to other users)',
        ),
        'service',
      ),
    )
    .addOption(
      globalFlag(
        new Option('--base-url <url>', 'service address, without /v1 (also SVC_BASE_URL)'),
        'service',
      ),
    )
    .addOption(
      globalFlag(
        completes(
          new Option('--profile <name>', 'profile of the config file to use (also SVC_PROFILE)'),
          fromMachine('profiles'),
        ),
        'service',
      ),
    )
    .configureHelp({ sortSubcommands: false })
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // Mistakes on the command line are thrown as UsageErrors and reported by report-error.ts;
      // commander writes nothing of its own.
      outputError: () => {},
      // Help is wrapped to the terminal it goes to, at 80 columns in a pipe (document.ts
      // helpWidth).
      getOutHelpWidth: () => helpWidth(io.stdoutIsTTY ? io.columns : undefined),
      getErrHelpWidth: () => helpWidth(io.stderrColumns),
    })
    .helpAfter(
      examples(
        'svc login',
        'svc reports list --status complete --limit 5',
        'svc match rpt_9f2c41d07ab35e18 --name "Ram Bahadur Shrestha"',
        "svc reports list --json | jq -r '.data[].report_id'",
      ),
    );

  if (argv) {
    const words = commandWords(argv, rootFlags(program));
    if (!READ_WHOLE_PROGRAM.has(words[0] ?? '')) program.declareOnly(words);
  }
  for (const [heading, nouns] of COMMAND_GROUPS) {
    program.commandsGroup(heading);
    for (const [register] of nouns) register(program, app);
  }
  return program;
}
