// THE table of help topics (`svc help TOPIC`), in the manner of gh's help_topic.go: each topic is
// data, printed by `svc help` and rendered into the man page. The environment and exit-code topics
// are made from the very lists the code reads, so they cannot drift from it.
import type { CommandUnknownOpts, Option } from '@commander-js/extra-typings';

import type { Block } from '../../core/program/document.js';
import {
  globalFlags,
  globalFlagsOf,
  REACH_HEADINGS,
  reachNeeded,
  reachOf,
} from '../../core/program/reach.js';
import { commandPath, flagName } from '../../core/program/svc-help.js';
import {
  ENVIRONMENT,
  ENVIRONMENT_GROUPS,
  type EnvironmentGroup,
} from '../../service/environment.js';
import { EXIT_CODES, type ExitCodeRow } from '../../service/errors.js';

export interface HelpTopic {
  readonly name: string;
  readonly summary: string;
  /** Section name in the man page. */
  readonly manSection: string;
  /** The text; `program` is the command tree, for topics that describe commands. */
  readonly body: (program: CommandUnknownOpts) => readonly Block[];
}

export const HELP_TOPICS: readonly HelpTopic[] = [
  {
    name: 'global-flags',
    summary: 'the flags all commands share, and which commands take them',
    manSection: 'GLOBAL OPTIONS',
    body: globalFlagsTopic,
  },
  {
    name: 'environment',
    summary: 'environment variables svc reads',
    manSection: 'ENVIRONMENT',
    body: environmentTopic,
  },
  {
    name: 'exit-codes',
    summary: 'what each exit code means',
    manSection: 'EXIT STATUS',
    body: exitCodesTopic,
  },
  {
    name: 'formatting',
    summary: 'output formats, colour, and recipes with jq',
    manSection: 'OUTPUT',
    body: formattingTopic,
  },
  {
    name: 'config',
    summary: 'profiles, the config file, and where each setting comes from',
    manSection: 'CONFIGURATION',
    body: configTopic,
  },
  {
    name: 'calendar',
    summary: "dates in AD or in Bikram Sambat, and Nepal's fiscal year",
    manSection: 'CALENDARS',
    body: calendarTopic,
  },
];

/**
 * The years of the BS table (src/core/calendar/bikram-sambat.ts RANGE_TEXT; a test keeps them
 * equal): written here, so that the help does not load the table.
 */
export const BS_RANGE_TEXT = '2000-01-01 to 2083-12-30 BS (1943-04-14 to 2027-04-13 AD)';

