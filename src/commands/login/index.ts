// `svc login`, `svc logout`, `svc whoami`: the key of a profile.
import type { Command } from '@commander-js/extra-typings';

import type { App } from '../../app/app.js';
import { examples, paragraph } from '../args.js';
import { login } from './login.js';
import { logout } from './logout.js';
import { whoami } from './whoami.js';

export function registerLogin(program: Command, app: App): void {
  program
    .command('login')
    .description('save an API key (checked with the service first) in a profile')
    .option('--with-key', 'read the key from standard input instead of asking')
    .option(
      '--use',
      'make the profile the active one (the first profile saved always becomes active)',
    )
    .option(
      '--insecure-storage',
      'save the key in the config file (mode 0600), even where an OS keyring could keep it',
    )
    .helpAfter([
      ...examples(
        'svc login',
        'svc login --profile staging --base-url https://sandbox.example.com',
        'svc login --profile staging --use',
        'printf %s "$KEY" | svc login --base-url https://api.example.com --with-key',
      ),
      paragraph(
        "At a terminal, login asks for the base URL (Enter takes the service's address, https://api.swippee.com, or the profile's) unless --base-url or SVC_BASE_URL gives it, then for the key.",
      ),
      paragraph(
        "Keys are created in the service's dashboard, which shows each key once. The key is kept in the OS keyring (Secret Service, Keychain, Credential Manager) where one answers, else in the config file, which stderr then says. Logging in to another profile (--profile NAME) leaves the active profile as it is, unless --use is given; `svc config use NAME` switches later.",
      ),
    ])
    .action(app.action(login));

  program
    .command('logout')
    .description('remove the saved API key of a profile')
    .helpAfter([
      ...examples('svc logout', 'svc logout --profile staging'),
      paragraph('The key is removed from wherever it is kept: the OS keyring and the config file.'),
    ])
    .action(app.action(logout));

  program
    .command('whoami')
    .description(
      'show the profile, base URL and key (masked) in force, where each came from, and whether the service accepts the key',
    )
    .option('--local', 'show the settings only, without asking the service (no request)')
    .helpAfter([
      ...examples('svc whoami', 'svc whoami --local', 'svc whoami --json | jq -r .accepted'),
      paragraph(
        'The key is checked with GET /v1/usage: a refused key exits 3. In a pipe each value is on its own line and where it came from (flag, env, profile, default) is a field of its own: api_key_source, ...',
      ),
    ])
    .action(app.action(whoami));
}
