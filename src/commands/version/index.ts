// `svc version`: the version alone, as `svc --version` prints it (gh has both).
import type { Command } from '@commander-js/extra-typings';

import type { App } from '../../app/app.js';
import { VERSION } from '../../version.js';
import { examples } from '../args.js';

export function registerVersion(program: Command, app: App): void {
  program
    .command('version')
    .reach('none')
    .description('print the version, as svc --version does')
    .helpAfter(examples('svc version'))
    .action(app.action(async (ctx) => ctx.out(`${VERSION}\n`)));
}
