// Which bundle of dist/ runs a command line. scripts/build.mjs makes one bundle per noun (its
// top-level commands alone) and one of the whole program, and gives the launcher this table.

export interface LaunchTable {
  /** Each top-level command, and the bundle that holds it. */
  bundles: Readonly<Record<string, string>>;
  /** Each flag of the root (`--profile`, `-o`), and whether a value of its own follows it. */
  flags: Readonly<Record<string, 'none' | 'required' | 'optional'>>;
}

/**
 * The bundle of the top-level command `argv` names: its first operand, past the root's flags and
 * their values. Undefined where that is not certain (a flag the root does not declare, `--`, a
 * command no bundle holds alone): the whole program then reads the line.
 */
export function bundleOf(argv: readonly string[], table: LaunchTable): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-') || arg === '-')
      return Object.hasOwn(table.bundles, arg) ? table.bundles[arg] : undefined;
    const equals = arg.indexOf('=');
    const flag = arg.startsWith('--') && equals !== -1 ? arg.slice(0, equals) : arg;
    const value = Object.hasOwn(table.flags, flag) ? table.flags[flag] : undefined;
    if (value === undefined || value === 'optional') return undefined;
    // A value of its own follows (commander takes it whatever it looks like), unless given with
    // `=`.
    if (value === 'required' && flag === arg) i++;
  }
  return undefined;
}
