// `svc reports …`, and the top-level shortcuts `svc match|auth|recurring` declared beside their
// verbs.
import type { Command } from '@commander-js/extra-typings';

import { ENDPOINTS } from '../../api/endpoints.js';
import type { App } from '../../app/app.js';
import { decimalOption, enumOption, integerOption } from '../../core/program/typed-options.js';
import { examples, requestHelp } from '../args.js';
import { showAuth } from './auth.js';
import { showBalance } from './balance.js';
import { showCounterparties } from './counterparties.js';
import { getReport } from './get.js';
import { showIdentity } from './identity.js';
import { showIncome } from './income.js';
import {
  ANNUAL_RATE,
  DIRECTIONS,
  FOIR_CEILING,
  PRINCIPAL,
  TRANSACTION_CATEGORIES,
} from './lending-input.js';
import { showLiabilities } from './liabilities.js';
import { listReports } from './list.js';
import { matchName } from './match.js';
import { showRecurring } from './recurring.js';
import { showScore } from './score.js';
import { REPORT_STATUSES } from './status.js';
import { listTransactions } from './transactions.js';
import { underwrite } from './underwrite.js';
import { showVerify } from './verify.js';

const ID = 'rpt_9f2c41d07ab35e18';

export function registerReports(program: Command, app: App): void {
  const reports = program
    .command('reports')
    .description('list, read and check parsed bank-statement reports')
    .helpAfter(examples('svc reports list --status complete', `svc reports counterparties ${ID}`));

  reports
    .command('list')
    .description("list your organisation's recent reports, newest first")
    // 100: the spec's page size maximum.
    .addOption(
      integerOption('--limit <n>', 'how many reports, 1 to 100 (default: the service decides)', {
        min: 1,
        max: 100,
      }),
    )
    .addOption(enumOption('--status <status>', 'only reports in this state', REPORT_STATUSES))
    .helpAfter(
      requestHelp(
        ENDPOINTS.listReports,
        examples(
          'svc reports list',
          'svc reports list --status failed --limit 10',
          "svc reports list --json | jq -r '.data[].report_id'",
        ),
      ),
    )
    .action(app.action(listReports));

  reports
    .command('get')
    .description(
      'show one report: status, bank, statement period and balances, monthly summary, categories',
    )
    .argument('<id>', 'report id')
    .helpAfter(
      requestHelp(
        ENDPOINTS.getReport,
        examples(
          `svc reports get ${ID}`,
          `svc reports get ${ID} --json | jq .statement.closing_balance`,
          `svc reports get ${ID} -o csv > transactions.csv`,
        ),
      ),
    )
    .action(app.action(getReport));

  const match = (command: Command) =>
    command
      .description("compare a claimed name with the account holder's name on the statement")
      .argument('<id>', 'report id')
      .requiredOption('--name <name>', 'the claimed name, e.g. "Ram Bahadur Shrestha"')
      .helpAfter(
        requestHelp(
          ENDPOINTS.matchName,
          examples(
            `svc reports match ${ID} --name "Ram Bahadur Shrestha"`,
            `svc match ${ID} --name "R. B. Shrestha" --json | jq .match_score`,
          ),
        ),
      )
      .action(app.action(matchName));
  match(reports.command('match'));
  match(program.command('match'));

  const auth = (command: Command) =>
    command
      .description('show the verified account numbers: holder, account number, SWIFT/BIC')
      .argument('<id>', 'report id')
      .helpAfter(
        requestHelp(
          ENDPOINTS.auth,
          examples(`svc reports auth ${ID}`, `svc auth ${ID} --json | jq -r .verification_status`),
        ),
      )
      .action(app.action(showAuth));
  auth(reports.command('auth'));
  auth(program.command('auth'));

  reports
    .command('identity')
    .description('show the identity view: holder, account, bank, currency, statement period')
    .argument('<id>', 'report id')
    .helpAfter(
      requestHelp(
        ENDPOINTS.identity,
        examples(
          `svc reports identity ${ID}`,
          `svc reports identity ${ID} --json | jq -r .account_number`,
        ),
      ),
    )
    .action(app.action(showIdentity));

  reports
    .command('counterparties')
    .description('show inflow and outflow by counterparty type, and the top people and merchants')
    .argument('<id>', 'report id')
    .helpAfter(
      requestHelp(
        ENDPOINTS.counterparties,
        examples(
          `svc reports counterparties ${ID}`,
          `svc reports counterparties ${ID} -o csv > counterparties.csv`,
        ),
      ),
    )
    .action(app.action(showCounterparties));

  const recurring = (command: Command) =>
    command
      .description('show recurring inflow and outflow streams: salary, rent, EMIs, subscriptions')
      .argument('<id>', 'report id')
      .helpAfter(
        requestHelp(
          ENDPOINTS.recurring,
          examples(`svc reports recurring ${ID}`, `svc recurring ${ID} --json`),
        ),
      )
      .action(app.action(showRecurring));
  recurring(reports.command('recurring'));
  recurring(program.command('recurring'));

  reports
    .command('transactions')
    .description(
      'list the transactions of a report, filtered by category, merchant category, direction and dates',
    )
    .argument('<id>', 'report id')
    .addOption(
      enumOption(
        '--category <category>',
        'only transactions of this category',
        TRANSACTION_CATEGORIES,
      ),
    )
    .option(
      '--merchant-category <word>',
      'only transactions at merchants of this category, one word (e.g. dining)',
    )
    .addOption(
      enumOption(
        '--direction <direction>',
        'only money in (credit) or only money out (debit)',
        DIRECTIONS,
      ),
    )
    .option(
      '--since <YYYY-MM-DD>',
      'only transactions on or after this date (a BS date with --calendar bs)',
    )
    .option(
      '--until <YYYY-MM-DD>',
      'only transactions on or before this date (a BS date with --calendar bs)',
    )
    .option(
      '--fy <YYYY/YY>',
      'only transactions of this Nepali fiscal year, 1 Shrawan to the end of Asar (e.g. 2081/82); not with --since or --until',
    )
    .addOption(
      integerOption(
        '--limit <n>',
        'how many transactions at most, 1 to 1000 (default: 500, the service decides)',
        { min: 1, max: 1000 },
      ),
    )
    .helpAfter(
      requestHelp(
        ENDPOINTS.transactions,
        examples(
          `svc reports transactions ${ID}`,
          `svc reports transactions ${ID} --category salary --since 2026-01-01 --until 2026-03-31`,
          `svc reports transactions ${ID} --calendar bs --fy 2082/83`,
          `svc reports transactions ${ID} --direction debit --merchant-category dining -o csv > dining.csv`,
          `svc reports transactions ${ID} -o ndjson | jq -r 'select(.credit != null) | .credit'`,
        ),
      ),
    )
    .action(app.action(listTransactions));

  reports
    .command('income')
    .description(
      'show the income found in a statement: salary, its regularity and day, stability, remittance, monthly credits',
    )
    .argument('<id>', 'report id')
    .option('--chart', 'draw the monthly credits as a line chart sized to the terminal')
    .helpAfter(
      requestHelp(
        ENDPOINTS.income,
        examples(
          `svc reports income ${ID}`,
          `svc reports income ${ID} --chart`,
          `svc reports income ${ID} --json | jq .salary_amount`,
        ),
      ),
    )
    .action(app.action(showIncome));

  reports
    .command('balance')
    .description(
      'show the opening, closing and average daily balance of a statement, and their trend',
    )
    .argument('<id>', 'report id')
    .helpAfter(
      requestHelp(
        ENDPOINTS.balance,
        examples(`svc reports balance ${ID}`, `svc reports balance ${ID} --json | jq -r .trend`),
      ),
    )
    .action(app.action(showBalance));

  reports
    .command('liabilities')
    .description(
      'show the monthly EMIs of a statement: their total, the EMI load, bounces, and the lenders',
    )
    .argument('<id>', 'report id')
    .helpAfter(
      requestHelp(
        ENDPOINTS.liabilities,
        examples(
          `svc reports liabilities ${ID}`,
          `svc reports liabilities ${ID} --json | jq '.lenders[].lender'`,
        ),
      ),
    )
    .action(app.action(showLiabilities));

  reports
    .command('score')
    .description(
      'show the credit score (out of 1000), its band and the factors behind it; costs 1 billing unit per call',
    )
    .argument('<id>', 'report id')
    .helpAfter(
      requestHelp(
        ENDPOINTS.score,
        examples(`svc reports score ${ID}`, `svc reports score ${ID} --json | jq .score`),
      ),
    )
    .action(app.action(showScore));

  reports
    .command('verify')
    .description(
      'check whether a statement is authentic: verdict, confidence and each check; costs 1 billing unit per call',
    )
    .argument('<id>', 'report id')
    .helpAfter(
      requestHelp(
        ENDPOINTS.verify,
        examples(`svc reports verify ${ID}`, `svc reports verify ${ID} --json | jq -r .verdict`),
      ),
    )
    .action(app.action(showVerify));

  reports
    .command('underwrite')
    .description(
      'assess a loan against a statement: FOIR, affordability, risks and a verdict; costs 1 billing unit per call',
    )
    .argument('<id>', 'report id')
    .addOption(
      decimalOption(
        '--principal <amount>',
        'the loan amount, a number above 0 (e.g. 500000)',
        PRINCIPAL,
      ).makeOptionMandatory(),
    )
    .addOption(
      integerOption('--tenor-months <n>', 'the loan term in months, 1 to 600', {
        min: 1,
        max: 600,
      }).makeOptionMandatory(),
    )
    .addOption(
      decimalOption(
        '--annual-rate <percent>',
        'the yearly interest rate in percent, 0 to 100 (e.g. 12.5)',
        ANNUAL_RATE,
      ).makeOptionMandatory(),
    )
    .option('--applicant-name <name>', "the applicant's name, matched against the account holder's")
    .addOption(
      decimalOption(
        '--foir-ceiling <fraction>',
        'the largest share of income that instalments may take, above 0 and at most 1 (e.g. 0.5)',
        FOIR_CEILING,
      ),
    )
    .helpAfter(
      requestHelp(
        ENDPOINTS.underwrite,
        examples(
          `svc reports underwrite ${ID} --principal 500000 --tenor-months 36 --annual-rate 12.5`,
          `svc reports underwrite ${ID} --principal 1500000 --tenor-months 60 --annual-rate 11 --applicant-name "Ram Prasad Sharma" --foir-ceiling 0.4`,
          `svc reports underwrite ${ID} --principal 500000 --tenor-months 36 --annual-rate 12.5 --json | jq .verdict`,
        ),
      ),
    )
    .action(app.action(underwrite));
}
