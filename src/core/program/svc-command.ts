// The Command every svc command is made of. It has no built-in `help` subcommand (`svc help`
// replaces it), and an unknown command or flag is answered with the nearest names, prefixes first:
// commander alone would answer `svc rep` with "help", which is nearer by edit distance.
import { Command } from 'commander';
import { didYouMean } from './suggest.js';

export class SvcCommand extends Command {
  constructor(name?: string) {
    super(name);
    this.helpCommand(false);
  }

  override createCommand(name?: string): Command {
    return new SvcCommand(name);
  }

  /** Called by commander when the first operand of a command with subcommands names none of them. */
  unknownCommand(): never {
    const name = this.args[0] ?? '';
    const names = this.createHelp()
      .visibleCommands(this)
      .flatMap((command) => [command.name(), ...command.aliases()]);
    // `svc reports help`: commander's own help command is gone; say what replaces it.
    const hint = name === 'help' ? ` (the help of this command is \`svc help ${this.pathNames().join(' ')}\`)` : didYouMean(name, names);
    return this.error(`error: unknown command '${name}'${hint}`, { code: 'commander.unknownCommand' });
  }

  /** The names from below the root to this command: ['reports', 'list']. */
  private pathNames(): string[] {
    const names: string[] = [];
    for (let command: Command | null = this; command?.parent; command = command.parent) names.unshift(command.name());
    return names;
  }

  /** Called by commander for a flag that neither this command nor its ancestors declare. */
  unknownOption(flag: string): void {
    if ((this as unknown as { _allowUnknownOption?: boolean })._allowUnknownOption) return;
    const flags: string[] = [];
    for (let command: Command | null = this; command; command = command.parent) {
      for (const option of command.createHelp().visibleOptions(command)) flags.push(...[option.long, option.short].filter((f) => f !== undefined));
    }
    const suggestion = flag.startsWith('--') ? didYouMean(flag, flags.filter((f) => f.startsWith('--'))) : '';
    this.error(`error: unknown option '${flag}'${suggestion}`, { code: 'commander.unknownOption' });
  }
}
