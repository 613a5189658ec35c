// The bash completion script, rendered from the command tree. It needs nothing but bash itself
// (`complete -F`, `compgen`; no bash-completion package) and keeps to bash 3.2 syntax, macOS's own
// bash (no mapfile, no negative subscripts; compopt only where it exists).
// Static tables (commands, flags, values) are case statements; profile names, series selectors and
// scenario names come from `svc __complete`, which reads local files only.
import { generatedHeader } from './header.js';
import { allCommands, type CommandSpec, flagNames, type ProgramSpec, type Values } from './spec.js';

export function renderBash(spec: ProgramSpec, version: string): string {
  const commands = allCommands(spec.root);
  const globalNames = spec.globalFlags.flatMap(flagNames);
  return [
    ...generatedHeader('bash', version),
    '',
    '# The subcommands of a command path.',
    '__svc_commands() {',
    '  case $1 in',
    ...commands
      .filter((c) => c.commands.length > 0)
      .map(
        (c) =>
          `    ${sq(key(c))}) __svc_reply=${sq(c.commands.flatMap((sub) => [sub.name, ...sub.aliases]).join(' '))} ;;`,
      ),
    "    *) __svc_reply='' ;;",
    '  esac',
    '}',
    '',
    '# The flags of a command path (the global ones are added by _svc).',
    '__svc_flags() {',
    '  case $1 in',
    ...commands
      .filter((c) => c.flags.length > 0)
      .map((c) => `    ${sq(key(c))}) __svc_reply=${sq(c.flags.flatMap(flagNames).join(' '))} ;;`),
    "    *) __svc_reply='' ;;",
    '  esac',
    '}',
    `__svc_global_flags=${sq(globalNames.join(' '))}`,
    '',
    "# What the flag $2 of the command path $1 takes: '' for a switch, else text, files,",
    "# 'choices VALUE…' or 'dynamic SOURCE'.",
    '__svc_flag_kind() {',
    '  case "$1 $2" in',
    ...commands
      .filter((c) => c.path.length > 0)
      .flatMap((c) =>
        c.flags
          .filter((f) => f.value)
          .map(
            (f) =>
              `    ${flagNames(f)
                .map((n) => sq(`${key(c)} ${n}`))
                .join('|')}) __svc_reply=${sq(kind(f.value!))} ;;`,
          ),
      ),
    ...spec.globalFlags
      .filter((f) => f.value)
      .map(
        (f) =>
          `    ${flagNames(f)
            .map((n) => `*${sq(` ${n}`)}`)
            .join('|')}) __svc_reply=${sq(kind(f.value!))} ;;`,
      ),
    "    *) __svc_reply='' ;;",
    '  esac',
    '}',
    '',
    '# What the positional argument number $2 (from 0) of the command path $1 takes.',
    '__svc_arg_kind() {',
    "  __svc_reply=''",
    '  case $1 in',
    ...commands.filter((c) => c.args.length > 0).map(argumentCase),
    '  esac',
    '}',
    '',
    ENGINE,
  ].join('\n');
}

function argumentCase(command: CommandSpec): string {
  const cases = command.args.map(
    (arg, index) => `${arg.variadic ? '*' : index}) __svc_reply=${sq(kind(arg.value))} ;;`,
  );
  return `    ${sq(key(command))}) case $2 in ${cases.join(' ')} esac ;;`;
}

/** A command path as the script spells it: words joined by one space, '' for the root. */
function key(command: CommandSpec): string {
  return command.path.join(' ');
}

function kind(values: Values): string {
  switch (values.kind) {
    case 'text':
    case 'files':
      return values.kind;
    case 'dynamic':
      return `dynamic ${values.source}`;
    case 'choices':
      for (const choice of values.choices) {
        if (!/^[\w.@%+,:/-]+$/.test(choice.value))
          throw new Error(`a choice the bash script cannot offer as one word: "${choice.value}"`);
      }
      return `choices ${values.choices.map((c) => c.value).join(' ')}`;
  }
}

