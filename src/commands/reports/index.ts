// `svc reports …`, and the top-level shortcuts `svc match|auth|recurring` declared beside their verbs.
import { Option, type Command } from 'commander';
import type { App } from '../../core/app.js';
import { examples } from '../args.js';

const ID = 'rpt_9f2c41d07ab35e18';

export function registerReports(program: Command, app: App): void {
  const reports = program
    .command('reports')
    .description('list, read and check parsed bank-statement reports')
    .addHelpText('after', examples('svc reports list --status complete', `svc reports counterparties ${ID}`));

  reports
    .command('list')
    .description("list your organisation's recent reports, newest first")
    .option('--limit <n>', 'how many reports, 1 to 100 (default: the service decides)')
    .addOption(new Option('--status <status>', 'only reports in this state').choices(['complete', 'processing', 'failed']))
    .addHelpText('after', examples('svc reports list', 'svc reports list --status failed --limit 10', "svc reports list --json | jq -r '.data[].report_id'"))
    .action(app.action(async () => (await import('./list.js')).listReports));

  reports
    .command('get')
    .description('show one report: status, bank, statement period and balances, monthly summary, categories')
    .argument('<id>', 'report id')
    .addHelpText('after', examples(`svc reports get ${ID}`, `svc reports get ${ID} --json | jq .statement.closing_balance`, `svc reports get ${ID} -o csv > transactions.csv`))
    .action(app.action(async () => (await import('./get.js')).getReport));

  const match = (command: Command) =>
    command
      .description("compare a claimed name with the account holder's name on the statement")
      .argument('<id>', 'report id')
      .requiredOption('--name <name>', 'the claimed name, e.g. "Ram Bahadur Shrestha"')
      .addHelpText('after', examples(`svc reports match ${ID} --name "Ram Bahadur Shrestha"`, `svc match ${ID} --name "R. B. Shrestha" --json | jq .match_score`))
      .action(app.action(async () => (await import('./match.js')).matchName));
  match(reports.command('match'));
  match(program.command('match'));

  const auth = (command: Command) =>
    command
      .description('show the verified account numbers: holder, account number, SWIFT/BIC')
      .argument('<id>', 'report id')
      .addHelpText('after', examples(`svc reports auth ${ID}`, `svc auth ${ID} --json | jq -r .verification_status`))
      .action(app.action(async () => (await import('./auth.js')).showAuth));
  auth(reports.command('auth'));
  auth(program.command('auth'));

  reports
    .command('identity')
    .description('show the identity view: holder, account, bank, currency, statement period')
    .argument('<id>', 'report id')
    .addHelpText('after', examples(`svc reports identity ${ID}`, `svc reports identity ${ID} --json | jq -r .account_number`))
    .action(app.action(async () => (await import('./identity.js')).showIdentity));

  reports
    .command('counterparties')
    .description('show inflow and outflow by counterparty type, and the top people and merchants')
    .argument('<id>', 'report id')
    .addHelpText('after', examples(`svc reports counterparties ${ID}`, `svc reports counterparties ${ID} -o csv > counterparties.csv`))
    .action(app.action(async () => (await import('./counterparties.js')).showCounterparties));

  const recurring = (command: Command) =>
    command
      .description('show recurring inflow and outflow streams: salary, rent, EMIs, subscriptions')
      .argument('<id>', 'report id')
      .addHelpText('after', examples(`svc reports recurring ${ID}`, `svc recurring ${ID} --json`))
      .action(app.action(async () => (await import('./recurring.js')).showRecurring));
  recurring(reports.command('recurring'));
  recurring(program.command('recurring'));
}
