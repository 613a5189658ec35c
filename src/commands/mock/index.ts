// `svc mock`: the local emulation of the service, for demos and tests.
import { type Command, Option } from '@commander-js/extra-typings';

import type { App } from '../../app/app.js';
import { choices, completes } from '../../core/completion/values.js';
import { FAULT_DESCRIPTIONS } from '../../mock/fault-names.js';
import { collect, examples, paragraph } from '../args.js';
import { runMock } from './mock.js';

const KEYS_HELP = paragraph(
  'The demo keys are the same at every start, so a saved login survives a restart: svc keeps them in mock-keys.json in SVC_DATA_DIR (default ~/.local/share/svc), mode 0600; the mock itself keeps only their SHA-256 hashes. --new-keys replaces them.',
);

export function registerMock(program: Command, app: App): void {
  program
    .command('mock')
    // The service it runs is its own: it prints (--json), but talks to no service.
    .reach('output')
    .description('run a local emulation of the service on 127.0.0.1, with demo keys and data')
    .option('--port <port>', 'port to listen on (0 picks a free one)', '8787')
    .option('--processing-ms <ms>', 'how long a background parse stays processing', '2000')
    .option('--quiet', 'do not log each request on stderr')
    .option(
      '--keep-requests <n>',
      'how many of the latest requests GET /_mock/requests lists',
      '1000',
    )
    .option(
      '--keep-bodies',
      'keep request bodies (JSON and text, up to 256 KiB each) in that list too',
    )
    .option(
      '--webhook-url <url>',
      'POST signed sandbox webhook deliveries to this address (repeatable)',
      collect,
    )
    .option(
      '--webhook-secret <secret>',
      'sign deliveries with this secret (default: a new one at every start)',
    )
    .option(
      '--ready-file <file>',
      'keep its state in this file, for `svc ready FILE` to wait on (in CI)',
    )
    .option(
      '--new-keys',
      'replace the demo keys kept in the data folder with new ones (logins saved with the old ones stop working)',
    )
    .addOption(
      completes(
        new Option(
          '--fault <name>',
          'misbehave on purpose: a named fault for every /v1 request (repeatable; `--fault list` names them)',
        ).argParser(collect),
        () =>
          choices([
            ...Object.entries(FAULT_DESCRIPTIONS).map(([value, description]) => ({
              value,
              description,
            })),
            { value: 'list', description: 'name every fault' },
          ]),
      ),
    )
    .helpAfter([
      ...examples(
        'svc mock',
        'svc mock --port 0 --json | head -1 | jq -r .url',
        'svc mock --port 0 --ready-file "$dir/mock" > mock.ndjson & svc ready "$dir/mock"',
        'svc mock --webhook-url http://127.0.0.1:8788/hooks --webhook-secret "$SVC_WEBHOOK_SECRET"',
        'svc mock --fault 503-twice',
        'svc mock --keep-requests 5000 --keep-bodies',
        'svc mock --new-keys',
      ),
      KEYS_HELP,
    ])
    .action(app.action(runMock));
}
