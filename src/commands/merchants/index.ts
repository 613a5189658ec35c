// `svc merchants …`: QR-payment terminals and merchant-name strings resolved to merchants.
import { type Command, Option } from '@commander-js/extra-typings';

import { ENDPOINTS } from '../../api/endpoints.js';
import type { App } from '../../app/app.js';
import { conflicts, needs } from '../../core/program/flag-relations.js';
import { integerOption } from '../../core/program/typed-options.js';
import { collect, examples, paragraph, requestHelp } from '../args.js';
import { resolveMerchants } from './resolve.js';

export function registerMerchants(program: Command, app: App): void {
  const merchants = program
    .command('merchants')
    .description('resolve QR-payment terminal numbers and merchant names to merchants')
    .helpAfter(
      examples(
        'svc merchants resolve 9756038350856888',
        'svc merchants resolve --file terminals.txt -o csv > merchants.csv',
      ),
    );

  merchants
    .command('resolve')
    .description('look up terminals and merchant names: merchant, MCC, spend category, city')
    .argument('[terminal...]', 'terminal numbers (16 or more digits)')
    .option('--name <name>', 'a merchant name as written on a statement (repeatable)', collect)
    .option(
      '--file <path>',
      'read lookups from a file, or - for stdin: one a line; 16+ digits is a terminal, anything else a name',
    )
    .addOption(
      needs(
        new Option(
          '--column <name>',
          'read --file as CSV with a header row (separated by , ; tab or |) and take this column; lines above the header row are skipped',
        ),
        'file',
        '--column needs --file: it names a column of a CSV file',
      ),
    )
    .addOption(
      conflicts(
        needs(
          new Option(
            '--no-header',
            'read --file one lookup a line even if it looks like CSV with a header row or a bank statement',
          ),
          'file',
          '--no-header needs --file: it says how to read a file',
        ),
        'column',
        '--no-header conflicts with --column: --column reads a CSV file by its header row',
      ),
    )
    .addOption(
      integerOption('--concurrency <n>', 'calls run at once, 1 to 16 (default: 4)', {
        min: 1,
        max: 16,
      }),
    )
    .option(
      '--dry-run',
      'print how many lookups, calls and billing units it would take, and send nothing',
    )
    .option(
      '--failed-out <file>',
      'where to list the lookups not resolved if a run with --file stops (default: ./svc-unresolved-<time>.txt)',
    )
    .addOption(new Option('--unmatched', 'show only the lookups that matched no merchant'))
    .addOption(
      needs(
        new Option(
          '--each-line',
          'write a record for each line of --file, in its order, duplicates repeated, with its line number first',
        ),
        'file',
        '--each-line needs --file: it writes a record for each line of the file',
      ),
    )
    .addOption(
      conflicts(
        needs(
          new Option(
            '--resume <kept>',
            'with --each-line: take the results a run that stopped kept in this file, and send only the other lookups',
          ),
          'eachLine',
          '--resume needs --each-line: it takes the results an --each-line run kept',
        ),
        'dryRun',
        '--resume conflicts with --dry-run',
      ),
    )
    .helpAfter(
      requestHelp(ENDPOINTS.resolveMerchants, [
        ...examples(
          'svc merchants resolve 9756038350856888 --name "Bhatbhateni Supermarket Pvt. Ltd."',
          'svc merchants resolve --file terminals.txt --dry-run',
          'svc merchants resolve --file statement-lines.csv --column narration -o csv > merchants.csv',
          'svc merchants resolve --file narrations.txt --no-header   # lines with commas that are not CSV',
          'svc merchants resolve --file statement.csv --column narration --each-line -o csv > by-line.csv',
          "cut -f3 payments.tsv | svc merchants resolve --file - -o ndjson | jq -r 'select(.matched) | .category'",
          'svc merchants resolve --file svc-unresolved-20261122-091503.txt   # finish a run that stopped',
        ),
        paragraph(
          "A --file with a CSV header row among its first 20 lines (2 or more column names, the lines below it alike, with numbers or dates under a name or usual names such as Date and Amount), or a bank statement's account number line, is refused before anything is sent: give --column NAME, or --no-header if each line is one lookup. With --column, the lines above the header row (a bank's name, account and period) are skipped, and stderr says so.",
        ),
        paragraph(
          'Duplicates are looked up once. Each call carries at most 1000 lookups and uses one billing unit.',
        ),
        paragraph(
          'With --each-line the records come once the calls are done: one for each line of --file that holds a lookup (blank lines and empty cells have none), in its order, repeats repeated, its line first (LINE, or "line" in CSV and NDJSON; with --json data.results holds a result a line). Lines are numbered as an editor numbers them; with --column a record is numbered by the line it starts on. After a run that stops, the lines of the lookups not resolved have no record.',
        ),
        paragraph(
          "An --each-line run that stops short (a call that fails, Ctrl-C) keeps the results it has in a file of svc's data folder and names it; the records of the lines resolved are still written (after Ctrl-C for at most 5 s; a second Ctrl-C stops at once, saying up to which line they were). The same command with --resume <that file> writes every record, sending only the lookups not resolved, and removes the file.",
        ),
        paragraph(
          'If a call still fails after its retries (or on Ctrl-C, SIGTERM or SIGHUP), no new call starts, the results so far are written, the lookups not resolved are saved to --failed-out (with --file), and svc exits with the code of the failure (130, 143 or 129 for those signals): run again with --file <that file> to finish the job. A lookup is one line of at most 1024 bytes.',
        ),
      ]),
    )
    .action(app.action(resolveMerchants));
}
