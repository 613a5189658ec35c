// `svc webhooks …`: receive and check signed webhook deliveries on this machine.
import type { Command } from '@commander-js/extra-typings';

import type { App } from '../../app/app.js';
import { examples, paragraph } from '../args.js';
import { listenForWebhooks } from './listen.js';
import { verifyDelivery } from './verify.js';

export function registerWebhooks(program: Command, app: App): void {
  const webhooks = program
    .command('webhooks')
    // `listen` registers itself with a `svc mock` at the base URL in force (profile, --base-url)
    // and forwards deliveries (bounded by --timeout); `verify` only prints.
    .reach('service')
    .description('receive and verify signed webhook deliveries (X-Svc-Signature)')
    .helpAfter([
      ...examples(
        'svc webhooks listen',
        'svc webhooks listen --port 0 --exit-after 1 --json',
        'svc webhooks verify --header "$SIG" --body delivery.json',
      ),
      paragraph(
        'The signing secret comes from SVC_WEBHOOK_SECRET, or from --secret with a warning (other users of this machine can see a flag); against svc mock, listen has one of its own (svc webhooks listen --print-secret).',
      ),
      paragraph(
        'A delivery is valid when X-Svc-Signature is `t=<unix seconds>,v1=<HMAC-SHA256 of "<t>.<raw body>">` and it was signed less than 300 s ago.',
      ),
    ]);

  webhooks
    .command('listen')
    .description('receive deliveries on 127.0.0.1, verify them and print one line per event')
    .option(
      '--port <port>',
      'port to listen on (0 picks a free one; the address is printed on stderr)',
      '8788',
    )
    .option(
      '--secret <secret>',
      'signing secret (prefer SVC_WEBHOOK_SECRET: a flag is visible to other users; against svc mock, default: the one svc keeps)',
    )
    .option(
      '--forward-to <url>',
      'pass each valid delivery on to this address, with the same headers',
    )
    .option('--exit-after <n>', 'stop with exit 0 after N valid events')
    .option(
      '--wait <seconds>',
      'with --exit-after: give up after this long with exit 9 (default: 60)',
    )
    .option(
      '--ready-file <file>',
      'keep its state in this file, for `svc ready FILE` to wait on (in CI)',
    )
    .option(
      '--print-secret',
      'print the signing secret it verifies with on stdout, and exit (listens to nothing)',
    )
    .helpAfter([
      ...examples(
        'SVC_BASE_URL=http://127.0.0.1:8787 svc webhooks listen',
        'svc webhooks listen --forward-to http://localhost:3000/webhooks',
        'svc webhooks listen --port 0 --exit-after 1 --wait 30 --json --ready-file "$dir/listen" > events.ndjson &',
        'export APP_WEBHOOK_SECRET=$(svc webhooks listen --print-secret)',
      ),
      paragraph(
        'When the base URL is svc mock (on this machine), listen registers its address with it, so events fired there (svc sandbox fire) come here, and removes it when it ends. The mock signs them with your secret (--secret, SVC_WEBHOOK_SECRET), else with the one svc keeps for its listeners (in its data folder), which --print-secret prints: give it to the app --forward-to reaches, and it verifies what comes. The service registers no endpoint this way: against it, give the secret of your endpoint.',
      ),
      paragraph(
        'Valid deliveries are answered 200, others 4xx (the reason is printed on stderr); a delivery already accepted is refused if it comes again (409). With --json (or -o ndjson) each event is one compact JSON object per line, its control and bidirectional characters written as \\u escapes; on a line for people they are left out. --forward-to takes https, or http to this machine. --wait bounds the whole wait for --exit-after events; the global --timeout bounds each forwarded request, its reply included.',
      ),
      paragraph(
        'In a script, start it in the background with --ready-file FILE and wait with `svc ready FILE`: it returns once listen listens (an event fired then reaches it), or fails within its bound when it cannot.',
      ),
      paragraph(
        'Limits: a delivery body of at most 4 MiB (413 past it) and headers of at most 8 KiB (431); a sender has 10 s for the headers and 30 s for the whole request; at most 16 connections at once (one more is closed).',
      ),
    ])
    .action(app.action(listenForWebhooks));

  webhooks
    .command('verify')
    .reach('output')
    .description('check the signature of one delivery offline (exit 0 valid, 6 invalid or stale)')
    .option(
      '--secret <secret>',
      'signing secret (prefer SVC_WEBHOOK_SECRET: a flag is visible to other users)',
    )
    .option(
      '--header <value>',
      'the X-Svc-Signature header: "t=…,v1=…" (or the whole "X-Svc-Signature: …" line)',
    )
    .option(
      '--body <file>',
      'the raw body as received, from a file or - for stdin (default: stdin)',
    )
    .helpAfter([
      ...examples(
        'svc webhooks verify --header "t=1767225600,v1=5f0c…" --body delivery.json',
        'printf %s "$BODY" | svc webhooks verify --header "$SIG" --body -',
      ),
      paragraph(
        'The header is checked first: a malformed or stale one is exit 6 before the body is read. A body larger than 4 MiB, more than a delivery holds, is refused (exit 2).',
      ),
    ])
    .action(app.action(verifyDelivery));
}
