// The help of every svc command, in the manner of gh's: usage, description and arguments, then the
// subcommands (in groups at the root: core, lending, data, …) before the flags. A command lists its
// own flags and one line naming the global flags that apply to it (`svc help global-flags` lists
// them; reach.ts decides which apply); the root lists the global flags themselves. Values read
// as they are typed: `default: 8787`, `one of: complete, processing, failed`.
import {
  type Argument,
  type CommandUnknownOpts,
  Help,
  type Option,
} from '@commander-js/extra-typings';

import { glueWhole, lineWidth } from '../output/fit.js';
import { proseLines } from '../output/prose.js';
import { definitionLines, helpAfterOf, renderText } from './document.js';
import { globalFlagsOf, reachNeeded } from './reach.js';

/** A command's line names this many global flags at most; more are counted ("and 7 more"). */
const NAMED_GLOBAL_FLAGS = 4;
/**
 * Terms of a list of flags or commands up to this wide are aligned in one column
 * (`--client-reference-id <id>`).
 */
const LIST_TERM = 30;

export class SvcHelp extends Help {
  /**
   * `svc reports list [flags]`, `svc reports get <id> [flags]`, `svc reports <command> [flags]`.
   */
  override commandUsage(cmd: CommandUnknownOpts): string {
    const path = commandPath(cmd);
    if (!cmd.parent) return `${path} <command> [subcommand] [flags]`;
    if (this.visibleCommands(cmd).length > 0) return `${path} <command> [flags]`;
    return [path, ...cmd.registeredArguments.map(argumentUsage), '[flags]'].join(' ');
  }

  /** Names alone, as gh lists them: a command's arguments are in its own help. */
  override subcommandTerm(cmd: CommandUnknownOpts): string {
    return cmd.name();
  }

  override optionDescription(option: Option): string {
    const shownDefault =
      option.defaultValue !== undefined &&
      (option.required ||
        option.optional ||
        (option.isBoolean() && typeof option.defaultValue === 'boolean'));
    return withNotes(option.description, [
      option.argChoices && `one of: ${option.argChoices.join(', ')}`,
      shownDefault && `default: ${option.defaultValueDescription ?? asTyped(option.defaultValue)}`,
      option.envVar && `also ${option.envVar}`,
    ]);
  }

  override argumentDescription(argument: Argument): string {
    return withNotes(argument.description, [
      argument.argChoices && `one of: ${argument.argChoices.join(', ')}`,
      argument.defaultValue !== undefined &&
        `default: ${argument.defaultValueDescription ?? asTyped(argument.defaultValue)}`,
    ]);
  }

  /**
   * The whole help, wrapped to the help's width (helpWidth: the terminal's, 80 in a pipe) at word
   * boundaries: the lists of arguments, commands and flags as a column of terms with their texts
   * beside them (definitionLines), and the blocks that end it (examples and notes: helpAfter).
   */
  override formatHelp(cmd: CommandUnknownOpts, helper: Help): string {
    const width = helper.helpWidth ?? 80;
    const parts: string[][] = [proseLines(`Usage: ${helper.commandUsage(cmd)}`, width, '', '  ')];
    const description = helper.commandDescription(cmd);
    if (description) parts.push(proseLines(description, width));
    const list = (heading: string, items: [term: string, text: string][], termWidth?: number) => {
      if (items.length > 0)
        parts.push([
          ...proseLines(heading, width),
          ...definitionLines(items, width, LIST_TERM, termWidth),
        ]);
    };
    list(
      'Arguments:',
      helper
        .visibleArguments(cmd)
        .map((argument) => [helper.argumentTerm(argument), helper.argumentDescription(argument)]),
    );
    // Commands are aligned among themselves, flags among themselves: a long flag does not push the
    // commands' descriptions right.
    const commands = helper.visibleCommands(cmd);
    const commandWidth = Math.max(
      0,
      ...commands.map((sub) => lineWidth(helper.subcommandTerm(sub))),
    );
    for (const [heading, group] of commandGroups(cmd, commands)) {
      list(
        heading,
        group.map((sub) => [helper.subcommandTerm(sub), helper.subcommandDescription(sub)]),
        commandWidth,
      );
    }
    const flagItem = (option: Option): [string, string] => [
      helper.optionTerm(option),
      helper.optionDescription(option),
    ];
    const options = helper.visibleOptions(cmd);
    if (!cmd.parent) {
      // The root's flags are the global flags, then --help and --version.
      list(
        'Global flags:',
        [
          ...options.filter((option) => reachNeeded(option)),
          ...options.filter((option) => !reachNeeded(option)),
        ].map(flagItem),
      );
    } else {
      list('Flags:', options.map(flagItem));
      const global = globalFlagsLine(cmd);
      if (global) parts.push(proseLines(global, width));
    }
    const after = helpAfterOf(cmd);
    if (after.length > 0) parts.push([renderText(after, width).trimEnd()]);
    return parts.map((lines) => lines.join('\n')).join('\n\n') + '\n';
  }
}

/**
 * The visible subcommands by their help group (`commandsGroup()` in main.ts), the groups in the
 * order they were declared in, as commander's Help.groupItems() gives them (whose typing takes no
 * command of any arguments).
 */
function commandGroups(
  cmd: CommandUnknownOpts,
  visible: readonly CommandUnknownOpts[],
): Map<string, CommandUnknownOpts[]> {
  const groupOf = (sub: CommandUnknownOpts) => sub.helpGroup() || 'Commands:';
  const groups = new Map<string, CommandUnknownOpts[]>(
    cmd.commands.map((sub) => [groupOf(sub), []]),
  );
  for (const sub of visible) groups.set(groupOf(sub), [...(groups.get(groupOf(sub)) ?? []), sub]);
  return groups;
}

/**
 * `Global flags: --json, --output, --no-color and 7 more (svc help global-flags)`; none when none
 * apply. The command that lists them stays on one line, however the line wraps.
 */
export function globalFlagsLine(cmd: CommandUnknownOpts): string | undefined {
  const names = globalFlagsOf(cmd).map(flagName);
  if (names.length === 0) return undefined;
  const named =
    names.length <= NAMED_GLOBAL_FLAGS
      ? names.join(', ')
      : `${names.slice(0, NAMED_GLOBAL_FLAGS - 1).join(', ')} and ${names.length - NAMED_GLOBAL_FLAGS + 1} more`;
  return `Global flags: ${named} (${glueWhole('svc help global-flags')})`;
}

/** `--output`, `-h`: a flag named in a message or a list, by its long name if it has one. */
export function flagName(option: Option): string {
  return option.long ?? option.short ?? option.flags;
}

/** `svc reports list`: the names from the root. */
export function commandPath(cmd: CommandUnknownOpts): string {
  const names: string[] = [];
  for (let c: CommandUnknownOpts | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** `<id>`, `[terminal...]`: an argument in a usage line. */
function argumentUsage(argument: Argument): string {
  const name = argument.name() + (argument.variadic ? '...' : '');
  return argument.required ? `<${name}>` : `[${name}]`;
}

function withNotes(description: string, notes: (string | false | undefined)[]): string {
  const shown = notes.filter((note): note is string => typeof note === 'string' && note !== '');
  if (shown.length === 0) return description;
  const extra = `(${shown.join(', ')})`;
  return description ? `${description} ${extra}` : extra;
}

/** A default as a user would type it: 8787, not "8787". */
function asTyped(value: unknown): string {
  if (Array.isArray(value)) return value.map(asTyped).join(', ');
  return typeof value === 'string' ? value : JSON.stringify(value);
}