function calendarTopic(): Block[] {
  return [
    {
      kind: 'paragraph',
      text:
        'The service sends dates in the Gregorian calendar (AD), as YYYY-MM-DD or as the date of a date-time. Nepal reads them in Bikram Sambat (BS), about 56 years and 8 months ahead: 2026-05-22 AD is 2083-02-08 BS. BS has no formula: the length of each month (29 to 32 days) is set each year by the almanac, so svc reads a published table of months, and knows the years two independent tables agree on: ' +
        BS_RANGE_TEXT +
        '. Its months run Baisakh (01) to Chaitra (12).',
    },
    {
      kind: 'definitions',
      items: [
        [
          '--calendar ad',
          'the default: dates as the service sends them, and --since, --until take AD dates.',
        ],
        [
          '--calendar bs',
          "tables, on a terminal and in a pipe, show every date in BS and mark its header (BS): DATE (BS); a date-time keeps its time (2083-02-08 15:45 +0545), a month (YYYY-MM) stays as sent, and a date outside the table stays in AD, marked AD. --json never changes; -o csv and -o ndjson keep each date as sent and add <field>_bs right after it (null outside the table). --since and --until take BS dates and send their AD dates; a day the BS calendar does not have (month 13, day 32, a day past that month's length in that year) is exit 2, and the message gives the month's length.",
        ],
        [
          'SVC_CALENDAR, calendar',
          "the same, from the environment or the profile (svc config set calendar bs); --calendar wins over SVC_CALENDAR, which wins over the profile's.",
        ],
      ],
    },
    { kind: 'heading', text: 'The fiscal year: --fy' },
    {
      kind: 'paragraph',
      text: "Nepal's fiscal year runs from 1 Shrawan to the last day of Asar: --fy 2081/82 is 2081-04-01 to 2082-03-32 BS, 2024-07-16 to 2025-07-16 AD, in either calendar. It sets --since and --until (--from and --to of svc data series) and cannot be given with them (exit 2); its years are written YYYY/YY and must follow each other (2081/83 is exit 2). The table's years hold the fiscal years 2000/01 to 2082/83: any other is exit 2, naming them.",
    },
    { kind: 'heading', text: 'Months of svc data' },
    {
      kind: 'paragraph',
      text: 'The datasets are monthly by AD month: --from, --to and --month of svc data are AD months in either calendar, and months in tables stay as sent. With bs, a month that can only be a Bikram Sambat one (2081-04: a year past the AD years of the data) is exit 2, naming the AD months it spans. svc data series --fy 2081/82 asks for the AD months 2024-07 to 2025-07, those holding 1 Shrawan and the last day of Asar, and says so on stderr. With bs, a chart (--chart of svc data series and svc reports income) shows its as-of date in BS, marked (BS), and its months, AD ones, marked AD.',
    },
    { kind: 'heading', text: 'Examples' },
    {
      kind: 'code',
      lines: [
        'svc reports transactions rpt_9f2c41d07ab35e18 --calendar bs',
        'svc reports transactions rpt_9f2c41d07ab35e18 --calendar bs --since 2082-10-01 --until 2082-12-30',
        'svc reports transactions rpt_9f2c41d07ab35e18 --fy 2081/82 -o csv > fy-2081-82.csv   # date and date_bs columns with --calendar bs',
        'svc data series cpi PCPI_IX --fy 2081/82',
        'SVC_CALENDAR=bs svc reports list',
        'svc config set calendar bs',
      ],
    },
  ];
}

export function findTopic(name: string): HelpTopic | undefined {
  return HELP_TOPICS.find((topic) => topic.name === name);
}

/**
 * The program's global flags, grouped by the commands they apply to, from the flags' and the
 * commands' own declarations.
 */
function globalFlagsTopic(program: CommandUnknownOpts): Block[] {
  const help = program.createHelp();
  const flags = globalFlags(program);
  const names = (options: readonly Option[]) =>
    options.length ? options.map(flagName).join(', ') : 'none of them';
  const leaves = (command: CommandUnknownOpts): CommandUnknownOpts[] =>
    command.commands.length ? command.commands.flatMap(leaves) : [command];
  const local = leaves(program).filter((command) => reachOf(command) !== 'service');
  return [
    {
      kind: 'paragraph',
      text: "These flags go anywhere on the command line, before or after the command: `svc --json usage` is `svc usage --json`. Each applies to the commands that need it; a command's help names the ones it takes.",
    },
    ...(['output', 'network', 'service'] as const).flatMap((reach): Block[] => {
      const group = flags.filter((flag) => reachNeeded(flag) === reach);
      if (group.length === 0) return [];
      return [
        { kind: 'heading', text: REACH_HEADINGS[reach] },
        {
          kind: 'definitions',
          items: group.map((flag) => [help.optionTerm(flag), help.optionDescription(flag)]),
        },
      ];
    }),
    {
      kind: 'heading',
      text: 'Commands that do not talk to the service, and the global flags they take',
    },
    {
      kind: 'definitions',
      items: local.map((command) => [commandPath(command), names(globalFlagsOf(command))]),
    },
    {
      kind: 'paragraph',
      text: 'Every other command talks to the service and takes them all. -h, --help shows the help of any command.',
    },
  ];
}

function variablesOf(group: EnvironmentGroup): [string, string][] {
  return ENVIRONMENT.filter((v) => v.group === group).map((v) => [
    'alias' in v ? `${v.name}, ${v.alias}` : v.name,
    v.description,
  ]);
}

function environmentTopic(): Block[] {
  return [
    {
      kind: 'paragraph',
      text: 'svc reads the environment variables below. A flag on the command line wins over a variable, and a variable wins over the active profile of the config file (see `svc help config`).',
    },
    ...ENVIRONMENT_GROUPS.flatMap(({ group, title }): Block[] => [
      { kind: 'heading', text: title },
      { kind: 'definitions', items: variablesOf(group) },
    ]),
    {
      kind: 'paragraph',
      text: 'Set a variable for one command as `SVC_PROFILE=staging svc usage`, or export it in a CI job: `SVC_API_KEY` and `SVC_BASE_URL` are all a script needs.',
    },
  ];
}

