// The words of a command line that name its command, read before commander parses it: by the
// launcher, to pick the bundle of a top-level command, and by the program, to declare only that
// command's subcommand (svc-command.ts `declareOnly`).

/** How a flag of the root is given: alone, followed by a value of its own, or with one it may take. */
export type FlagValue = 'none' | 'required' | 'optional';

/**
 * The top-level command `argv` names and the word right after it (its subcommand, where it has
 * any), past the root's flags and their values: as far as that is certain. Empty where a flag
 * before the first operand is not the root's or may take a value, or no operand comes; the first
 * word alone where a flag follows it.
 */
export function commandWords(
  argv: readonly string[],
  rootFlags: Readonly<Record<string, FlagValue>>,
): string[] {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-') || arg === '-') {
      const next = argv[i + 1];
      return next === undefined || next.startsWith('-') ? [arg] : [arg, next];
    }
    const equals = arg.indexOf('=');
    const flag = arg.startsWith('--') && equals !== -1 ? arg.slice(0, equals) : arg;
    const value = Object.hasOwn(rootFlags, flag) ? rootFlags[flag] : undefined;
    if (value === undefined || value === 'optional') return [];
    // A value of its own follows (commander takes it whatever it looks like), unless given with
    // `=`.
    if (value === 'required' && flag === arg) i++;
  }
  return [];
}
