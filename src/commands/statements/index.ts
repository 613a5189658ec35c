// `svc statements list`: the verifiable statements your organisation has issued.
import type { Command } from '@commander-js/extra-typings';

import { ENDPOINTS } from '../../api/endpoints.js';
import type { App } from '../../app/app.js';
import { enumOption } from '../../core/program/typed-options.js';
import { examples, requestHelp } from '../args.js';
import { listStatements } from './list.js';

export function registerStatements(program: Command, app: App): void {
  const statements = program
    .command('statements')
    .description('list the verifiable statements your organisation has issued')
    .helpAfter(examples('svc statements list --status issued'));
  statements
    .command('list')
    .description('list issued statements with their content hash and verification address')
    .addOption(
      enumOption('--status <status>', 'only statements in this state', ['issued', 'revoked']),
    )
    .helpAfter(
      requestHelp(
        ENDPOINTS.statements,
        examples(
          'svc statements list',
          'svc statements list --status revoked',
          "svc statements list --json | jq -r '.statements[].verify_url'",
        ),
      ),
    )
    .action(app.action(listStatements));
}