function exitCodeText(row: ExitCodeRow): string {
  const causes = [
    ...row.errorCodes,
    ...row.errorTypes,
    ...row.statuses.map((status) => `HTTP ${status}`),
    ...(row.serverErrors ? ['HTTP 5xx'] : []),
  ];
  return causes.length ? `${row.meaning} (${causes.join(', ')})` : row.meaning;
}

function exitCodesTopic(): Block[] {
  return [
    {
      kind: 'paragraph',
      text: 'Every svc run ends with one of these exit codes, so a script can tell what went wrong without reading the message:',
    },
    { kind: 'definitions', items: EXIT_CODES.map((row) => [String(row.exit), exitCodeText(row)]) },
    {
      kind: 'paragraph',
      text: "The exit code of a failed request is decided by the reply's error_code first, then its error_type, then the HTTP status. The error is one line on stderr, `error: <error_code>: <error_message>`, followed by the suggested action, the documentation address and the request id; with --json, --jq or -o json|ndjson|csv and stderr not a terminal, the error envelope is written to stderr as one JSON line instead (a person whose stderr is a terminal reads the lines above). No stack trace is shown unless --debug is given. Bad input is refused before any request is sent (exit 2).",
    },
    {
      kind: 'code',
      lines: [
        'svc reports get "$id" --json > report.json',
        'case $? in',
        '  0) jq -r .status report.json ;;',
        '  3) echo "log in first: svc login" >&2 ;;',
        '  5) echo "no report $id" >&2 ;;',
        '  7) sleep 60 ;;  # rate limited: try again later',
        'esac',
      ],
    },
  ];
}

/** The variables of the pager, which the formatting topic lists under its own heading. */
const PAGER_VARIABLES = ['SVC_PAGER', 'PAGER', 'LESS'];

