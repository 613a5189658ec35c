// `svc usage`: the organisation's quota this period.
import type { Command } from '@commander-js/extra-typings';

import { ENDPOINTS } from '../../api/endpoints.js';
import type { App } from '../../app/app.js';
import { examples, requestHelp } from '../args.js';
import { showUsage } from './usage.js';

export function registerUsage(program: Command, app: App): void {
  program
    .command('usage')
    .description(
      'show quota usage of your organisation: plan, used of quota, remaining, when it resets',
    )
    .helpAfter(
      requestHelp(ENDPOINTS.usage, examples('svc usage', 'svc usage --json | jq .remaining')),
    )
    .action(app.action(showUsage));
}
