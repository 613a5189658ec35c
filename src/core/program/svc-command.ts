// The Command every svc command is made of. It has no built-in `help` subcommand (`svc help`
// replaces it), prints gh-like help (svc-help.ts), declares how far it reaches (reach.ts: which
// global flags apply to it), and turns every mistake commander finds on the command line into a
// Mistake that the reporter phrases (report-error.ts): commander's own wording never reaches the
// user. Unknown names are answered with the nearest ones, prefixes first: commander alone would
// answer `svc rep` with "help", which is nearer by edit distance.
import { Argument, Command, type ErrorOptions, type Help, type Option } from 'commander';
import type { Mistake } from '../errors.js';
import { usageErrorFor } from '../report-error.js';
import { declareReach, takes, type Reach } from './reach.js';
import { nearest } from './suggest.js';
import { commandPath, flagName, SvcHelp } from './svc-help.js';

declare module 'commander' {
  interface Command {
    /**
     * Declares how far this command (and each below it that declares nothing) reaches: it decides
     * the global flags that apply to it (reach.ts). Undeclared, a command talks to the service.
     */
    reach(reach: Reach): this;
  }
}

/** The value a parser's InvalidArgumentError carries: commander's, or one of ours. */
interface InvalidArgument {
  code?: unknown;
  message: string;
}

export class SvcCommand extends Command {
  constructor(name?: string) {
    super(name);
    this.helpCommand(false);
  }

  override createCommand(name?: string): Command {
    return new SvcCommand(name);
  }

  override createHelp(): Help {
    return Object.assign(new SvcHelp(), this.configureHelp());
  }

  override reach(reach: Reach): this {
    declareReach(this, reach);
    return this;
  }

  /** Called by commander when the first operand of a command with subcommands names none of them. */
  unknownCommand(): never {
    const name = this.args[0] ?? '';
    const names = this.createHelp()
      .visibleCommands(this)
      .flatMap((command) => [command.name(), ...command.aliases()]);
    return this.fail({ kind: 'unknown-command', name, command: commandPath(this), near: nearest(name, names) });
  }

  /** Called by commander for a flag that neither this command nor its ancestors declare. */
  unknownOption(flag: string): void {
    if ((this as unknown as { _allowUnknownOption?: boolean })._allowUnknownOption) return;
    const flags: string[] = [];
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- a walk up the parents, not an alias
    for (let command: Command | null = this; command; command = command.parent) {
      for (const option of command.createHelp().visibleOptions(command)) {
        // A global flag this command does not take is not suggested either.
        if (option.long && takes(this, option)) flags.push(option.long);
      }
    }
    this.fail({ kind: 'unknown-flag', flag, command: commandPath(this), near: flag.startsWith('--') ? nearest(flag, flags) : [] });
  }

  /** Called by commander for a required argument not given. */
  missingArgument(name: string): never {
    const argument = this.registeredArguments.find((a) => a.name() === name);
    return this.fail({ kind: 'missing-argument', argument: argumentLabel(argument ?? name), description: argument?.description ?? '', usage: this.usageLine() });
  }

  /** Called by commander for a flag given last on the line without the value it takes. */
  optionMissingArgument(option: Option): never {
    return this.fail({ kind: 'missing-value', flag: flagName(option), description: option.description, choices: option.argChoices, usage: this.usageLine() });
  }

  /** Called by commander for a required flag (`requiredOption`) not given. */
  missingMandatoryOptionValue(option: Option): never {
    return this.fail({ kind: 'missing-flag', flag: flagName(option), description: option.description, usage: this.usageLine() });
  }

  /** Called by commander when more operands are given than the command declares. */
  _excessArguments(received: string[]): void {
    if ((this as unknown as { _allowExcessArguments?: boolean })._allowExcessArguments) return;
    this.fail({ kind: 'excess-arguments', command: commandPath(this), expected: this.registeredArguments.map(argumentLabel), received, usage: this.usageLine() });
  }

  /**
   * Called by commander to parse the value of a flag or an argument. A refused value (a choice not
   * offered, or an InvalidArgumentError, whose message says what the flag takes) is a Mistake.
   */
  _callParseArg(target: Option | Argument, value: string, previous: unknown, _invalidMessage: string): unknown {
    try {
      return target.parseArg!(value, previous);
    } catch (error) {
      if ((error as InvalidArgument).code !== 'commander.invalidArgument') throw error;
      const what = target instanceof Argument ? argumentLabel(target) : flagName(target);
      const choices = target.argChoices;
      return this.fail({
        kind: 'invalid-value',
        what,
        value,
        takes: choices ? `one of ${choices.join(', ')}` : (error as InvalidArgument).message,
        near: choices ? nearest(value, choices) : [],
      });
    }
  }

  /** Anything else commander refuses comes here: in its own words, as a usage error all the same. */
  override error(message: string, _options?: ErrorOptions): never {
    return this.fail({ kind: 'other', message: message.replace(/^error: /, ''), usage: this.usageLine() });
  }

  private fail(mistake: Mistake): never {
    throw usageErrorFor(mistake);
  }

  private usageLine(): string {
    return this.createHelp().commandUsage(this);
  }
}

/** `ID`, `TERMINAL...`: an argument named in a message, as the contract writes it. */
function argumentLabel(argument: Argument | string): string {
  if (typeof argument === 'string') return argument.toUpperCase();
  return argument.name().toUpperCase() + (argument.variadic ? '...' : '');
}