function formattingTopic(): Block[] {
  return [
    { kind: 'heading', text: 'Output formats (-o, --output)' },
    {
      kind: 'definitions',
      items: [
        [
          'table',
          "The default. On a terminal: boxed tables with colour; a list shows its default columns, a row a line, and cuts free text that does not fit (descriptions, names, reasons) with …; ids, amounts, dates, URLs and keys are never cut. A table too wide even so leaves columns out and names them; below 60 columns a list is one card a row. Values read alike in every view: money as NPR 1,25,000.00 in fields and cards, and in a table grouped with two decimals, its currency once in the header (DEBIT (NPR)); shares and confidences as percentages (FOIR 45.5%); a score's contributions signed (+100); field names in words; reasons as bullets. In a pipe: one header line, then one line per row, every column, columns separated by a tab, values as the service sent them (no grouping, no currency, every digit), no colour and no box drawing.",
        ],
        [
          'wide',
          'A table with every column, free text wrapped rather than cut (one card a row where no narrowing fits). In a pipe: the same lines as table.',
        ],
        [
          'json',
          'The reply body exactly as the service sent it (same keys, same values, numbers with all their digits), indented by two spaces. One document per command; nothing else on stdout. --json is the same as -o json.',
        ],
        [
          'ndjson',
          "One compact JSON object per line, as received (numbers with every digit): one per item of the list a command documents (data, statements, data.results, a report's transactions, a dataset's line items or series); without one, the items of a top-level list or of a list data, else the reply as one object. A view that holds lists (counterparties, recurring, income, liabilities, score, verify, sandbox scenarios, a consent's data) gives one object per item of those lists, its list named in `list`, with the view's own values (report id, currency, score …).",
        ],
        [
          'csv',
          "RFC 4180: the same records as ndjson, a header row with the union of their keys, the list's documented fields first in their documented order and the others in the order they first come (an empty list: its documented fields), raw values (amounts unformatted, numbers with every digit as received); nested objects go to dotted columns (period.from, counterparties.0.name) and lists of plain values are joined with '; ', so no cell holds JSON. Records with more than 1,000 keys between them are refused (exit 10: use -o ndjson). A cell a spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage return) is written with a ' in front; plain numbers such as -12.5 are left as they are, and --no-formula-guard writes every cell as received.",
        ],
      ],
    },
    { kind: 'heading', text: 'Columns' },
    {
      kind: 'definitions',
      items: [
        [
          '--columns a,b,c',
          'The columns of a table, its lines in a pipe, or a CSV, in this order, by the field names --json shows (dotted for nested ones: merchant_info.city). A name the reply has not, nor the list documents, is exit 2 naming the ones it has. Not with --json, --jq or -o ndjson.',
        ],
        ['--no-headers', 'No header line over a table, its lines in a pipe, or a CSV.'],
        [
          '--no-formula-guard',
          "-o csv only: cells as received, without the ' that keeps a spreadsheet from running =, +, -, @ as a formula; for programs that join on the values (a spreadsheet may then run them).",
        ],
      ],
    },
    {
      kind: 'paragraph',
      text: "Tables show the fields a command knows in its own layout, and everything else the service sends as it comes: single values as a list of fields, named in words on a terminal (Statement period from) and by their dotted keys in a pipe's FIELD/VALUE lines (statement.period.from), an empty list said as none; lists of objects as tables whose columns are all their keys, up to 24 beyond those a command designs (those most rows have; a note says how many more were left out, on stderr in a pipe). A missing value is a blank cell. --debug names each documented field a reply lacks.",
    },
    {
      kind: 'paragraph',
      text: 'stdout carries only the result. Messages, warnings, progress and errors go to stderr; spinners only when stderr is a terminal. A closed stdout (`svc … | head -1`) ends svc quietly with exit 0, unless the command had already failed: it keeps its own code.',
    },
    { kind: 'heading', text: 'Colour' },
    {
      kind: 'paragraph',
      text: 'Tables are coloured on a terminal. --no-color and NO_COLOR win over everything; then FORCE_COLOR and CLICOLOR_FORCE force colour into a pipe; otherwise there is no colour when stdout is not a terminal, when CLICOLOR=0 or when TERM=dumb.',
    },
    {
      kind: 'definitions',
      items: [
        ['--no-color', 'never colour the output'],
        ...variablesOf('output').filter(
          ([name]) => !['CI', 'TZ', ...PAGER_VARIABLES].includes(name),
        ),
      ],
    },
    { kind: 'heading', text: 'Pager' },
    {
      kind: 'paragraph',
      text: 'On a terminal, an output taller than it (a table, a report, JSON, CSV, a chart) goes through a pager, as gh and git page theirs: SVC_PAGER, else the profile\'s pager (svc config set pager "less -R"), else PAGER, else less -FRX. An empty value, cat or --no-pager turns it off; a pager that cannot start means printing directly. Quitting the pager early ends svc with exit 0. Never in a pipe, and never for what runs on or asks: svc mock, svc webhooks listen, svc ready, merchants resolve, prompts and progress.',
    },
    {
      kind: 'definitions',
      items: [
        ['--no-pager', 'never page the output'],
        ...variablesOf('output').filter(([name]) => PAGER_VARIABLES.includes(name)),
      ],
    },
    { kind: 'heading', text: 'Times' },
    {
      kind: 'paragraph',
      text: "Tables show the times the service sends in your time zone (TZ, else the system's), to the minute, with its offset from UTC: 2026-06-01 05:45 +0545. On a terminal an expiry or a reset also says how far off it is (in 10 days), and a time within a week how long ago it was (3 h ago). --json, ndjson and csv keep the times exactly as the service sent them.",
    },
    { kind: 'heading', text: 'Recipes with jq' },
    {
      kind: 'code',
      lines: [
        "svc reports list --status complete --json | jq -r '.data[].report_id'",
        'svc match "$ID" --name "$CLAIMED" --json | jq -e \'.result == "match"\' >/dev/null && echo ok',
        'svc reports get "$ID" -o ndjson | jq -c \'select(.category == "salary")\'',
        "svc statements list --status issued --json | jq -r '.statements[].verify_url'",
        'svc usage --json | jq .remaining',
        'id=$(svc parse statement.pdf --wait --json | jq -r .report_id)',
        'svc data series cpi PCPI_IX -o csv > cpi.csv',
      ],
    },
  ];
}

