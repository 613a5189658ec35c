// `svc connect`: start a hosted consent flow (Connect) for an end user; `svc connect exchange`: its
// last step.
import { type Command, Option } from '@commander-js/extra-typings';

import { CONNECT_SCOPES } from '../../api/connect.js';
import { ENDPOINTS } from '../../api/endpoints.js';
import type { App } from '../../app/app.js';
import { choices, completes } from '../../core/completion/values.js';
import { listOption } from '../../core/program/typed-options.js';
import { collect, examples, paragraph, requestHelp } from '../args.js';
import { startConnect } from './connect.js';
import { exchangePublicToken } from './exchange.js';

/** The scopes a Connect request asks for, as `--scopes` and `--scope` complete them. */
const connectScopes = () =>
  choices(CONNECT_SCOPES.map((s) => ({ value: s.name, description: s.description })));

export function registerConnect(program: Command, app: App): void {
  const connect = program
    .command('connect')
    .description('start a Connect consent flow and print the address the end user opens')
    .addOption(
      completes(
        listOption(
          '--scopes <list>',
          'what to ask the end user for, comma-separated: identity, income',
        ),
        connectScopes,
      ),
    )
    .addOption(
      completes(
        new Option('--scope <name>', 'one scope; repeat it for more (same as --scopes)').argParser(
          collect,
        ),
        connectScopes,
      ),
    )
    .option('--redirect-uri <url>', 'where the flow returns: an https URL, or http to localhost')
    .option('--open', 'open the Connect URL in the browser')
    .option('--qr', 'draw the Connect URL as a QR code (on stderr), to open it on a phone')
    .helpAfter(
      requestHelp(ENDPOINTS.connectRequest, [
        ...examples(
          'svc connect --scopes identity,income --redirect-uri https://app.example.com/connect/done',
          'svc connect --scope identity --redirect-uri http://localhost:3000/callback --open',
          'svc connect --scopes income --redirect-uri https://app.example.com/done --json | jq -r .connect_url',
        ),
        paragraph(
          'At a terminal, missing scopes and redirect URI are asked for; in scripts they are required (exit 2).',
        ),
      ]),
    )
    .action(app.action(startConnect));

  // A subcommand of a command that keeps its own action and options: `svc connect --scopes …`
  // still starts a flow; `svc connect exchange TOKEN` is the next step of it.
  connect
    .command('exchange')
    .description(
      "trade the public token of a finished Connect flow for the grant's access token (shown once)",
    )
    .argument('<public-token>', 'the public token the flow handed to your redirect page')
    .helpAfter(
      requestHelp(ENDPOINTS.connectExchange, [
        ...examples(
          'svc connect exchange "$PUBLIC_TOKEN"',
          'svc connect exchange "$PUBLIC_TOKEN" --json | jq -r .grant_id',
        ),
        paragraph(
          'The access token is shown once, here; svc masks it in everything it prints afterwards. Pass it as SVC_ACCESS_TOKEN to `svc grants data GRANT_ID`.',
        ),
      ]),
    )
    .action(app.action(exchangePublicToken));
}
