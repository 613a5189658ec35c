// `svc api [METHOD] PATH`: any request to the service, in the manner of `gh api`.
import { Argument, type Command, Option } from '@commander-js/extra-typings';

import type { App } from '../../app/app.js';
import { completes, plain } from '../../core/completion/values.js';
import { collect, examples, paragraph } from '../args.js';
import { callApi } from './api.js';
import { METHODS } from './fields.js';
import { MAX_INPUT_SIZE } from './input.js';

const methods = () => plain(METHODS);

export function registerApi(program: Command, app: App): void {
  program
    .command('api')
    .description('send any request to the service and print the reply body')
    // The first word is a method when a path follows it: it completes to the methods.
    .addArgument(
      completes(
        new Argument(
          '<method-or-path>',
          'path of the endpoint, with or without /v1 (e.g. reports or /v1/usage); or a method, then the path',
        ),
        methods,
      ),
    )
    .argument('[path]', 'the path, when a method comes first (GET, POST, PUT, PATCH or DELETE)')
    .addOption(
      completes(
        new Option(
          '-X, --method <method>',
          'GET, POST, PUT, PATCH or DELETE (default: GET, or POST with -f, -F or --input)',
        ),
        methods,
      ),
    )
    .option('-f, --raw-field <key=value>', 'a string field (repeatable)', collect)
    .option(
      '-F, --field <key=value>',
      'a typed field: true, false, null, a number, @file or @- for stdin (repeatable)',
      collect,
    )
    .option('-q, --query <key=value>', 'a query parameter (repeatable)', collect)
    .option('--input <file>', 'the request body, raw, from a file or - for stdin')
    .option('-H, --header <header>', 'an extra request header, "Name: value" (repeatable)', collect)
    .option('-i, --include', 'print the status line and the reply headers before the body')
    .helpAfter([
      ...examples(
        'svc api reports -q status=complete -q limit=5',
        'svc api reports/rpt_9f2c41d07ab35e18/identity/match -f name="Ram Bahadur Shrestha"',
        "svc api merchants/resolve -F 'terminals[]=2220000123456789' -F 'names[]=Bhat-Bhateni'",
        'svc api -X POST consents/cns_0123456789abcdef/revoke',
        'svc api GET statements -f status=issued',
        'jq -n \'{scopes: ["identity"], redirect_uri: $u}\' --arg u "$URL" | svc api connect/request --input -',
      ),
      paragraph(
        'The method is GET, or POST when -f, -F or --input give a body; -X picks another. `svc api METHOD PATH` works too. Fields (-f, -F) are the JSON body, or the query string of a GET. `key[]=v` adds to an array and `key[sub]=v` makes an object. With --input the body is sent as given and fields go to the query string.',
      ),
      paragraph(
        `Files and standard input (--input, -F key=@file) give a request at most ${MAX_INPUT_SIZE} in all; more is refused (exit 2). PATH stays under /v1: \`.\` and \`..\` segments, \`\\\` and encoded / \\ . (%2f, %5c, %2e) are refused (exit 2).`,
      ),
      paragraph(
        'The reply body goes to stdout even on an error status (pretty JSON when it is JSON); a one-line summary goes to stderr and the exit code says what failed (svc --help lists the codes).',
      ),
    ])
    .action(app.action(callApi));
}