function sq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The part that does not depend on the tree: walk the words typed so far, then offer values.
 * (Written with \${ so that the template does not interpolate; the backslashes are taken out.)
 */
const ENGINE =
  String.raw`# Offers the values of a kind (see __svc_flag_kind) that begin with $1; $2 is put before each.
__svc_offer() {
  local kind=$__svc_kind cur=$1 prefix=$2 value line
  COMPREPLY=()
  case $kind in
    choices\ *)
      for value in \${kind#choices }; do
        [[ $value == "$cur"* ]] && COMPREPLY+=("$prefix$value")
      done ;;
    files)
      compopt -o filenames 2>/dev/null
      while IFS= read -r line; do COMPREPLY+=("$prefix$line"); done < <(compgen -f -- "$cur") ;;
    dynamic\ *)
      local -a request=("\${kind#dynamic }")
      [[ $kind == 'dynamic data-selectors' && \${#__svc_args[@]} -gt 0 ]] && request+=("\${__svc_args[\${#__svc_args[@]}-1]}")
      [[ -n $__svc_profile ]] && request+=(--profile "$__svc_profile")
      [[ -n $__svc_base_url ]] && request+=(--base-url "$__svc_base_url")
      while IFS= read -r line; do
        value=\${line%%$'\t'*}
        [[ -n $value && $value == "$cur"* ]] && COMPREPLY+=("$prefix$value")
      done < <("$__svc_program" __complete "\${request[@]}" 2>/dev/null) ;;
  esac
  return 0
}

_svc() {
  local __svc_program=\${COMP_WORDS[0]} __svc_reply='' __svc_kind='' __svc_profile='' __svc_base_url=''
  local -a __svc_args=() words=()
  local i w glue=0
  [[ $__svc_program == '~/'* ]] && __svc_program=$HOME/\${__svc_program#'~/'}
  # bash splits --flag=value at '=' (COMP_WORDBREAKS): join the pieces back into one word.
  for ((i = 1; i <= COMP_CWORD; i++)); do
    w=\${COMP_WORDS[i]}
    if [[ $w == = && \${#words[@]} -gt 0 && \${words[\${#words[@]}-1]} == --* && \${words[\${#words[@]}-1]} != *=* ]]; then
      words[\${#words[@]}-1]+='='; glue=1
    elif ((glue)); then
      words[\${#words[@]}-1]+=$w; glue=0
    else
      words+=("$w")
    fi
  done
  local cur=\${words[\${#words[@]}-1]} path='' expect='' dashdash=0
  for ((i = 0; i < \${#words[@]} - 1; i++)); do
    w=\${words[i]}
    if [[ -n $expect ]]; then
      case $expect in --profile) __svc_profile=$w ;; --base-url) __svc_base_url=$w ;; esac
      expect=''
    elif ((!dashdash)) && [[ $w == -- ]]; then
      dashdash=1
    elif ((!dashdash)) && [[ $w == --*=* ]]; then
      case \${w%%=*} in --profile) __svc_profile=\${w#*=} ;; --base-url) __svc_base_url=\${w#*=} ;; esac
    elif ((!dashdash)) && [[ $w == -?* ]]; then
      __svc_flag_kind "$path" "$w"
      [[ -n $__svc_reply ]] && expect=$w
    else
      __svc_commands "$path"
      if [[ \${#__svc_args[@]} -eq 0 && " $__svc_reply " == *" $w "* ]]; then
        path=\${path:+$path }$w
      else
        __svc_args+=("$w")
      fi
    fi
  done
  local prefix=''
  if [[ -n $expect ]]; then
    __svc_flag_kind "$path" "$expect"; __svc_kind=$__svc_reply
  elif ((!dashdash)) && [[ $cur == --*=* ]]; then
    __svc_flag_kind "$path" "\${cur%%=*}"; __svc_kind=$__svc_reply
    # Where '=' does not break words, the reply replaces the whole --flag=value word.
    [[ \${COMP_WORDS[COMP_CWORD]} == --*=* ]] && prefix=\${cur%%=*}=
    cur=\${cur#*=}
  elif ((!dashdash)) && [[ $cur == -* ]]; then
    __svc_flags "$path"
    __svc_kind="choices $__svc_reply"
    [[ -n $path ]] && __svc_kind+=" $__svc_global_flags"
  else
    __svc_commands "$path"
    if [[ -n $__svc_reply && \${#__svc_args[@]} -eq 0 ]]; then
      __svc_kind="choices $__svc_reply"
    else
      __svc_arg_kind "$path" "\${#__svc_args[@]}"; __svc_kind=$__svc_reply
    fi
  fi
  __svc_offer "$cur" "$prefix"
}

complete -F _svc svc
`.replaceAll('\\${', '${');
