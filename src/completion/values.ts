// What the value of a flag or an argument completes to. Choices declared with commander's
// `.choices()` come first; otherwise a few rules keyed on the name a flag or argument is declared
// with (`--profile`, `<file>`, `<family>` …) and fed from the tables the commands themselves read.
import type { Argument, CommandUnknownOpts, Option } from '@commander-js/extra-typings';

import { AUTO_BANK, bankDescription, BANKS } from '../api/banks.js';
import { CONNECT_SCOPES } from '../api/connect.js';
import { METHODS } from '../commands/api/fields.js';
import { CONSENT_SCOPES } from '../commands/consents/options.js';
import { DATA_FAMILIES } from '../commands/data/families.js';
import { HELP_TOPICS } from '../commands/help/topics.js';
import { PROFILE_KEYS } from '../config/store.js';
import { FAULT_DESCRIPTIONS } from '../mock/fault-names.js';
import type { DynamicSource } from './sources.js';

/** What a flag or an argument takes, for completion. */
export type Values =
  /** Free text: nothing to offer. */
  | { readonly kind: 'text' }
  | { readonly kind: 'choices'; readonly choices: readonly Choice[] }
  | { readonly kind: 'files' }
  /** Asked of `svc __complete SOURCE` when completing (see dynamic.ts). */
  | { readonly kind: 'dynamic'; readonly source: DynamicSource };

export interface Choice {
  readonly value: string;
  readonly description?: string;
}

const TEXT: Values = { kind: 'text' };
const FILES: Values = { kind: 'files' };
const choices = (list: readonly Choice[]): Values => ({ kind: 'choices', choices: list });
const plain = (values: readonly string[]): Values => choices(values.map((value) => ({ value })));
/** The scopes of a Connect request (`--scope`, and `--scopes` outside `svc consents`). */
const connectScopes = (): Values =>
  choices(CONNECT_SCOPES.map((s) => ({ value: s.name, description: s.description })));
/** The HTTP methods of `svc api`. */
const methods = (): Values => plain(METHODS);

/** The scopes a `--scopes` list takes: a consent's, or a Connect request's. */
function scopeValues(command: CommandUnknownOpts): Values {
  if (command.parent?.name() === 'consents') return plain(CONSENT_SCOPES);
  return connectScopes();
}

/** The codes a `--bank` takes: auto and every documented code for a statement; the banks (no wallet) for a dataset. */
function bankValues(command: CommandUnknownOpts): Values {
  if (command.name() === 'parse') {
    return choices([
      { value: AUTO_BANK, description: 'the service finds the bank (the default)' },
      ...BANKS.map((b) => ({ value: b.code, description: bankDescription(b) })),
    ]);
  }
  return choices(
    BANKS.filter((b) => !b.wallet).map((b) => ({ value: b.code, description: bankDescription(b) })),
  );
}

/** Flags, by their long name; the command is there for a flag two commands use differently. */
const FLAG_RULES: Readonly<Record<string, (command: CommandUnknownOpts) => Values>> = {
  '--profile': () => ({ kind: 'dynamic', source: 'profiles' }),
  '--scenario': () => ({ kind: 'dynamic', source: 'scenarios' }),
  '--scope': connectScopes,
  '--scopes': scopeValues,
  '--bank': bankValues,
  '--method': methods,
  '--fault': () =>
    choices([
      ...Object.entries(FAULT_DESCRIPTIONS).map(([value, description]) => ({ value, description })),
      { value: 'list', description: 'name every fault' },
    ]),
};

/** Flags, by the name of their value (`--input <file>`). */
const FLAG_VALUE_RULES: Readonly<Record<string, () => Values>> = {
  file: () => FILES,
  path: () => FILES,
};

/** Arguments, by their name (`parse <file>`); the command is there for rules that need the tree. */
const ARGUMENT_RULES: Readonly<Record<string, (command: CommandUnknownOpts) => Values>> = {
  file: () => FILES,
  family: () => choices(DATA_FAMILIES.map((f) => ({ value: f.name, description: f.summary }))),
  selector: () => ({ kind: 'dynamic', source: 'data-selectors' }),
  profile: () => ({ kind: 'dynamic', source: 'profiles' }),
  // `svc config get|set KEY`: the settings of a profile.
  key: (command) => (command.parent?.name() === 'config' ? plain(PROFILE_KEYS) : TEXT),
  method: methods,
  // `svc api [METHOD] PATH`: the first word is a method when a path follows it.
  'method-or-path': methods,
  // `svc help TOPIC`: the topics, then the commands of the program (a topic wins a shared name).
  topic: (command) => {
    const topics = HELP_TOPICS.map((t) => ({ value: t.name, description: t.summary }));
    const commands = (command.parent?.commands ?? [])
      .filter((c) => c !== command && !topics.some((t) => t.value === c.name()))
      .map((c) => ({ value: c.name(), description: c.description() }));
    return choices([...topics, ...commands]);
  },
};

export function optionValues(
  option: Option,
  valueName: string | undefined,
  command: CommandUnknownOpts,
): Values {
  if (option.argChoices) return plain(option.argChoices);
  const byFlag = option.long ? FLAG_RULES[option.long] : undefined;
  if (byFlag) return byFlag(command);
  const byValue = valueName ? FLAG_VALUE_RULES[valueName] : undefined;
  return byValue ? byValue() : TEXT;
}

export function argumentValues(argument: Argument, command: CommandUnknownOpts): Values {
  if (argument.argChoices) return plain(argument.argChoices);
  const rule = ARGUMENT_RULES[argument.name()];
  return rule ? rule(command) : TEXT;
}
