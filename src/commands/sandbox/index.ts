// `svc sandbox …`: scenario reports and webhook deliveries on demand, for tests and CI. Test keys
// only.
import { type Command, Option } from '@commander-js/extra-typings';

import { ENDPOINTS } from '../../api/endpoints.js';
import type { App } from '../../app/app.js';
import { completes, fromMachine } from '../../core/completion/values.js';
import { enumOption } from '../../core/program/typed-options.js';
import { EVENT_KINDS } from '../../webhooks/events.js';
import { examples, paragraph, requestHelp } from '../args.js';
import { createSandboxReport } from './create.js';
import { fireWebhook } from './fire.js';
import { listScenarios } from './scenarios.js';

export function registerSandbox(program: Command, app: App): void {
  const sandbox = program
    .command('sandbox')
    .description('make sandbox reports and fire webhook deliveries on demand (test keys only)')
    .helpAfter([
      ...examples(
        'svc sandbox scenarios',
        'id=$(svc sandbox create --scenario thin_file --quiet)',
        'svc sandbox fire "$id"',
      ),
      paragraph(
        'The sandbox takes test keys (svc_sk_test_...) only; a live key is refused before any request (exit 4).',
      ),
    ]);

  sandbox
    .command('create')
    .description(
      'make a report in your organisation from a scenario (the report commands can read it)',
    )
    .addOption(
      completes(
        new Option(
          '--scenario <name>',
          'which scenario, see `svc sandbox scenarios` (default: salaried)',
        ),
        fromMachine('scenarios'),
      ),
    )
    .option('--quiet', 'print only the report id, for id=$(…) in scripts')
    .helpAfter(
      requestHelp(
        ENDPOINTS.sandboxCreate,
        examples(
          'svc sandbox create',
          'svc sandbox create --scenario error_unsupported_bank',
          'id=$(svc sandbox create --scenario remittance --quiet) && svc recurring "$id"',
        ),
      ),
    )
    .action(app.action(createSandboxReport));

  sandbox
    .command('scenarios')
    .description('list the scenarios a sandbox report can be made from')
    .helpAfter(
      requestHelp(
        ENDPOINTS.sandboxScenarios,
        examples('svc sandbox scenarios', 'svc sandbox scenarios --json'),
      ),
    )
    .action(app.action(listScenarios));

  sandbox
    .command('fire')
    .description('make the service deliver a webhook event for a report to your webhook endpoints')
    .argument('<id>', 'report id')
    .addOption(enumOption('--event <event>', 'which event (default: report.ready)', EVENT_KINDS))
    .option(
      '--error-code <code>',
      'error code carried by a report.failed event, e.g. TAMPER_DETECTED',
    )
    .helpAfter(
      requestHelp(
        ENDPOINTS.sandboxFire,
        examples(
          'svc sandbox fire rpt_9f2c41d07ab35e18',
          'svc sandbox fire rpt_9f2c41d07ab35e18 --event report.failed --error-code TAMPER_DETECTED',
        ),
      ),
    )
    .action(app.action(fireWebhook));
}
