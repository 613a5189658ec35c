// The Command every svc command is made of. It has no built-in `help` subcommand (`svc help`
// replaces it), prints gh-like help (svc-help.ts) that ends with blocks of text (document.ts),
// declares how far it reaches (reach.ts: which global flags apply to it), and turns every mistake
// commander finds on the command line into a Mistake that the reporter phrases (report-error.ts):
// commander's own wording never reaches the user. Unknown names are answered with the nearest ones,
// prefixes first: commander alone would answer `svc rep` with "help", nearer by edit distance.
//
// Typed with @commander-js/extra-typings: the arguments and options a command declares give the
// types its action receives (core/app.ts), so no handler is cast.
import {
  type Argument,
  Command,
  type CommandUnknownOpts,
  type ErrorOptions,
  type Help,
  InvalidArgumentError,
  type Option,
  type OptionValues,
} from '@commander-js/extra-typings';

import { type Mistake, UsageError } from '../errors.js';
import { addHelpAfter, type Block } from './document.js';
import { relationsOf } from './flag-relations.js';
import { usageErrorFor } from './mistakes.js';
import { declareReach, type Reach, takes } from './reach.js';
import { nearest } from './suggest.js';
import { commandPath, flagName, SvcHelp } from './svc-help.js';

declare module '@commander-js/extra-typings' {
  // The type parameters repeat the class's own, as a merged declaration must: unused here, and
  // typed as extra-typings types them.
  /* eslint-disable @typescript-eslint/no-unused-vars, @typescript-eslint/no-explicit-any, @typescript-eslint/no-empty-object-type */
  interface Command<
    Args extends any[] = [],
    Opts extends OptionValues = {},
    GlobalOpts extends OptionValues = {},
  > {
    /* eslint-enable @typescript-eslint/no-unused-vars, @typescript-eslint/no-explicit-any, @typescript-eslint/no-empty-object-type */
    /**
     * Declares how far this command (and each below it that declares nothing) reaches: it decides
     * the global flags that apply to it (reach.ts). Undeclared, a command talks to the service.
     */
    reach(reach: Reach): this;
    /**
     * Ends the command's help with these blocks (its examples, then notes), wrapped to the terminal
     * as the rest of it.
     */
    helpAfter(blocks: readonly Block[]): this;
    /** See SvcCommand. */
    declareOnly(words: readonly string[]): this;
    /** See SvcCommand. */
    leftOutNamed(): boolean;
  }
}

/**
 * What `command()` gives for a command left out (`declareOnly`): it takes every call a declaration
 * makes (`.description()`, `.option()`, `.action()`, `.command()`…) and keeps nothing.
 */
const LEFT_OUT: unknown = new Proxy(() => {}, {
  get: (_, name) => (typeof name === 'string' && name !== 'then' ? () => LEFT_OUT : undefined),
});

/** The commands that had a subcommand left out. */
const LEFT_OUT_BELOW = new WeakSet<CommandUnknownOpts>();

export class SvcCommand extends Command {
  /** On the root, after `declareOnly`: the words of the command line that name its command. */
  private declaring: readonly string[] | undefined;

  constructor(name?: string) {
    super(name);
    this.helpCommand(false);
  }

  override createCommand(name?: string): Command {
    return new SvcCommand(name);
  }

  /**
   * From now on, the commands declared below this root are only those on the way to the one the
   * words of the command line name (command-words.ts), and the commands below that one: building
   * every other costs a start milliseconds. See `leftOutNamed` for the command they do not find.
   */
  override declareOnly(words: readonly string[]): this {
    this.declaring = words;
    return this;
  }

  /**
   * Whether the command the words name may be among those left out (a mistyped name, which the
   * nearest names answer): the whole program is then to be declared again.
   */
  override leftOutNamed(): boolean {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- a walk down the words, not an alias
    let command: CommandUnknownOpts = this;
    for (const word of this.declaring ?? []) {
      const named = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
      if (!named) return LEFT_OUT_BELOW.has(command);
      command = named;
    }
    return false;
  }

  // The overloads commander declares are kept: this only decides whether the command is made.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the type of commander's overloads
  override command(nameAndArgs: string, ...rest: unknown[]): any {
    const path = [nameAndArgs.split(' ')[0]];
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- a walk up the parents, not an alias
    let root: CommandUnknownOpts = this;
    for (; root.parent; root = root.parent) path.unshift(root.name());
    const words = root instanceof SvcCommand ? root.declaring : undefined;
    if (words && path.some((name, i) => i < words.length && name !== words[i])) {
      LEFT_OUT_BELOW.add(this);
      return LEFT_OUT;
    }
    return (super.command as (...args: unknown[]) => unknown)(nameAndArgs, ...rest);
  }

  override createHelp(): Help {
    return Object.assign(new SvcHelp(), this.configureHelp());
  }

  override reach(reach: Reach): this {
    declareReach(this, reach);
    return this;
  }

  override helpAfter(blocks: readonly Block[]): this {
    addHelpAfter(this, blocks);
    return this;
  }

  /**
   * Called by commander when the first operand of a command with subcommands names none of them.
   */
  unknownCommand(): never {
    const name = this.args[0] ?? '';
    const names = this.createHelp()
      .visibleCommands(this)
      .flatMap((command) => [command.name(), ...command.aliases()]);
    return this.fail({
      kind: 'unknown-command',
      name,
      command: commandPath(this),
      near: nearest(name, names),
    });
  }

