// `svc help [TOPIC | COMMAND…]`: the help of a command, or a help topic. It replaces commander's
// own help command (see svc-command.ts), and the root help lists the topics.
import { Argument, type Command } from '@commander-js/extra-typings';

import type { App } from '../../app/app.js';
import { choices, completes } from '../../core/completion/values.js';
import { heading } from '../../core/program/document.js';
import { examples } from '../args.js';
import { showHelp } from './help.js';
import { HELP_TOPICS } from './topics.js';

export function registerHelp(program: Command, app: App): void {
  program
    .command('help')
    .reach('none')
    .description('show the help of a command, or a help topic')
    .addArgument(
      // The topics, then the commands of the program (a topic wins a shared name).
      completes(
        new Argument(
          '[topic]',
          `a help topic (${HELP_TOPICS.map((t) => t.name).join(', ')}) or a command`,
        ),
        (command) => {
          const topics = HELP_TOPICS.map((t) => ({ value: t.name, description: t.summary }));
          const commands = (command.parent?.commands ?? [])
            .filter((c) => c !== command && !topics.some((t) => t.value === c.name()))
            .map((c) => ({ value: c.name(), description: c.description() }));
          return choices([...topics, ...commands]);
        },
      ),
    )
    .argument('[subcommand...]', 'the subcommands of that command')
    .helpAfter(
      examples('svc help', 'svc help reports list', 'svc help environment', 'svc help exit-codes'),
    )
    .action(
      app.action((ctx, topic: string | undefined, subcommands: string[]) =>
        showHelp(ctx, program, topic, subcommands),
      ),
    );
  program.helpAfter([
    heading('Help topics (svc help TOPIC)'),
    { kind: 'definitions', items: HELP_TOPICS.map((t) => [t.name, t.summary]) },
    // The root help's last words, as gh's "LEARN MORE".
    heading('Learn more'),
    {
      kind: 'list',
      items: [
        "Use `svc <command> --help` for a command's flags and examples.",
        'Use `svc help TOPIC` for a topic above, such as `svc help global-flags`.',
        'Read the README and the guides in docs/, in the package as in its repository.',
        'Read the man page: `man -l "$(npm root -g)/svc-cli/man/svc.1"`',
      ],
    },
  ]);
}
