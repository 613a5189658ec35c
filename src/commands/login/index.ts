// `svc login`, `svc logout`, `svc whoami`: the key of a profile.
import type { Command } from 'commander';
import type { App } from '../../core/app.js';
import { examples } from '../args.js';

export function registerLogin(program: Command, app: App): void {
  program
    .command('login')
    .description('save an API key (checked with the service first) in a profile')
    .option('--with-key', 'read the key from standard input instead of asking')
    .addHelpText(
      'after',
      examples('svc login', 'svc login --profile staging --base-url https://sandbox.example.com', 'printf %s "$KEY" | svc login --base-url https://api.example.com --with-key'),
    )
    .action(app.action(async () => (await import('./login.js')).login));

  program
    .command('logout')
    .description('remove the saved API key of a profile')
    .addHelpText('after', examples('svc logout', 'svc logout --profile staging'))
    .action(app.action(async () => (await import('./logout.js')).logout));

  program
    .command('whoami')
    .description('show the profile, base URL and key (masked) in force, and where each came from')
    .addHelpText('after', examples('svc whoami', 'svc whoami --json | jq -r .key_mode'))
    .action(app.action(async () => (await import('./whoami.js')).whoami));
}
