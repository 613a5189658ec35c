// `svc parse FILE`: upload a bank statement and parse it into a report.
import { type Command, Option } from '@commander-js/extra-typings';

import { AUTO_BANK, BANK_CODES, bankDescription, BANKS } from '../../api/banks.js';
import { ENDPOINTS } from '../../api/endpoints.js';
import type { App } from '../../app/app.js';
import { choices, completes } from '../../core/completion/values.js';
import { conflicts } from '../../core/program/flag-relations.js';
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
    .addOption(
      completes(
        new Option(
          '--bank <code>',
          `the issuing bank: ${AUTO_BANK} (the service finds it) or ${BANK_CODES.join(', ')}`,
        ).default(AUTO_BANK),
        () =>
          choices([
            { value: AUTO_BANK, description: 'the service finds the bank (the default)' },
            ...BANKS.map((b) => ({ value: b.code, description: bankDescription(b) })),
          ]),
      ),
    )
    .option('--async', 'return at once with the report id; the report is parsed in the background')
    .addOption(
      conflicts(
        new Option(
          '--wait',
          'parse in the background and wait until the report is complete or failed',
        ),
        'async',
        '--async returns at once and --wait waits for the report: give one of them, not both',
        [
          'Both parse in the background; --wait alone also waits until the report is complete or failed.',
        ],
      ),
    )
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
