// The fish completion script, rendered from the command tree: `complete` rules whose conditions ask
// one parser of the command line where the user is (command path and arguments so far).
import { generatedHeader } from './header.js';
import {
  allCommands,
  type ArgSpec,
  type CommandSpec,
  type FlagSpec,
  type ProgramSpec,
  type Values,
} from './spec.js';

export function renderFish(spec: ProgramSpec, version: string): string {
  const commands = allCommands(spec.root);
  const rootOnly = spec.root.flags.filter((flag) => !spec.globalFlags.includes(flag));
  return [
    ...generatedHeader('fish', version),
    '',
    '# The subcommands of a command path.',
    'function __svc_commands',
    '    switch "$argv"',
    ...commands
      .filter((c) => c.commands.length > 0)
      .map(
        (c) =>
          `        case ${sq(key(c))}\n            echo ${c.commands
            .flatMap((sub) => [sub.name, ...sub.aliases])
            .map(sq)
            .join(' ')}`,
      ),
    '    end',
    'end',
    '',
    '# Whether the flag $argv[2] of the command path $argv[1] takes a value.',
    'function __svc_takes_value',
    '    switch "$argv[1] $argv[2]"',
    `        case ${[...commands.filter((c) => c.path.length > 0).flatMap((c) => c.flags.filter((f) => f.value).flatMap((f) => names(f).map((n) => sq(`${key(c)} ${n}`)))), ...spec.globalFlags.filter((f) => f.value).flatMap((f) => names(f).map((n) => `'*'${sq(` ${n}`)}`))].join(' ')}`,
    '            return 0',
    '    end',
    '    return 1',
    'end',
    '',
    PARSER,
    '',
    'complete -c svc -f',
    '',
    '# Global flags',
    ...spec.globalFlags.map((flag) => flagRule(flag, undefined)),
    ...rootOnly.map((flag) => flagRule(flag, spec.root)),
    ...commands.flatMap((command) => commandRules(command)),
    '',
  ].join('\n');
}

function commandRules(command: CommandSpec): string[] {
  const rules = [''];
  rules.push(`# ${['svc', ...command.path].join(' ')}`);
  for (const sub of command.commands) {
    for (const name of [sub.name, ...sub.aliases])
      rules.push(
        `complete -c svc -n ${sq(`__svc_needs_command ${key(command)}`.trim())} -a ${sq(name)} -d ${sq(sub.description)}`,
      );
  }
  if (command.path.length > 0)
    for (const flag of command.flags) rules.push(flagRule(flag, command));
  command.args.forEach((arg, index) => rules.push(...argumentRules(command, arg, index)));
  return rules.length > 2 ? rules : [];
}

function flagRule(flag: FlagSpec, command: CommandSpec | undefined): string {
  const parts = ['complete -c svc'];
  if (command) parts.push(`-n ${sq(`__svc_at ${key(command)}`.trim())}`);
  if (flag.short) parts.push(`-s ${flag.short.slice(1)}`);
  if (flag.long) parts.push(`-l ${flag.long.slice(2)}`);
  if (flag.value) parts.push(...valueParts(flag.value, true));
  parts.push(`-d ${sq(flag.description)}`);
  return parts.join(' ');
}

function argumentRules(command: CommandSpec, arg: ArgSpec, index: number): string[] {
  const condition = sq(`__svc_arg_at ${index}${arg.variadic ? '+' : ''} ${key(command)}`);
  const values = arg.value;
  if (values.kind === 'text') return [];
  if (values.kind === 'choices' && values.choices.some((c) => c.description)) {
    return values.choices.map(
      (c) =>
        `complete -c svc -n ${condition} -a ${sq(c.value)} -d ${sq(c.description ?? arg.description)}`,
    );
  }
  return [
    `complete -c svc -n ${condition} ${valueParts(values, false).join(' ')} -d ${sq(arg.description)}`,
  ];
}

/** How a value completes: `-x -a 'a b c'`, `-r -F` (files), `-x -a '(__svc_dynamic profiles)'`. */
function valueParts(values: Values, ofFlag: boolean): string[] {
  const needs = ofFlag ? ['-x'] : [];
  switch (values.kind) {
    case 'text':
      return needs;
    case 'files':
      return ofFlag ? ['-r', '-F'] : ['-F'];
    case 'dynamic':
      return [...needs, '-a', sq(`(__svc_dynamic ${values.source})`)];
    case 'choices':
      return [...needs, '-a', sq(values.choices.map((c) => c.value).join(' '))];
  }
}

function names(flag: FlagSpec): string[] {
  return [flag.long, flag.short].filter((name): name is string => name !== undefined);
}

function key(command: CommandSpec): string {
  return command.path.join(' ');
}

function sq(text: string): string {
  return `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}

/**
 * Reads the command line up to the cursor once per change: the command path, the arguments after
 * it, and --profile / --base-url. The conditions of the rules below ask it where the user is.
 */
const PARSER =
  String.raw`function __svc_parse
    set -l line (commandline -pc)
    test "$line" = "$__svc_line"; and return
    set -g __svc_line $line
    set -g __svc_path
    set -g __svc_args
    set -g __svc_profile
    set -g __svc_base_url
    set -l tokens (commandline -opc)
    set -l expect
    set -l dashdash 0
    for word in $tokens[2..-1]
        if test -n "$expect"
            test "$expect" = --profile; and set __svc_profile $word
            test "$expect" = --base-url; and set __svc_base_url $word
            set expect
        else if test $dashdash = 0; and test "$word" = --
            set dashdash 1
        else if test $dashdash = 0; and string match -q -- '--*=*' $word
            set -l parts (string split -m 1 = -- $word)
            test "$parts[1]" = --profile; and set __svc_profile $parts[2]
            test "$parts[1]" = --base-url; and set __svc_base_url $parts[2]
        else if test $dashdash = 0; and string match -qr -- '^-.' $word
            __svc_takes_value "$__svc_path" $word; and set expect $word
        else if test (count $__svc_args) -eq 0; and contains -- $word (string split ' ' -- (__svc_commands "$__svc_path"))
            set -a __svc_path $word
        else
            set -a __svc_args $word
        end
    end
end

# True at the command path given (none: the root).
function __svc_at
    __svc_parse
    test "$__svc_path" = "$argv"
end

# True where a subcommand of the command path given is expected.
function __svc_needs_command
    __svc_at $argv; and test (count $__svc_args) -eq 0
end

# True at the command path $argv[2..] when the next argument is number $argv[1] (from 0; N+ for N or more).
function __svc_arg_at
    __svc_at $argv[2..-1]; or return 1
    set -l count (count $__svc_args)
    if string match -q '*+' -- $argv[1]
        test $count -ge (string trim -c + -- $argv[1])
    else
        test $count -eq $argv[1]
    end
end

# Values from ` +
  '`svc __complete`' +
  String.raw` (the config file and the reply cache; never the network).
function __svc_dynamic
    __svc_parse
    set -l request $argv[1]
    test "$argv[1]" = data-selectors; and set -a request $__svc_args[-1]
    test -n "$__svc_profile"; and set -a request --profile $__svc_profile
    test -n "$__svc_base_url"; and set -a request --base-url $__svc_base_url
    set -l program (commandline -opc)[1]
    set program (string replace -r -- '^~' $HOME $program)
    $program __complete $request 2>/dev/null
end`;
