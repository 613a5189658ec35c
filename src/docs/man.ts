// The man page (man/svc.1, roff), rendered at build time from the same sources as the help: the
// command tree (descriptions, flags, arguments, examples) and the help topics.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';

import type { HelpTopic } from '../commands/help/topics.js';
import type { CommandSpec, FlagSpec, ProgramSpec, Values } from '../core/completion/spec.js';
import { allCommands } from '../core/completion/spec.js';
import { shellLines } from '../core/output/prose.js';
import type { Block } from '../core/program/document.js';

/**
 * Columns a line of code may take: man sets a page 78 columns wide at 80, indented 7 under a
 * section and 7 more for code (.RS). Longer commands go on after a ` \`, as in the help.
 */
const MAN_CODE_WIDTH = 64;
const CONTINUED = '    ';

export function renderMan(
  program: CommandUnknownOpts,
  spec: ProgramSpec,
  topics: readonly HelpTopic[],
  version: string,
): string {
  // The global flags are the `svc help global-flags` topic (which commands take which), placed
  // before the commands.
  const globalTopic = topics.find((topic) => topic.name === 'global-flags');
  if (!globalTopic) throw new Error('the man page needs the global-flags help topic');
  const lines = [
    `.\\" Generated from the command tree and the help topics of svc ${version} (npm run build); do not edit.`,
    `.TH SVC 1 "" "svc ${version}" "User Commands"`,
    '.SH NAME',
    `svc \\- ${text(spec.root.description)}`,
    '.SH SYNOPSIS',
    '.B svc',
    '.I command',
    '[\\fIsubcommand\\fR] [\\fIoptions\\fR] [\\fIarguments\\fR]',
    '.br',
    '.B svc help',
    '[\\fItopic\\fR | \\fIcommand\\fR ...]',
    '.br',
    ...spec.root.flags
      .filter((flag) => !spec.globalFlags.includes(flag))
      .map((flag) => `.B svc ${text(flag.long ?? flag.short ?? '')}`),
    '.SH DESCRIPTION',
    text(spec.root.description),
    '.PP',
    `Every command has \\fB\\-\\-help\\fR with examples. The help topics (${topics.map((t) => `\\fBsvc help ${t.name}\\fR`).join(', ')}) are the sections ${topics.map((t) => t.manSection).join(', ')} below.`,
    `.SH ${globalTopic.manSection}`,
    ...globalTopic.body(program).flatMap(blockLines),
    '.SH COMMANDS',
    ...allCommands(spec.root)
      .filter((command) => command.path.length > 0)
      .flatMap(commandSection),
    ...topics
      .filter((topic) => topic !== globalTopic)
      .flatMap((topic) => [`.SH ${topic.manSection}`, ...topic.body(program).flatMap(blockLines)]),
    '.SH SEE ALSO',
    '\\fBsvc help\\fR \\fItopic\\fR, \\fBsvc\\fR \\fIcommand\\fR \\fB\\-\\-help\\fR, \\fBjq\\fR(1)',
    '',
  ];
  return lines.join('\n');
}

function commandSection(command: CommandSpec): string[] {
  const lines = ['.SS ' + quoted(command.usage), text(capitalised(command.description))];
  for (const arg of command.args) {
    lines.push(
      '.TP',
      `\\fI${text(arg.name)}\\fR${arg.variadic ? ' ...' : ''}${arg.required ? '' : ' (optional)'}`,
      text(arg.description) + choicesNote(arg.value),
    );
  }
  if (command.commands.length === 0) lines.push(...command.flags.flatMap(flagEntry));
  else
    lines.push(
      '.PP',
      `Commands: ${command.commands.map((c) => `\\fB${text(c.name)}\\fR`).join(', ')}.`,
    );
  // Within a command's section, a heading of its help (Examples) is a line, not a subsection.
  lines.push(
    ...command.helpAfter.flatMap((block) =>
      block.kind === 'heading' ? ['.PP', text(`${block.text}:`)] : blockLines(block),
    ),
  );
  return lines;
}

function flagEntry(flag: FlagSpec): string[] {
  const names = [flag.short, flag.long]
    .filter((name): name is string => name !== undefined)
    .map((name) => `\\fB${text(name)}\\fR`);
  const value = flag.valueName ? ` \\fI${text(flag.valueName)}\\fR` : '';
  return [
    '.TP',
    names.join(', ') + value,
    text(flag.description) + (flag.value ? choicesNote(flag.value) : ''),
  ];
}

function choicesNote(values: Values): string {
  return values.kind === 'choices' && !values.choices.some((c) => c.description)
    ? text(` (one of: ${values.choices.map((c) => c.value).join(', ')})`)
    : '';
}

function blockLines(block: Block): string[] {
  switch (block.kind) {
    case 'heading':
      return ['.SS ' + quoted(block.text)];
    case 'paragraph':
      return ['.PP', inline(block.text)];
    case 'definitions':
      return block.items.flatMap(([term, definition]) => [
        '.TP',
        `\\fB${text(term)}\\fR`,
        inline(definition),
      ]);
    case 'list':
      return ['.RS', ...block.items.flatMap((item) => ['.PP', inline(item)]), '.RE'];
    case 'examples':
      return [
        '.RS',
        '.nf',
        ...block.commands
          .flatMap((command) => shellLines(command, MAN_CODE_WIDTH, '', CONTINUED))
          .map(text),
        '.fi',
        '.RE',
      ];
    case 'code':
      return [
        '.PP',
        '.RS',
        '.nf',
        ...block.lines.flatMap((line) => shellLines(line, MAN_CODE_WIDTH, '', CONTINUED)).map(text),
        '.fi',
        '.RE',
      ];
  }
}

/** Text with `code` in bold. */
function inline(source: string): string {
  return source
    .split(/(`[^`]+`)/)
    .map((part) =>
      part.startsWith('`') && part.endsWith('`') && part.length > 1
        ? `\\fB${text(part.slice(1, -1))}\\fR`
        : text(part),
    )
    .join('');
}

/**
 * Escapes roff: backslashes, hyphens, non-ASCII characters, and a line that would start with a
 * request character.
 */
function text(source: string): string {
  const escaped = source
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    // The page stays ASCII: other characters as groff's Unicode escapes (… is \[u2026]).
    .replace(
      /[^\x00-\x7f]/gu,
      (c) => `\\[u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`,
    );
  return /^[.']/.test(escaped) ? `\\&${escaped}` : escaped;
}

function quoted(source: string): string {
  return `"${text(source).replace(/"/g, '\\(dq')}"`;
}

function capitalised(source: string): string {
  return source.charAt(0).toUpperCase() + source.slice(1) + (/[.!?…]$/.test(source) ? '' : '.');
}
