// The command tree as data: every command, its flags, arguments, the values each takes, and its
// examples, read from the real commander program. The completion scripts and the man page are
// rendered from this description, so nothing lists the commands by hand.
import type { Argument, CommandUnknownOpts, Option } from '@commander-js/extra-typings';

import { type Block, helpAfterOf } from '../program/document.js';
import { isListOption } from '../program/typed-options.js';
import { argumentValues, optionValues, type Values } from './values.js';

export type { Choice, Values } from './values.js';

export interface FlagSpec {
  readonly long?: string;
  readonly short?: string;
  readonly description: string;
  /** Undefined for a switch (`--json`); what the value can be otherwise. */
  readonly value?: Values;
  /** The value's name in the help (`<status>`). */
  readonly valueName?: string;
  readonly repeatable: boolean;
}

export interface ArgSpec {
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
  readonly variadic: boolean;
  readonly value: Values;
}

export interface CommandSpec {
  readonly name: string;
  /** Names from the root: [] for svc itself, ['reports', 'list'] for `svc reports list`. */
  readonly path: readonly string[];
  readonly aliases: readonly string[];
  readonly description: string;
  /** Commander's usage line: `svc reports list [options]`. */
  readonly usage: string;
  /** The flags of this command alone; the root's are the global flags. */
  readonly flags: readonly FlagSpec[];
  readonly args: readonly ArgSpec[];
  readonly commands: readonly CommandSpec[];
  /** The example commands of its help. */
  readonly examples: readonly string[];
  /** The blocks that end its help, after the flags: examples and notes. */
  readonly helpAfter: readonly Block[];
}

export interface ProgramSpec {
  readonly name: string;
  readonly root: CommandSpec;
  /** Flags every command accepts: the root's, less the ones only the root has (--version). */
  readonly globalFlags: readonly FlagSpec[];
}

/** The flags only the root takes: `svc --version`. */
const ROOT_ONLY = new Set(['--version']);

export function describeProgram(program: CommandUnknownOpts): ProgramSpec {
  const root = describeCommand(program, []);
  return {
    name: program.name(),
    root,
    globalFlags: root.flags.filter((flag) => !ROOT_ONLY.has(flag.long ?? '')),
  };
}

function describeCommand(command: CommandUnknownOpts, path: readonly string[]): CommandSpec {
  const help = command.createHelp();
  const ownFlags = help.visibleOptions(command);
  const helpAfter = helpAfterOf(command);
  return {
    name: command.name(),
    path,
    aliases: command.aliases(),
    description: command.description(),
    usage: help.commandUsage(command),
    // The help flag of a subcommand is listed once, with the global flags.
    flags: ownFlags
      .filter((option) => path.length === 0 || option.long !== '--help')
      .map((option) => describeFlag(option, command)),
    args: command.registeredArguments.map((argument) => describeArgument(argument, command)),
    commands: help
      .visibleCommands(command)
      .map((sub) => describeCommand(sub, [...path, sub.name()])),
    examples: helpAfter.flatMap((block) => (block.kind === 'examples' ? block.commands : [])),
    helpAfter,
  };
}

function describeFlag(option: Option, command: CommandUnknownOpts): FlagSpec {
  const takesValue = option.required || option.optional;
  const valueName = /[<[]([^>\]]+?)(?:\.\.\.)?[>\]]/.exec(option.flags)?.[1];
  return {
    long: option.long,
    short: option.short,
    description: option.description,
    value: takesValue ? optionValues(option, valueName, command) : undefined,
    valueName,
    repeatable: option.variadic || isCollector(option),
  };
}

function describeArgument(argument: Argument, command: CommandUnknownOpts): ArgSpec {
  return {
    name: argument.name(),
    description: argument.description,
    required: argument.required,
    variadic: argument.variadic,
    value: argumentValues(argument, command),
  };
}

/**
 * A flag whose parser gathers every use into a list (`--param a=1 --param b=2`); a list flag
 * (`--scopes a,b`, listOption) takes its items in one use.
 */
function isCollector(option: Option): boolean {
  const parse = option.parseArg as ((value: string, previous: unknown) => unknown) | undefined;
  if (!parse || option.argChoices || isListOption(option)) return false;
  try {
    return Array.isArray(parse('x', undefined));
  } catch {
    return false;
  }
}

/** Every command of the tree, the root first, depth first. */
export function allCommands(spec: CommandSpec): CommandSpec[] {
  return [spec, ...spec.commands.flatMap(allCommands)];
}

/** The names a flag is typed as: `--output`, `-o`. */
export function flagNames(flag: FlagSpec): string[] {
  return [flag.long, flag.short].filter((name): name is string => name !== undefined);
}
