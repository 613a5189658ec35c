// Which bundle of dist/ runs a command line. scripts/build.mjs makes one bundle per noun (its
// top-level commands alone) and one of the whole program, and gives the launcher this table.
import { commandWords, type FlagValue } from '../core/program/command-words.js';

export interface LaunchTable {
  /** Each top-level command, and the bundle that holds it. */
  bundles: Readonly<Record<string, string>>;
  /** Each flag of the root (`--profile`, `-o`), and whether a value of its own follows it. */
  flags: Readonly<Record<string, FlagValue>>;
}

/**
 * The bundle of the top-level command `argv` names: its first operand, past the root's flags and
 * their values. Undefined where that is not certain (a flag the root does not declare, `--`, a
 * command no bundle holds alone): the whole program then reads the line.
 */
export function bundleOf(argv: readonly string[], table: LaunchTable): string | undefined {
  const [noun] = commandWords(argv, table.flags);
  return noun !== undefined && Object.hasOwn(table.bundles, noun) ? table.bundles[noun] : undefined;
}
