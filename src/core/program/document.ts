// Help text as data: headings, paragraphs, term/definition lists, lists, example commands and code.
// A command's help ends with such blocks (SvcCommand.helpAfter), and `svc help TOPIC` is made of
// them; both are rendered here for a terminal or a pipe, wrapped to its width
// (docs/reference/output.md, "Wrapping and widths": at word boundaries, no word split, an example
// command continued with ` \`). The man page (src/docs/man.ts) renders the same blocks as roff.
// Text is written as paragraphs, never broken by hand: the renderer wraps it.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';

import { lineWidth, padTo } from '../output/fit.js';
import { proseLines, shellLines } from '../output/prose.js';

export type Block =
  | { readonly kind: 'heading'; readonly text: string }
  | { readonly kind: 'paragraph'; readonly text: string }
  | {
      readonly kind: 'definitions';
      readonly items: readonly (readonly [term: string, text: string])[];
    }
  /** Items of a list, each a short paragraph of its own. */
  | { readonly kind: 'list'; readonly items: readonly string[] }
  /** Commands to copy, shown after a `$ ` prompt. */
  | { readonly kind: 'examples'; readonly commands: readonly string[] }
  /** Lines of a shell script (or a file), as written. */
  | { readonly kind: 'code'; readonly lines: readonly string[] };

/** Help is wrapped to the terminal, but no wider than this: longer lines are hard to read. */
const MAX_HELP_WIDTH = 100;

/** The width help is wrapped to: the terminal's (`columns`, undefined in a pipe), 80 in a pipe. */
export function helpWidth(columns: number | undefined): number {
  return Math.min(columns ?? 80, MAX_HELP_WIDTH);
}

const INDENT = '  ';
/**
 * A term wider than this puts its text on the next line (where the list does not say otherwise).
 */
const MAX_TERM = 22;
/** Fewer columns than this beside the terms, and every text goes under its term instead. */
const MIN_TEXT = 24;
/**
 * The text of a term that has its own line starts this far in, when the terms leave no room beside
 * them.
 */
const UNDER_TERM = INDENT + '    ';
/** How a long example command or line of code goes on, after its ` \`. */
const CONTINUED = '    ';

export const heading = (text: string): Block => ({ kind: 'heading', text });
export const paragraph = (text: string): Block => ({ kind: 'paragraph', text });

/** `Examples:` and the commands, each after a `$ `. */
export function examples(...commands: string[]): Block[] {
  return [heading('Examples'), { kind: 'examples', commands }];
}

/** The blocks as plain text for a terminal or a pipe, wrapped to `width` columns. */
export function renderText(blocks: readonly Block[], width: number): string {
  // A blank line between blocks, but none under a heading.
  return (
    blocks
      .map(
        (block, i) =>
          (i > 0 && blocks[i - 1]!.kind !== 'heading' ? '\n' : '') +
          blockLines(block, width).join('\n'),
      )
      .join('\n') + '\n'
  );
}

function blockLines(block: Block, width: number): string[] {
  switch (block.kind) {
    case 'heading':
      return proseLines(`${block.text}:`, width);
    case 'paragraph':
      return proseLines(block.text, width);
    case 'definitions':
      return definitionLines(block.items, width);
    case 'list':
      return block.items.flatMap((item) => proseLines(item, width, INDENT, INDENT + '  '));
    case 'examples':
      return block.commands.flatMap((command) =>
        shellLines(command, width, `${INDENT}$ `, INDENT + '  ' + CONTINUED),
      );
    case 'code':
      return block.lines.flatMap((line) => shellLines(line, width, INDENT, INDENT + CONTINUED));
  }
}

/**
 * Terms and their texts, as a list of flags or commands: the terms in a column (`termWidth` wide,
 * by default that of the widest term up to `maxTerm`), each text beside its term, wrapped between
 * words in the room left. A wider term has a line of its own, its text under it; when the terms
 * leave too little room, every text goes under its term.
 */
export function definitionLines(
  items: readonly (readonly [term: string, text: string])[],
  width: number,
  maxTerm = MAX_TERM,
  termWidth = Math.max(
    0,
    ...items.map(([term]) => lineWidth(term)).filter((size) => size <= maxTerm),
  ),
): string[] {
  const textIndent = ' '.repeat(INDENT.length + termWidth + 2);
  const beside = width - textIndent.length >= MIN_TEXT;
  return items.flatMap(([term, text]) => {
    if (!text) return [INDENT + term];
    if (!beside) return [INDENT + term, ...proseLines(text, width, UNDER_TERM)];
    if (lineWidth(term) > termWidth) return [INDENT + term, ...proseLines(text, width, textIndent)];
    return proseLines(text, width, INDENT + padTo(term, termWidth) + '  ', textIndent);
  });
}

const afterHelp = new WeakMap<CommandUnknownOpts, Block[]>();

/** Adds blocks to the end of a command's help (SvcCommand.helpAfter calls this). */
export function addHelpAfter(command: CommandUnknownOpts, blocks: readonly Block[]): void {
  afterHelp.set(command, [...(afterHelp.get(command) ?? []), ...blocks]);
}

/** The blocks that end a command's help: its examples and notes. */
export function helpAfterOf(command: CommandUnknownOpts): readonly Block[] {
  return afterHelp.get(command) ?? [];
}
