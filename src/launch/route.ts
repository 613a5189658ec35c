// Which bundle of dist/ runs a command line, and which of its code caches. scripts/build.mjs makes
// one bundle per noun (its top-level commands alone) and one of the whole program, and gives the
// launcher this table.
import { commandWords, type FlagValue } from '../core/program/command-words.js';

export interface LaunchTable {
  /** Each top-level command, and the bundle that holds it. */
  bundles: Readonly<Record<string, string>>;
  /** Each top-level command's subcommands: each name and alias, and the subcommand it names. */
  subcommands: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Each flag of the root (`--profile`, `-o`), and whether a value of its own follows it. */
  flags: Readonly<Record<string, FlagValue>>;
}

export interface Route {
  /**
   * The bundle of the top-level command the line names; undefined where that is not certain (a
   * flag the root does not declare, `--`, a command no bundle holds alone): the whole program
   * then reads the line.
   */
  bundle: string | undefined;
  /**
   * The code cache the run uses (code-cache.ts), named by the command the line names as far as it
   * is certain: `reports.list`, `usage`, `reports` (`svc reports --json list`), `other`.
   */
  cache: string;
}

/** The bundle and the code cache of a command line, read as commander will read it. */
export function routeOf(argv: readonly string[], table: LaunchTable): Route {
  const [command, word] = commandWords(argv, table.flags);
  if (command === undefined || !Object.hasOwn(table.subcommands, command))
    return { bundle: undefined, cache: 'other' };
  const bundle = Object.hasOwn(table.bundles, command) ? table.bundles[command] : undefined;
  const subcommands = table.subcommands[command]!;
  const subcommand =
    word !== undefined && Object.hasOwn(subcommands, word) ? subcommands[word] : undefined;
  return { bundle, cache: subcommand === undefined ? command : `${command}.${subcommand}` };
}
