// `svc completion bash|zsh|fish`: the completion script of a shell, made from the command tree.
// Only the command is declared here; print.ts renders the script (core/completion/), loaded when
// the command runs.
import { Argument, type Command } from '@commander-js/extra-typings';

import type { App } from '../../app/app.js';
import { INSTALL, SHELLS } from '../../core/completion/shells.js';
import { type Block, heading } from '../../core/program/document.js';
import { examples, paragraph } from '../args.js';

export function registerCompletion(program: Command, app: App): void {
  program
    .command('completion')
    .reach('none')
    .description('print the shell completion script of bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell the script is for').choices(SHELLS))
    .helpAfter([
      ...examples(
        'source <(svc completion bash)',
        'svc completion zsh > ~/.zfunc/_svc',
        'svc completion fish > ~/.config/fish/completions/svc.fish',
      ),
      ...SHELLS.flatMap((shell): Block[] => [
        heading(`Install in ${shell}`),
        { kind: 'code', lines: INSTALL[shell] },
      ]),
      paragraph(
        'Commands, subcommands, flags and their values complete from the script itself; profile names, data series selectors and sandbox scenarios are read from the config file and the reply cache (`svc data keys FAMILY` fills it), never from the network.',
      ),
    ])
    .action(
      app.action(async (ctx, shell: string) => {
        const { printCompletion } = await import('./print.js');
        return printCompletion(ctx, program, shell);
      }),
    );
}
