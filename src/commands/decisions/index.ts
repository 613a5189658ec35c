// `svc decisions …`: record lending decisions and loan outcomes, and list them.
import type { Command } from '@commander-js/extra-typings';

import { ENDPOINTS } from '../../api/endpoints.js';
import type { App } from '../../app/app.js';
import { decimalOption, enumOption, integerOption } from '../../core/program/typed-options.js';
import { examples, requestHelp } from '../args.js';
import { listDecisions } from './list.js';
import { DECISIONS, OUTCOMES, POSITIVE_NUMBER } from './options.js';
import { recordDecision, recordOutcome } from './record.js';

const REPORT = 'rpt_9f2c41d07ab35e18';

export function registerDecisions(program: Command, app: App): void {
  const decisions = program
    .command('decisions')
    .description('record lending decisions and how the loans turned out, and list them')
    .helpAfter(
      examples(
        `svc decisions record --client-reference-id loan-1001 --decision approved --report-id ${REPORT} --amount 250000`,
        'svc decisions outcome --client-reference-id loan-1001 --outcome repaid',
        'svc decisions list --outcome defaulted --limit 20',
      ),
    );

  decisions
    .command('record')
    .description('record the decision you took on a loan application')
    .requiredOption('--client-reference-id <id>', 'your own id of the application, e.g. loan-1001')
    .addOption(
      enumOption('--decision <decision>', 'what you decided', DECISIONS).makeOptionMandatory(),
    )
    .option('--report-id <id>', 'the report the decision rests on')
    .option('--rationale <text>', 'why, in a few words')
    .addOption(
      decimalOption(
        '--amount <n>',
        'the amount applied for or granted, a positive number',
        POSITIVE_NUMBER,
      ),
    )
    .helpAfter(
      requestHelp(
        ENDPOINTS.recordDecision,
        examples(
          'svc decisions record --client-reference-id loan-1001 --decision review',
          `svc decisions record --client-reference-id loan-1001 --decision approved --report-id ${REPORT} --amount 250000 --rationale "FOIR 32%, steady salary"`,
        ),
      ),
    )
    .action(app.action(recordDecision));

  decisions
    .command('list')
    .description('list the decisions recorded')
    .addOption(enumOption('--outcome <outcome>', 'only loans with this outcome', OUTCOMES))
    .addOption(
      integerOption('--limit <n>', 'how many, 1 to 200 (default: the service decides, 50)', {
        min: 1,
        max: 200,
      }),
    )
    .helpAfter(
      requestHelp(
        ENDPOINTS.listDecisions,
        examples(
          'svc decisions list',
          'svc decisions list --outcome delinquent --limit 100 -o csv > delinquent.csv',
        ),
      ),
    )
    .action(app.action(listDecisions));

  decisions
    .command('outcome')
    .description('record how a loan turned out')
    .requiredOption(
      '--client-reference-id <id>',
      'your own id of the application, as recorded with the decision',
    )
    .addOption(
      enumOption('--outcome <outcome>', 'how it turned out', OUTCOMES).makeOptionMandatory(),
    )
    .option('--detail <text>', 'more about it, e.g. "90+ DPD"')
    .helpAfter(
      requestHelp(
        ENDPOINTS.recordOutcome,
        examples(
          'svc decisions outcome --client-reference-id loan-1001 --outcome repaid',
          'svc decisions outcome --client-reference-id loan-1002 --outcome delinquent --detail "90+ DPD"',
        ),
      ),
    )
    .action(app.action(recordOutcome));
}
