// Text for people wrapped to a terminal, as help and errors are (docs/reference/output.md,
// "Wrapping and widths"): at word boundaries only, no word ever split. A word wider than the line
// stands alone on its own, for the terminal to fold. What is written between backticks (a command
// to copy) is one word where it fits a line, and so is a date with its time. Shell commands (the
// examples of the help) wrap between their words with a trailing ` \`, so they still paste as one
// command.
import { glueDateTimes, lineWidth, unglue } from './fit.js';

/**
 * The words of a line of prose: what lies between spaces, a span between backticks kept whole
 * (an unmatched backtick is a character like any other).
 */
function proseWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === ' ' || c === '\t') {
      if (word) words.push(word);
      word = '';
    } else if (c === '`' && line.indexOf('`', i + 1) > i) {
      const end = line.indexOf('`', i + 1);
      word += line.slice(i, end + 1);
      i = end;
    } else word += c;
  }
  if (word) words.push(word);
  return words;
}

/**
 * Words filled greedily into lines of `width` columns: the first begins with `first`, the others
 * with `rest`.
 */
function fill(words: readonly string[], width: number, first: string, rest: string): string[] {
  const lines: string[] = [];
  let line = first;
  let used = lineWidth(first);
  let empty = true;
  for (const word of words) {
    const size = lineWidth(word);
    if (!empty && used + 1 + size > width) {
      lines.push(line);
      line = rest;
      used = lineWidth(rest);
      empty = true;
    }
    line += (empty ? '' : ' ') + word;
    used += (empty ? 0 : 1) + size;
    empty = false;
  }
  lines.push(line);
  return lines;
}

/**
 * A paragraph wrapped between words into lines of at most `width` columns (a word wider than that
 * stands alone), the first line starting with `indent`, the others with `hang`, after the spaces
 * the line itself starts with. Its own line breaks are kept.
 */
export function proseLines(text: string, width: number, indent = '', hang = indent): string[] {
  return glueDateTimes(text)
    .split('\n')
    .flatMap((line) => {
      const own = /^ */.exec(line)![0];
      // A span between backticks wider than a line is parted between its words after all.
      const room = width - lineWidth(hang + own);
      const words = proseWords(line).flatMap((word) =>
        word.includes('`') && lineWidth(word) > room ? word.split(' ') : [word],
      );
      return fill(words, width, indent + own, hang + own);
    })
    .map(unglue);
}

/**
 * The words of a shell command, parted where a line may go on after a ` \`: at spaces outside
 * quotes (inside `$(…)` too). Quoted text and escapes belong to the word they are in. A `#` that
 * starts a word starts a comment: the rest of the line.
 */
function shellWords(command: string): { words: string[]; comment?: string } {
  const words: string[] = [];
  let word = '';
  let quote: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') word += c + (command[++i] ?? '');
      else {
        if (c === quote) quote = undefined;
        word += c;
      }
      continue;
    }
    if (c === ' ' || c === '\t') {
      if (word) words.push(word);
      word = '';
      continue;
    }
    if (c === '#' && word === '') {
      const comment = command.slice(i).trim();
      return { words, comment };
    }
    if (c === '\\') word += c + (command[++i] ?? '');
    else {
      if (c === "'" || c === '"') quote = c;
      word += c;
    }
  }
  if (word) words.push(word);
  return { words };
}

const OPERATORS = new Set(['|', '||', '&&', ';', '&', '>', '>>', '<', '2>', '2>&1']);
const REDIRECTS = new Set(['>', '>>', '<', '2>']);
/** Where a pipeline or a list of commands may go on at the start of a line. */
const JOINS = new Set(['|', '||', '&&']);

/**
 * The words that a line keeps together: a flag and the value after it (`--since 2026-01-01`), a
 * redirection and its file (`> dining.csv`).
 */
function units(words: readonly string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const next = words[i + 1];
    const pair =
      next !== undefined &&
      ((/^-./.test(word) && !next.startsWith('-') && !OPERATORS.has(next)) || REDIRECTS.has(word));
    joined.push(pair ? `${word} ${next}` : word);
    if (pair) i++;
  }
  return joined;
}

/**
 * A shell command as lines of at most `width` columns: `prompt` before it (`  $ `, or its own
 * indentation), the lines after it indented by `continuation`, each line but the last ending with
 * ` \` so the whole still pastes as one command. It is broken only between words of the shell,
 * never inside quotes, nor between a flag and its value; a pipeline goes on at a `|` where it can.
 * A trailing `# comment` that does not fit goes on lines of its own above the command.
 */
export function shellLines(
  command: string,
  width: number,
  prompt: string,
  continuation: string,
): string[] {
  if (lineWidth(prompt + command) <= width) return [prompt + command];
  const indent = /^ */.exec(prompt)![0];
  const leading = /^ */.exec(command)![0];
  const { words, comment } = shellWords(command.slice(leading.length));
  const above = comment
    ? proseLines(comment.replace(/^#\s*/, ''), width, indent + leading + '# ')
    : [];
  if (words.length === 0) return above;
  const start = (line: number) => (line === 0 ? prompt : continuation) + leading;
  const widthOf = (line: number, parts: readonly string[]) =>
    lineWidth(start(line) + parts.join(' '));
  const lines: string[][] = [[]];
  const all = units(words);
  all.forEach((unit, i) => {
    const line = lines.at(-1)!;
    // A line that goes on keeps room for its ` \`.
    const after = i < all.length - 1 ? 2 : 0;
    if (line.length === 0 || widthOf(lines.length - 1, [...line, unit]) + after <= width) {
      line.push(unit);
      return;
    }
    // The rest of a pipeline goes on the next line with its `|`, when it fits there.
    const join = line.findLastIndex((part) => JOINS.has(part));
    const moved = join > 0 ? [...line.slice(join), unit] : [unit];
    if (moved.length > 1 && widthOf(lines.length, moved) + after <= width) line.splice(join);
    else moved.splice(0, moved.length - 1);
    lines.push(moved);
  });
  return [
    ...above,
    ...lines.map((parts, n) => start(n) + parts.join(' ') + (n < lines.length - 1 ? ' \\' : '')),
  ];
}

/**
 * Fields of one line for people (a time, an event name, an id), parted by `separator`, on lines
 * of at most `width` columns: a field that does not fit goes on to the next line, after `hang`;
 * no field is split, and one wider than the line stands alone.
 */
export function fieldLines(
  fields: readonly string[],
  width: number,
  separator = '  ',
  hang = '  ',
): string[] {
  const lines: string[] = [];
  let line = '';
  for (const field of fields) {
    if (line !== '' && line.trim() !== '' && lineWidth(line + separator + field) > width) {
      lines.push(line);
      line = hang;
    }
    line += line.trim() === '' ? field : separator + field;
  }
  lines.push(line);
  return lines;
}
