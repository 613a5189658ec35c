// `svc ready FILE`: waits, within a bound, until the server keeping FILE (`svc mock` or
// `svc webhooks listen` run with --ready-file FILE) listens, and prints its address. The bounded
// wait a CI script needs between starting a server in the background and using it.
import type { Command } from '@commander-js/extra-typings';

import type { App } from '../../app/app.js';
import { integerOption } from '../../core/program/typed-options.js';
import { examples, paragraph } from '../args.js';
import { waitUntilReady } from './wait.js';

export function registerReady(program: Command, app: App): void {
  program
    .command('ready')
    // It reads a file on this machine and prints an address.
    .reach('output')
    .description(
      'wait until a svc mock or webhooks listen run with --ready-file listens, and print its address',
    )
    .argument('<file>', 'the file given to --ready-file')
    .addOption(
      integerOption('--wait <seconds>', 'give up after this long, with exit 9 (default: 30)', {
        min: 1,
        max: 86_400,
      }),
    )
    .helpAfter([
      ...examples(
        'svc ready "$dir/listen" --wait 20',
        'url=$(svc ready "$dir/mock") || exit',
        'svc ready "$dir/mock" --json',
      ),
      paragraph(
        'The server is started first, in the background: `svc webhooks listen … --ready-file "$dir/listen" &`',
      ),
      paragraph(
        'Exit 0 once it listens (its address on stdout; with --json its state); the exit code of the server when it could not start (2 a bad flag or port, 3 a key svc mock does not know, 9 a service it cannot reach), with its error; 1 when it stopped without a word; 9 when nothing listened within --wait.',
      ),
      paragraph(
        "A state an earlier run left in the file is never taken for this run's: start svc ready right after the server (or before it). Give a path in a folder of your own (mktemp -d).",
      ),
    ])
    .action(app.action(waitUntilReady));
}
