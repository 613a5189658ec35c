// `svc consents …`: share a report's data with a third party (a lender) through a consent token.
import type { Command } from '@commander-js/extra-typings';

import { ENDPOINTS } from '../../api/endpoints.js';
import type { App } from '../../app/app.js';
import { completes, plain } from '../../core/completion/values.js';
import { integerOption, listOption } from '../../core/program/typed-options.js';
import { examples, paragraph, requestHelp } from '../args.js';
import { createConsent } from './create.js';
import { readConsentData } from './data.js';
import { listConsents } from './list.js';
import { CONSENT_SCOPES } from './options.js';
import { revokeConsent } from './revoke.js';

const REPORT = 'rpt_9f2c41d07ab35e18';
const CONSENT = 'cns_4b1d2e9a';

export function registerConsents(program: Command, app: App): void {
  const consents = program
    .command('consents')
    .description("share a report's data with a third party through a consent token, and revoke it")
    .helpAfter(
      examples(
        `svc consents create ${REPORT} --scopes identity,income --grantee-label "Nabil Bank loan desk"`,
        'svc consents list',
        `svc consents revoke ${CONSENT}`,
      ),
    );

  consents
    .command('create')
    .description('give a third party access to parts of a report: prints the consent token, once')
    .argument('<report-id>', 'the report to share')
    .addOption(
      completes(
        listOption(
          '--scopes <list>',
          `what to share, comma-separated: ${CONSENT_SCOPES.join(', ')}`,
        ).makeOptionMandatory(),
        () => plain(CONSENT_SCOPES),
      ),
    )
    .option('--grantee-label <label>', 'who receives the data, as the consent list shows it')
    .addOption(
      integerOption(
        '--expires-in-days <n>',
        'days until the token stops working, 1 to 365 (default: the service decides, 30)',
        { min: 1, max: 365 },
      ),
    )
    .helpAfter(
      requestHelp(ENDPOINTS.createConsent, [
        ...examples(
          `svc consents create ${REPORT} --scopes identity,income`,
          `svc consents create ${REPORT} --scopes income,liabilities --grantee-label "Nabil Bank loan desk" --expires-in-days 7`,
          `svc consents create ${REPORT} --scopes identity --json | jq -r .data_url`,
        ),
        paragraph(
          'The token is shown once, here: whoever holds it reads those parts of the report until it expires or is revoked. svc masks it in everything it prints afterwards.',
        ),
      ]),
    )
    .action(app.action(createConsent));

  consents
    .command('list')
    .description('list the consents you have given')
    .helpAfter(
      requestHelp(
        ENDPOINTS.listConsents,
        examples('svc consents list', 'svc consents list -o ndjson'),
      ),
    )
    .action(app.action(listConsents));

  consents
    .command('revoke')
    .description('revoke a consent: its token stops working at once')
    .argument('<id>', 'consent id')
    .helpAfter(requestHelp(ENDPOINTS.revokeConsent, examples(`svc consents revoke ${CONSENT}`)))
    .action(app.action(revokeConsent));

  consents
    .command('data')
    .description('read the data a consent opens, as its grantee does: the token alone, no API key')
    .argument('<id>', 'consent id')
    .option(
      '--token <token>',
      'the consent token its owner shared (prefer SVC_CONSENT_TOKEN or --token-stdin: a flag is visible to other users)',
    )
    .option('--token-stdin', 'read the consent token from standard input')
    .helpAfter(
      requestHelp(ENDPOINTS.consentData, [
        ...examples(
          `svc consents data ${CONSENT}`,
          `printf %s "$TOKEN" | svc consents data ${CONSENT} --token-stdin --json | jq .data.income`,
        ),
        paragraph(
          'The token comes from SVC_CONSENT_TOKEN, --token-stdin or --token. No API key and no config are needed: only the base URL (--base-url or SVC_BASE_URL). The token is masked in --debug traces and errors.',
        ),
      ]),
    )
    .action(app.action(readConsentData));
}
