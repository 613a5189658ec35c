// The zsh completion script, rendered from the command tree: one `_arguments` function per command,
// with descriptions. Works autoloaded from a folder of $fpath (as `_svc`) or sourced after
// compinit.
import { generatedHeader } from './header.js';
import {
  allCommands,
  type ArgSpec,
  type CommandSpec,
  flagNames,
  type FlagSpec,
  type ProgramSpec,
  type Values,
} from './spec.js';

export function renderZsh(spec: ProgramSpec, version: string): string {
  return [
    '#compdef svc',
    ...generatedHeader('zsh', version),
    '',
    '_svc() {',
    '  # The whole line, for --profile and --base-url; the program as typed, to ask it for values.',
    '  local -a __svc_words; __svc_words=("${words[@]}")',
    '  local __svc_program=${words[1]/#\\~/$HOME}',
    '  local -a __svc_global; __svc_global=(',
    ...spec.globalFlags.map((flag) => `    ${flagSpec(flag)}`),
    '  )',
    `  ${functionName(spec.root)}`,
    '}',
    '',
    ...allCommands(spec.root).flatMap((command) => commandFunction(command, spec)),
    DYNAMIC,
    '',
    '# Autoloaded from $fpath, the file is the body of _svc; sourced, it registers _svc.',
    'if [[ $funcstack[1] == _svc ]]; then',
    '  _svc "$@"',
    'else',
    '  compdef _svc svc',
    'fi',
    '',
  ].join('\n');
}

/** The root's flags that are not global (--version). */
function rootOnly(spec: ProgramSpec): FlagSpec[] {
  return spec.root.flags.filter((flag) => !spec.globalFlags.includes(flag));
}

/**
 * `__svc_cmd_reports_list`: the prefix keeps command functions apart from the helpers
 * (__svc_dynamic).
 */
function functionName(command: CommandSpec): string {
  return ['__svc_cmd', ...command.path].join('_').replace(/[^\w]/g, '_');
}

function commandFunction(command: CommandSpec, spec: ProgramSpec): string[] {
  // The root's own flags are the global ones, but for --version.
  const flags = command === spec.root ? rootOnly(spec) : command.flags;
  const specs = ['"${__svc_global[@]}"', ...flags.map(flagSpec)];
  const dynamic = new Map<string, string>();
  const states = (values: Values | undefined, position?: number) => {
    if (values?.kind === 'dynamic')
      dynamic.set(values.source, position === undefined ? '' : ` "$line[${position}]"`);
  };
  [...spec.globalFlags, ...flags].forEach((flag) => states(flag.value));
  const lines = [
    `${functionName(command)}() {`,
    '  local curcontext=$curcontext state state_descr line ret=1',
    '  typeset -A opt_args',
  ];
  if (command.commands.length > 0) {
    specs.push(`': :->command'`, `'*:: :->argument'`);
    lines.push(`  _arguments -S -C \\\n    ${specs.join(' \\\n    ')} && ret=0`);
    lines.push('  case $state in');
    lines.push('    command)');
    lines.push(
      `      local -a commands; commands=(${command.commands.flatMap((c) => [c.name, ...c.aliases].map((name) => sq(`${escapeColon(name)}:${c.description}`))).join(' ')})`,
    );
    lines.push(
      `      _describe -t commands ${sq(['svc', ...command.path, 'command'].join(' '))} commands && ret=0 ;;`,
    );
    lines.push('    argument)');
    lines.push(
      `      curcontext=\${curcontext%:*:*}:svc-${command.path.concat('$words[1]').join('-')}:`,
    );
    lines.push('      case $words[1] in');
    for (const sub of command.commands)
      lines.push(
        `        ${[sub.name, ...sub.aliases].map(sq).join('|')}) ${functionName(sub)} && ret=0 ;;`,
      );
    lines.push('      esac ;;');
  } else {
    command.args.forEach((arg, index) => {
      specs.push(argumentSpec(arg, index));
      // A selector follows its family: the argument before it on the line.
      states(arg.value, index);
    });
    lines.push(`  _arguments -S -C \\\n    ${specs.join(' \\\n    ')} && ret=0`);
    lines.push('  case $state in');
  }
  for (const [source, family] of dynamic)
    lines.push(`    ${source}) __svc_dynamic ${source}${family} && ret=0 ;;`);
  lines.push('  esac', '  return ret', '}', '');
  return lines;
}

/**
 * One `_arguments` spec of a flag: `'(-o --output)'{-o+,--output=}'[output format]:format:(…)'`.
 */
function flagSpec(flag: FlagSpec): string {
  const names = flagNames(flag);
  const forms = names.map((name) =>
    flag.value === undefined ? name : `${name}${name.startsWith('--') ? '=' : '+'}`,
  );
  const value =
    flag.value === undefined
      ? ''
      : `:${escapeColon(flag.valueName ?? 'value')}:${action(flag.value, flag.valueName ?? 'value')}`;
  const tail = sq(`[${escapeBrackets(flag.description)}]${value}`);
  // A repeatable flag may come again; the two names of one flag exclude each other.
  const lead = flag.repeatable ? "'*'" : names.length > 1 ? sq(`(${names.join(' ')})`) : '';
  return `${lead}${forms.length > 1 ? `{${forms.join(',')}}` : forms[0]!}${tail}`;
}

function argumentSpec(arg: ArgSpec, index: number): string {
  const position = arg.variadic ? '*' : String(index + 1);
  const optional = arg.required || arg.variadic ? '' : ':';
  return sq(`${position}:${optional}${escapeColon(arg.name)}:${action(arg.value, arg.name)}`);
}

function action(values: Values, name: string): string {
  switch (values.kind) {
    case 'text':
      return ' ';
    case 'files':
      return '_files';
    case 'dynamic':
      return `->${values.source}`;
    case 'choices':
      if (values.choices.every((c) => c.description)) {
        return `((${values.choices.map((c) => `${escapeColon(escapeWord(c.value))}\\:${escapeColon(escapeWord(c.description!))}`).join(' ')}))`;
      }
      return `(${values.choices.map((c) => escapeWord(c.value)).join(' ')})`;
  }
  throw new Error(`no zsh action for ${name}`);
}

/** A word of a `(…)` or `((…))` list: spaces and shell characters escaped. */
function escapeWord(text: string): string {
  return text.replace(/[\\\s()'"`$;&|<>*?[\]{}#~]/g, (c) => `\\${c}`);
}

function escapeColon(text: string): string {
  return text.replace(/:/g, '\\:');
}

function escapeBrackets(text: string): string {
  return text.replace(/[[\]]/g, (c) => `\\${c}`);
}

function sq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * Values asked of `svc __complete`, offered with their descriptions. (\${ keeps the template from
 * interpolating.)
 */
const DYNAMIC = String.raw`__svc_dynamic() {
  local -a request candidates
  local i word line
  request=("$@")
  # --profile and --base-url as typed anywhere on the line.
  for (( i = 2; i < $#__svc_words; i++ )); do
    word=$__svc_words[i]
    case $word in
      --profile|--base-url) request+=("$word" "$__svc_words[i+1]") ;;
      --profile=*|--base-url=*) request+=("$word") ;;
    esac
  done
  for line in "\${(@f)$("$__svc_program" __complete "\${request[@]}" 2>/dev/null)}"; do
    [[ -n $line ]] && candidates+=("\${\${line%%$'\t'*}//:/\\:}:\${line#*$'\t'}")
  done
  _describe -t "$1" "$1" candidates
}`.replaceAll('\\${', '${');
