// `svc usage`: the organisation's quotas this period.
import type { Command } from 'commander';
import type { App } from '../../main.js';
import { examples } from '../args.js';

export function registerUsage(program: Command, app: App): void {
  program
    .command('usage')
    .description('show quota usage of your organisation: parses, Data API calls, merchant lookups')
    .addHelpText('after', examples('svc usage', "svc usage --json | jq '.quotas[] | select(.name == \"data_api\")'"))
    .action(app.action(async () => (await import('./usage.js')).showUsage));
}
