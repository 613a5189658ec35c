import type { CommandUnknownOpts } from '@commander-js/extra-typings';

import type { Context } from '../../app/context.js';
import { UsageError } from '../../core/errors.js';
import { helpWidth, renderText } from '../../core/program/document.js';
import { didYouMean, usageErrorFor } from '../../core/program/mistakes.js';
import { nearest } from '../../core/program/suggest.js';
import { commandPath } from '../../core/program/svc-help.js';
import { findTopic, HELP_TOPICS } from './topics.js';

/**
 * `svc help`: the root help; `svc help TOPIC`: a topic; `svc help CMD [SUB…]`: that command's help.
 */
export async function showHelp(
  ctx: Context,
  program: CommandUnknownOpts,
  topicName: string | undefined,
  subcommands: readonly string[],
): Promise<void> {
  if (topicName === undefined) {
    program.outputHelp();
    return;
  }
  const topic = findTopic(topicName);
  if (topic && subcommands.length === 0) {
    ctx.out(
      renderText(topic.body(program), helpWidth(ctx.io.stdoutIsTTY ? ctx.io.columns : undefined)),
    );
    return;
  }
  let command = program;
  for (const name of [topicName, ...subcommands]) {
    const next = command.commands.find((c) => c.name() === name || c.aliases().includes(name));
    if (!next) throw unknownName(name, command, program);
    command = next;
  }
  command.outputHelp();
}

function unknownName(
  name: string,
  parent: CommandUnknownOpts,
  program: CommandUnknownOpts,
): UsageError {
  const commands = parent.commands.map((c) => c.name());
  if (parent === program) {
    return new UsageError(`no help topic or command "${name}"`, [
      ...didYouMean(nearest(name, [...HELP_TOPICS.map((t) => t.name), ...commands])),
      'Run `svc help` for the commands and topics.',
    ]);
  }
  return usageErrorFor({
    kind: 'unknown-command',
    name,
    command: commandPath(parent),
    near: nearest(name, commands),
  });
}
