// What the value of a flag or an argument completes to. Choices declared with commander's
// `.choices()` come first, then what the declaration says it completes to (`completes`, as gh's
// RegisterFlagCompletionFunc); otherwise a value named `<file>` or `<path>` completes to files.
import type { Argument, CommandUnknownOpts, Option } from '@commander-js/extra-typings';

import type { DynamicSource } from './sources.js';

/** What a flag or an argument takes, for completion. */
export type Values =
  /** Free text: nothing to offer. */
  | { readonly kind: 'text' }
  | { readonly kind: 'choices'; readonly choices: readonly Choice[] }
  | { readonly kind: 'files' }
  /** Asked of `svc __complete SOURCE` when completing (src/completion/dynamic.ts). */
  | { readonly kind: 'dynamic'; readonly source: DynamicSource };

export interface Choice {
  readonly value: string;
  readonly description?: string;
}

/** What a declaration completes to; a function of the command tree for `svc help TOPIC`. */
export type Completion = Values | ((command: CommandUnknownOpts) => Values);

const TEXT: Values = { kind: 'text' };
export const FILES: Values = { kind: 'files' };
export const choices = (list: readonly Choice[]): Values => ({ kind: 'choices', choices: list });
/** Values without a description. */
export const plain = (values: readonly string[]): Values =>
  choices(values.map((value) => ({ value })));
/** Values read on this machine while the user types (`svc __complete SOURCE`). */
export const fromMachine = (source: DynamicSource): Values => ({ kind: 'dynamic', source });

const declared = new WeakMap<object, Completion>();

/** Declares what a flag or an argument completes to, where it is declared; returns it. */
export function completes<Target extends Option | Argument>(
  target: Target,
  completion: Completion,
): Target {
  declared.set(target, completion);
  return target;
}

function declaredValues(target: object, command: CommandUnknownOpts): Values | undefined {
  const completion = declared.get(target);
  return typeof completion === 'function' ? completion(command) : completion;
}

/** Flags, by the name of their value (`--input <file>`). */
const BY_VALUE_NAME: Readonly<Record<string, Values>> = { file: FILES, path: FILES };

export function optionValues(
  option: Option,
  valueName: string | undefined,
  command: CommandUnknownOpts,
): Values {
  if (option.argChoices) return plain(option.argChoices);
  return (
    declaredValues(option, command) ?? (valueName ? BY_VALUE_NAME[valueName] : undefined) ?? TEXT
  );
}

export function argumentValues(argument: Argument, command: CommandUnknownOpts): Values {
  if (argument.argChoices) return plain(argument.argChoices);
  return declaredValues(argument, command) ?? (argument.name() === 'file' ? FILES : TEXT);
}
