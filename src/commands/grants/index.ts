// `svc grants data`: read what an end user granted through a Connect flow.
import type { Command } from '@commander-js/extra-typings';

import { ENDPOINTS } from '../../api/endpoints.js';
import type { App } from '../../app/app.js';
import { examples, paragraph, requestHelp } from '../args.js';
import { readGrantData } from './grants.js';

const GRANT = 'grt_7c3e91a0';

export function registerGrants(program: Command, app: App): void {
  const grants = program
    .command('grants')
    .description('read the data end users granted you through Connect')
    .helpAfter([
      ...examples(`svc grants data ${GRANT}`),
      paragraph('The access token comes from SVC_ACCESS_TOKEN or --access-token.'),
    ]);

  grants
    .command('data')
    .description('read the data of a Connect grant, one section per scope')
    .argument('<grant-id>', 'grant id, from `svc connect exchange`')
    .option(
      '--access-token <token>',
      "the grant's access token (prefer SVC_ACCESS_TOKEN: a flag is visible to other users)",
    )
    .helpAfter(
      requestHelp(
        ENDPOINTS.grantData,
        [
          ...examples(
            `svc grants data ${GRANT}`,
            `svc grants data ${GRANT} --access-token "$ACCESS_TOKEN" --json | jq .data.identity`,
          ),
          paragraph(
            'The access token (SVC_ACCESS_TOKEN, or --access-token) comes from `svc connect exchange PUBLIC_TOKEN`. It is sent in the X-Svc-Access-Token header, never in the URL, and masked in everything svc prints.',
          ),
        ],
        ', with the header X-Svc-Access-Token',
      ),
    )
    .action(app.action(readGrantData));
}