  /** Called by commander for a flag that neither this command nor its ancestors declare. */
  unknownOption(flag: string): void {
    if ((this as unknown as { _allowUnknownOption?: boolean })._allowUnknownOption) return;
    const flags: string[] = [];
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- a walk up the parents, not an alias
    for (let command: CommandUnknownOpts | null = this; command; command = command.parent) {
      for (const option of command.createHelp().visibleOptions(command)) {
        // A global flag this command does not take is not suggested either.
        if (option.long && takes(this, option)) flags.push(option.long);
      }
    }
    this.fail({
      kind: 'unknown-flag',
      flag,
      command: commandPath(this),
      near: flag.startsWith('--') ? nearest(flag, flags) : [],
    });
  }

  /** Called by commander for a required argument not given. */
  missingArgument(name: string): never {
    const argument = this.registeredArguments.find((a) => a.name() === name);
    return this.fail({
      kind: 'missing-argument',
      argument: argumentLabel(argument ?? name),
      description: argument?.description ?? '',
      usage: this.usageLine(),
    });
  }

  /** Called by commander for a flag given last on the line without the value it takes. */
  optionMissingArgument(option: Option): never {
    return this.fail({
      kind: 'missing-value',
      flag: flagName(option),
      description: option.description,
      choices: option.argChoices,
      usage: this.usageLine(),
    });
  }

  /** Called by commander for a required flag (`requiredOption`) not given. */
  missingMandatoryOptionValue(option: Option): never {
    return this.fail({
      kind: 'missing-flag',
      flag: flagName(option),
      description: option.description,
      choices: option.argChoices,
      usage: this.usageLine(),
    });
  }

  /**
   * Every flag's parser refuses in svc's words (refusingInSvcWords); `.option()` adds through here
   * too.
   */
  override addOption<
    Usage extends string,
    PresetT,
    DefaultT,
    CoerceT,
    Mandatory extends boolean,
    ChoicesT,
  >(option: Option<Usage, PresetT, DefaultT, CoerceT, Mandatory, ChoicesT>) {
    refusingInSvcWords(option, flagName(option));
    return super.addOption(option);
  }

  /**
   * Every argument's parser refuses in svc's words; `.argument()` and `.command('name <arg>')` add
   * through here too.
   */
  override addArgument<
    Usage extends string,
    DefaultT,
    CoerceT,
    ArgRequired extends boolean | undefined,
    ChoicesT,
  >(argument: Argument<Usage, DefaultT, CoerceT, ArgRequired, ChoicesT>) {
    refusingInSvcWords(argument, argumentLabel(argument));
    return super.addArgument(argument);
  }

  /**
   * commander's check of the flags given together, after they are read and before the command
   * runs (a method of commander 14 kept to itself): each relation a flag declares
   * (flag-relations.ts), flag by flag in the order declared, refuses in its own words; then
   * commander's own check, for a `.conflicts()` declared without words.
   */
  _checkForConflictingLocalOptions(): void {
    const given = (name: string) =>
      this.getOptionValue(name) !== undefined && this.getOptionValueSource(name) !== 'default';
    for (const option of this.options) {
      if (!given(option.attributeName())) continue;
      for (const relation of relationsOf(option)) {
        const refused = relation.kind === 'needs' ? !given(relation.other) : given(relation.other);
        if (refused) throw new UsageError(relation.message, [...(relation.hints ?? [])]);
      }
    }
    commanderChecks._checkForConflictingLocalOptions.call(this);
  }

  /**
   * Anything else commander refuses comes here: in its own words, as a usage error all the same.
   * More operands than the command declares are told apart by the error's code: commander then
   * holds the operands it received in `this.args`.
   */
  override error(message: string, options?: ErrorOptions): never {
    if (options?.code === 'commander.excessArguments') {
      return this.fail({
        kind: 'excess-arguments',
        command: commandPath(this),
        expected: this.registeredArguments.map(argumentLabel),
        received: this.args,
        usage: this.usageLine(),
      });
    }
    return this.fail({
      kind: 'other',
      message: message.replace(/^error: /, ''),
      usage: this.usageLine(),
    });
  }

  private fail(mistake: Mistake): never {
    throw usageErrorFor(mistake);
  }

  private usageLine(): string {
    return this.createHelp().commandUsage(this);
  }
}

/** commander's own check of conflicting flags, which SvcCommand runs after its own. */
const commanderChecks = Command.prototype as unknown as {
  _checkForConflictingLocalOptions(this: Command): void;
};

/** `ID`, `TERMINAL...`: an argument named in a message, as the help and docs/ write it. */
function argumentLabel(argument: Argument | string): string {
  if (typeof argument === 'string') return argument.toUpperCase();
  return argument.name().toUpperCase() + (argument.variadic ? '...' : '');
}

const refusing = new WeakSet<Option | Argument>();

/**
 * Makes the parser of a flag or an argument refuse in svc's words: a value that it refuses (a
 * choice not offered, or an InvalidArgumentError, whose message says what the flag takes) is a
 * Mistake, thrown as a UsageError, which commander lets through as it is. Choices are read when a
 * value comes, so `.choices()` is called before the option is added (enumOption does).
 */
function refusingInSvcWords(target: Option | Argument, what: string): void {
  const parse = target.parseArg;
  if (!parse || refusing.has(target)) return;
  refusing.add(target);
  target.parseArg = <T>(value: string, previous: T): T => {
    try {
      return parse(value, previous);
    } catch (error) {
      if (!(error instanceof InvalidArgumentError)) throw error;
      const choices = target.argChoices;
      throw usageErrorFor({
        kind: 'invalid-value',
        what,
        value,
        takes: choices ? `one of ${choices.join(', ')}` : error.message,
        near: choices ? nearest(value, choices) : [],
      });
    }
  };
}
