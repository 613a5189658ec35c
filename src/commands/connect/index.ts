// `svc connect`: start a hosted consent flow (Connect) for an end user.
import type { Command } from 'commander';
import type { App } from '../../core/app.js';
import { examples } from '../args.js';

export function registerConnect(program: Command, app: App): void {
  program
    .command('connect')
    .description('start a Connect consent flow and print the address the end user opens')
    .option('--scopes <list>', 'what to ask the end user for, comma-separated: identity, income')
    .option('--scope <name>', 'one scope; repeat it for more (same as --scopes)', (name: string, names: string[] | undefined) => [...(names ?? []), name])
    .option('--redirect-uri <url>', 'where the flow returns: an https URL, or http to localhost')
    .option('--open', 'open the Connect URL in the browser')
    .option('--qr', 'draw the Connect URL as a QR code (on stderr), to open it on a phone')
    .addHelpText(
      'after',
      examples(
        'svc connect --scopes identity,income --redirect-uri https://app.example.com/connect/done',
        'svc connect --scope identity --redirect-uri http://localhost:3000/callback --open',
        "svc connect --scopes income --redirect-uri https://app.example.com/done --json | jq -r .connect_url",
      ) + '\n\nAt a terminal, missing scopes and redirect URI are asked for; in scripts they are required (exit 2).',
    )
    .action(app.action(async () => (await import('./connect.js')).startConnect));
}
