// Which global flag applies to which command, from two declarations: each command says how far it
// reaches (`.reach('output')` where it is declared; undeclared, it reaches as far as its parent,
// and the root reaches the service), and each global flag the reach it needs (`globalFlag()` in
// main.ts). A command's help, the `svc help global-flags` topic and "did you mean" read these
// two alone: no list of command names decides it.
import type { CommandUnknownOpts, Option } from '@commander-js/extra-typings';

/** From the least to the most: a command reaching further takes every flag a nearer one takes. */
export const REACHES = ['none', 'output', 'network', 'service'] as const;

/**
 * - `service`: it talks to the service (most commands, and the default): every global flag;
 * - `network`: it sends HTTP requests, but not to the service (`webhooks listen` forwarding);
 * - `output`: it stays on this machine and prints a result (`mock`, `webhooks verify`);
 * - `none`: it prints text only (`help`, `completion`): no global flag.
 */
export type Reach = (typeof REACHES)[number];

/** The help topic's heading over the global flags each reach brings: who takes them. */
export const REACH_HEADINGS: Record<Exclude<Reach, 'none'>, string> = {
  output: 'Output (commands that print a result)',
  network: 'HTTP (commands that send HTTP requests, to the service or elsewhere)',
  service: 'The service (commands that talk to it)',
};

const commandReach = new WeakMap<CommandUnknownOpts, Reach>();
const flagReach = new WeakMap<Option, Exclude<Reach, 'none'>>();

/** Declares how far a command reaches (SvcCommand.reach() calls this). */
export function declareReach(command: CommandUnknownOpts, reach: Reach): void {
  commandReach.set(command, reach);
}

/**
 * How far a command reaches: its own declaration, else its nearest ancestor's, else the service.
 */
export function reachOf(command: CommandUnknownOpts): Reach {
  for (let c: CommandUnknownOpts | null = command; c; c = c.parent) {
    const reach = commandReach.get(c);
    if (reach) return reach;
  }
  return 'service';
}

/** Marks a root option as a global flag, taken by every command that reaches at least `needs`. */
export function globalFlag<
  Flag extends Option<string, unknown, unknown, unknown, boolean, unknown>,
>(option: Flag, needs: Exclude<Reach, 'none'>): Flag {
  flagReach.set(option, needs);
  return option;
}

/**
 * The reach a global flag needs; undefined for any other option (--help, --version, a command's
 * own).
 */
export function reachNeeded(option: Option): Exclude<Reach, 'none'> | undefined {
  return flagReach.get(option);
}

/** The global flags of the program, in their order of declaration. */
export function globalFlags(command: CommandUnknownOpts): Option[] {
  let root = command;
  while (root.parent) root = root.parent;
  return root.options.filter((option) => flagReach.has(option));
}

/**
 * Whether `command` takes this option: any option that is not a global flag, and the global flags
 * its reach needs.
 */
export function takes(command: CommandUnknownOpts, option: Option): boolean {
  const needs = flagReach.get(option);
  return needs === undefined || REACHES.indexOf(needs) <= REACHES.indexOf(reachOf(command));
}

/** The global flags that apply to `command`. */
export function globalFlagsOf(command: CommandUnknownOpts): Option[] {
  return globalFlags(command).filter((option) => takes(command, option));
}
