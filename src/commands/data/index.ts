// `svc data …`: the central bank's public datasets (latest month, series, snapshot, selectors).
import { Argument, type Command, Option, type OptionValues } from '@commander-js/extra-typings';

import { bankDescription, BANKS, DATA_BANK_CODES } from '../../api/banks.js';
import { ENDPOINTS } from '../../api/endpoints.js';
import type { App } from '../../app/app.js';
import { choices, completes, fromMachine } from '../../core/completion/values.js';
import { conflicts } from '../../core/program/flag-relations.js';
import { durationOption } from '../../core/program/typed-options.js';
import { collect, examples, paragraph, requestHelp } from '../args.js';
import { DATA_FAMILIES, familiesHelp } from './families.js';
import { MAX_AGE } from './input.js';
import { listKeys } from './keys.js';
import { showLatest } from './latest.js';
import { showSeries } from './series.js';
import { showSnapshot } from './snapshot.js';

// Flags several verbs share, added to a command with its types kept (the verb's handler is checked
// against them).
function withParam<Args extends unknown[], Opts extends OptionValues>(
  command: Command<Args, Opts>,
) {
  return command.option(
    '--param <name=value>',
    'add or override a query parameter (repeatable)',
    collect,
  );
}

/** The family verbs: per-bank families take --bank. */
function withFamily<Args extends unknown[], Opts extends OptionValues>(
  command: Command<Args, Opts>,
) {
  return withCache(withParam(command)).addOption(
    completes(
      new Option(
        '--bank <code>',
        `the bank of a per-bank family (bank-pnl): ${DATA_BANK_CODES.join(', ')} or another bank's code`,
      ),
      // The banks of the datasets: no wallet.
      () =>
        choices(
          BANKS.filter((b) => !b.wallet).map((b) => ({
            value: b.code,
            description: bankDescription(b),
          })),
        ),
    ),
  );
}

/** `<family>`: a dataset family, completed from the families' table. */
const familyArgument = () =>
  completes(new Argument('<family>', 'dataset family (see `svc data --help`)'), () =>
    choices(DATA_FAMILIES.map((f) => ({ value: f.name, description: f.summary }))),
  );

function withCache<Args extends unknown[], Opts extends OptionValues>(
  command: Command<Args, Opts>,
) {
  return command
    .addOption(
      durationOption(
        '--max-age <duration>',
        'use a cached reply younger than this: 90 (seconds), 30m, 12h, 7d (default: 12h)',
        MAX_AGE,
      ),
    )
    .option('--no-cache', 'fetch anew instead of using a cached reply (the new reply is cached)');
}

const MONTHS_HELP = paragraph(
  'The datasets are monthly by AD month: --from and --to are AD months, with --calendar bs too; there, a month that can only be a Bikram Sambat one (2081-04: a year past the AD years of the data) is exit 2, naming the AD months it spans. --fy 2081/82 asks for the AD months 2024-07 to 2025-07, those holding its first and last days, and says so on stderr.',
);

const CACHE_HELP = paragraph(
  'Replies of latest, series and keys are cached per profile and URL in SVC_CACHE_DIR (default ~/.cache/svc): a cached reply is used until it is --max-age old or a new month has begun since it was fetched and since its as_of date. A line on stderr says when a reply came from the cache.',
);

export function registerData(program: Command, app: App): void {
  const data = program
    .command('data')
    .description(
      "read the central bank's public datasets: balance sheet, credit, rates, prices, trade …",
    )
    .helpAfter([
      ...familiesHelp(),
      ...examples(
        'svc data latest balance-sheet',
        'svc data series cpi PCPI_IX --from 2024-01 --chart',
        'svc data keys interest-rates',
      ),
    ]);

  withFamily(
    data
      .command('latest')
      .description("show every line item of a family's latest month, by section")
      .addArgument(familyArgument()),
  )
    .helpAfter(
      requestHelp(ENDPOINTS.dataLatest, [
        ...examples(
          'svc data latest balance-sheet',
          'svc data latest bank-pnl --bank NABIL',
          'svc data latest macro -o csv > macro.csv',
          "svc data latest cpi --json | jq '.data.indicators[] | {indicator, value}'",
        ),
        CACHE_HELP,
      ]),
    )
    .action(app.action(showLatest));

  withFamily(
    data
      .command('series')
      .description('show one line item of a family over time, as rows or as a chart')
      .addArgument(familyArgument())
      .addArgument(
        completes(
          new Argument(
            '[selector]',
            'the line item (see `svc data keys FAMILY`); picked from a list on a terminal when left out',
          ),
          fromMachine('data-selectors'),
        ),
      )
      .option('--from <YYYY-MM>', 'first month (inclusive), an AD month whatever --calendar says')
      .option('--to <YYYY-MM>', 'end month (exclusive), an AD month whatever --calendar says')
      // --fy sets both ends of the range: it goes with neither --from nor --to.
      .addOption(
        conflicts(
          conflicts(
            new Option(
              '--fy <YYYY/YY>',
              "a Nepali fiscal year's AD months, from the one holding 1 Shrawan to the one holding the last day of Asar (2081/82: 2024-07 to 2025-07); not with --from or --to",
            ),
            'from',
            '--fy sets both ends of the range; it cannot be given with --from',
          ),
          'to',
          '--fy sets both ends of the range; it cannot be given with --to',
        ),
      )
      .option('--chart', 'draw a line chart sized to the terminal'),
  )
    .helpAfter(
      requestHelp(ENDPOINTS.dataSeries, [
        ...examples(
          'svc data series balance-sheet total-deposits --from 2024-01 --to 2025-01',
          'svc data series interest-rates base-rate --chart',
          'svc data series cbs CBS.RM -o csv > reserve-money.csv',
          'svc data series cpi PCPI_IX --fy 2081/82',
          'svc data series cpi',
        ),
        MONTHS_HELP,
        CACHE_HELP,
      ]),
    )
    .action(app.action(showSeries));

  withParam(
    data
      .command('snapshot')
      .description('show every C4 banking indicator of one month')
      .option(
        '--month <YYYY-MM>',
        'the month, an AD month whatever --calendar says (default: the latest)',
      )
      // Taken, as by every data command, so that a script may pass it to all of them.
      .option('--no-cache', 'no effect: a snapshot is always fetched anew'),
  )
    .helpAfter(
      requestHelp(
        ENDPOINTS.dataSnapshot,
        examples('svc data snapshot', 'svc data snapshot --month 2025-07 -o csv'),
      ),
    )
    .action(app.action(showSnapshot));

  withFamily(
    data
      .command('keys')
      .description('list the series selectors of a family, with labels and units')
      .addArgument(familyArgument()),
  )
    .helpAfter(
      requestHelp(ENDPOINTS.dataLatest, [
        ...examples(
          'svc data keys credit',
          'svc data keys interest-rates -o ndjson | jq -r .metric',
        ),
        CACHE_HELP,
      ]),
    )
    .action(app.action(listKeys));
}