/** The commands that read and write the config file: these, and every command below them. */
const CONFIG_COMMANDS = [['login'], ['logout'], ['whoami'], ['config']];

/**
 * `svc config get KEY` and its description, for a command and each command below it, from the tree.
 */
function commandsUnder(program: CommandUnknownOpts, path: readonly string[]): [string, string][] {
  let command: CommandUnknownOpts | undefined = program;
  for (const name of path) command = command?.commands.find((c) => c.name() === name);
  if (!command) return [];
  const walk = (c: CommandUnknownOpts, names: string[]): [string, string][] =>
    c.commands.length > 0
      ? c.commands.flatMap((sub) => walk(sub, [...names, sub.name()]))
      : [
          [
            ['svc', ...names, ...c.registeredArguments.map((a) => a.name().toUpperCase())].join(
              ' ',
            ),
            c.description(),
          ],
        ];
  return walk(command, [...path]);
}

function configTopic(program: CommandUnknownOpts): Block[] {
  return [
    {
      kind: 'paragraph',
      text: 'Every setting is resolved the same way: a flag on the command line, else an environment variable, else the active profile of the config file, else the built-in default.',
    },
    {
      kind: 'definitions',
      items: [
        [
          'API key',
          "--api-key KEY, else SVC_API_KEY, else the profile's key: in the OS keyring, or its api_key in the config file.",
        ],
        [
          'base URL',
          "--base-url URL, else SVC_BASE_URL, else the profile's base_url. It includes no /v1.",
        ],
        [
          'profile',
          '--profile NAME, else SVC_PROFILE, else the file\'s current_profile, else "default".',
        ],
        [
          'calendar',
          "--calendar ad|bs, else SVC_CALENDAR, else the profile's calendar, else ad (svc help calendar).",
        ],
        [
          'pager',
          "on a terminal, for output taller than it: --no-pager (none), else SVC_PAGER, else the profile's pager, else PAGER, else less -FRX; an empty value is none (svc help formatting).",
        ],
      ],
    },
    { kind: 'heading', text: 'The config file' },
    {
      kind: 'paragraph',
      text: 'config.json in the config folder (SVC_CONFIG_DIR, default ~/.config/svc on Linux; `svc config path` prints it), mode 0600 in a folder of mode 0700, written atomically under a lock. It holds profiles, each with a base_url and, where no OS keyring keeps the key (`svc login` says so), an api_key; "api_key_in": "keyring" marks a key kept in the OS keyring (the Secret Service on Linux, the Keychain on macOS, Credential Manager on Windows), under service svc, account = the profile\'s name and base_url = its base URL (in the Keychain and Credential Manager the account is "default https://api.example.com"). On Linux this prints the key of the profile default:',
    },
    {
      kind: 'code',
      lines: ['secret-tool lookup service svc account default base_url https://api.example.com'],
    },
    {
      kind: 'paragraph',
      text: 'A key is used only for the base URL it was saved with, and `svc login` and `svc logout` in any config folder replace or remove only the entry of their own base URL:',
    },
    {
      kind: 'code',
      lines: [
        '{',
        '  "current_profile": "default",',
        '  "profiles": {',
        '    "default": {',
        '      "base_url": "https://api.example.com",',
        '      "api_key_in": "keyring"',
        '    },',
        '    "staging": {',
        '      "base_url": "https://sandbox.example.com",',
        '      "api_key": "svc_sk_test_…"',
        '    }',
        '  }',
        '}',
      ],
    },
    { kind: 'heading', text: 'Commands' },
    { kind: 'definitions', items: CONFIG_COMMANDS.flatMap((path) => commandsUnder(program, path)) },
    {
      kind: 'paragraph',
      text: 'A full key is never printed: svc shows svc_sk_live_… or svc_sk_test_… and its last four characters. A base URL with http:// is refused unless it points at this machine (localhost, 127.0.0.0/8, ::1), so a key never travels in clear text. Replies of `svc data` are cached per profile in SVC_CACHE_DIR (default ~/.cache/svc on Linux); the cache never holds a key. `svc mock` keeps its demo keys in mock-keys.json in SVC_DATA_DIR (default ~/.local/share/svc on Linux), as config.json is kept: 0600, refused where another user could change it.',
    },
  ];
}
