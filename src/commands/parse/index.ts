// `svc parse FILE`: upload a bank statement and parse it into a report.
import type { Command } from '@commander-js/extra-typings';

import { AUTO_BANK, BANK_CODES } from '../../api/banks.js';
import { ENDPOINTS } from '../../api/endpoints.js';
import type { App } from '../../app/app.js';
import { integerOption } from '../../core/program/typed-options.js';
import { examples, requestHelp } from '../args.js';
import { parseStatement } from './parse.js';

export function registerParse(program: Command, app: App): void {
  program
    .command('parse')
    .description(
      'upload a bank statement (PDF, JPEG or PNG, at most 20 MB) and parse it into a report',
    )
    .argument('<file>', 'the statement file')
    .option(
      '--bank <code>',
      `the issuing bank: ${AUTO_BANK} (the service finds it) or ${BANK_CODES.join(', ')}`,
      AUTO_BANK,
    )
    .option('--async', 'return at once with the report id; the report is parsed in the background')
    .option('--wait', 'parse in the background and wait until the report is complete or failed')
    .addOption(
      integerOption('--wait-timeout <seconds>', 'how long --wait waits at most', {
        min: 1,
        max: 86_400,
      }).default(600),
    )
    .helpAfter(
      requestHelp(
        ENDPOINTS.parse,
        examples(
          'svc parse statement.pdf',
          'svc parse statement.pdf --bank NABIL --wait',
          'id=$(svc parse statement.pdf --wait --json | jq -r .report_id)',
        ),
      ),
    )
    .action(app.action(parseStatement));
}
