// A command line that cannot be run (a Mistake the parser found), phrased in svc's words.
import { type Mistake, UsageError } from '../errors.js';

/** `Did you mean "failed"?` as a hint line, or none when no name is near. */
export function didYouMean(near: readonly string[]): string[] {
  if (near.length === 0) return [];
  const names = near.map((name) => `"${name}"`);
  return [
    `Did you mean ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`}?`,
  ];
}

const quotedList = (values: readonly string[]) => values.map((value) => `"${value}"`).join(' ');

/**
 * A command line that cannot be run, in svc's words: one line saying what is wrong, then a
 * "did you mean" where a name is near and where to read more. Commander's own messages
 * ("option '--status <status>' argument 'done' is invalid…") never reach the user.
 */
export function usageErrorFor(mistake: Mistake): UsageError {
  switch (mistake.kind) {
    case 'unknown-command': {
      const root = !mistake.command.includes(' ');
      const hints =
        mistake.name === 'help' && !root
          ? [
              `The help of a command is \`svc help ${mistake.command.slice('svc '.length)}\` (or \`${mistake.command} --help\`).`,
            ]
          : [
              ...didYouMean(mistake.near),
              `Run \`${mistake.command} --help\` for ${root ? 'the commands' : 'its commands'}.`,
            ];
      return new UsageError(
        `unknown command "${mistake.name}"${root ? '' : ` in ${mistake.command}`}`,
        hints,
      );
    }
    case 'unknown-flag':
      return new UsageError(`unknown flag "${mistake.flag}"`, [
        ...didYouMean(mistake.near),
        `Run \`${mistake.command} --help\` for the flags it takes.`,
      ]);
    case 'invalid-value':
      return new UsageError(
        `${mistake.what} takes ${mistake.takes}, not "${mistake.value}"`,
        didYouMean(mistake.near),
      );
    case 'missing-argument':
      return new UsageError(
        `missing argument ${mistake.argument}${mistake.description ? `: ${mistake.description}` : ''}`,
        [`Usage: ${mistake.usage}`],
      );
    case 'missing-value':
      return new UsageError(
        `${mistake.flag} needs a value: ${mistake.choices ? `one of ${mistake.choices.join(', ')}` : mistake.description}`,
        [`Usage: ${mistake.usage}`],
      );
    case 'missing-flag':
      return new UsageError(
        `missing ${mistake.flag}${mistake.choices ? `: one of ${mistake.choices.join(', ')}` : mistake.description ? `: ${mistake.description}` : ''}`,
        [`Usage: ${mistake.usage}`],
      );
    case 'excess-arguments': {
      const expected = mistake.expected.length;
      if (expected === 0)
        return new UsageError(
          `${mistake.command} takes no arguments, not ${quotedList(mistake.received)}`,
          [`Usage: ${mistake.usage}`],
        );
      const extra = mistake.received.slice(expected);
      const takes = `${expected} argument${expected === 1 ? '' : 's'} (${mistake.expected.join(' ')})`;
      return new UsageError(
        `${mistake.command} takes ${takes}, and ${quotedList(extra)} ${extra.length === 1 ? 'is one' : `are ${extra.length}`} too many`,
        [
          'A value with spaces needs quotes: "Ram Bahadur Shrestha", not Ram Bahadur Shrestha.',
          `Usage: ${mistake.usage}`,
        ],
      );
    }
    case 'other':
      return new UsageError(mistake.message, [`Usage: ${mistake.usage}`]);
  }
}
