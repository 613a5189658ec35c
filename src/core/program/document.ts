// A help text as data: headings, paragraphs, term/definition lists and code. `svc help TOPIC`
// renders it for a terminal here; the man page (src/docs/man.ts) renders the same blocks as roff.

export type Block =
  | { readonly kind: 'heading'; readonly text: string }
  | { readonly kind: 'paragraph'; readonly text: string }
  | { readonly kind: 'definitions'; readonly items: readonly (readonly [term: string, text: string])[] }
  | { readonly kind: 'code'; readonly lines: readonly string[] };

const INDENT = '  ';
/** A term wider than this puts its text on the next line. */
const MAX_TERM = 22;

/** The blocks as plain text for a terminal or a pipe, wrapped to `width` columns. */
export function renderText(blocks: readonly Block[], width: number): string {
  // A blank line between blocks, but none under a heading.
  return blocks.map((block, i) => (i > 0 && blocks[i - 1]!.kind !== 'heading' ? '\n' : '') + renderBlock(block, Math.max(40, width))).join('\n') + '\n';
}

function renderBlock(block: Block, width: number): string {
  switch (block.kind) {
    case 'heading':
      return `${block.text}:`;
    case 'paragraph':
      return wrap(block.text, width).join('\n');
    case 'code':
      return block.lines.map((line) => INDENT + line).join('\n');
    case 'definitions': {
      const termWidth = Math.max(0, ...block.items.map(([term]) => term.length).filter((length) => length <= MAX_TERM));
      const textIndent = ' '.repeat(INDENT.length + termWidth + 2);
      return block.items
        .flatMap(([term, text]) => {
          const lines = wrap(text, width - textIndent.length);
          if (term.length > termWidth) return [INDENT + term, ...lines.map((line) => textIndent + line)];
          return [INDENT + term.padEnd(termWidth) + '  ' + (lines[0] ?? ''), ...lines.slice(1).map((line) => textIndent + line)];
        })
        .join('\n');
    }
  }
}

/** Greedy word wrap; a word longer than the width stays whole on its own line. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}
