// `svc enrich --file PATH|-`: categorise transactions from a JSON or CSV file.
import type { Command } from '@commander-js/extra-typings';

import { ENDPOINTS } from '../../api/endpoints.js';
import type { App } from '../../app/app.js';
import { examples, paragraph, requestHelp } from '../args.js';
import { enrichTransactions } from './enrich.js';

export function registerEnrich(program: Command, app: App): void {
  program
    .command('enrich')
    .description(
      'categorise transactions from a file (1 billing unit per call): category, confidence, signals',
    )
    .requiredOption(
      '--file <path>',
      'JSON or CSV file of 1 to 5000 transactions; - reads standard input',
    )
    .helpAfter(
      requestHelp(ENDPOINTS.enrich, [
        ...examples(
          'svc enrich --file transactions.csv',
          'svc enrich --file transactions.json -o csv > enriched.csv',
          'svc reports get rpt_9f2c41d07ab35e18 --json | jq .transactions | svc enrich --file -',
        ),
        paragraph(
          'The file is JSON (a list of transactions, or an object holding "transactions") or CSV with a header row: date,description,credit,debit,balance. Each transaction has a date (YYYY-MM-DD), a description, a credit or a debit (a number of 0 or more; not both) and a balance, amounts written as plain numbers (1250.50). The first bad one is named by its CSV line or JSON index, and nothing is sent (exit 2).',
        ),
        paragraph(
          'Each call costs one billing unit. Tables show the transactions with their category; -o csv and -o ndjson write one transaction per line.',
        ),
      ]),
    )
    .action(app.action(enrichTransactions));
}
