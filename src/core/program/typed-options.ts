// Flags whose values are checked where they are declared, so that a handler receives them typed
// and never checks them again. commander calls the parser as the value comes, before the command
// runs; a refusal is a usage error in svc's words (SvcCommand.addOption: `--limit takes a whole
// number from 1 to 100, not "500"`, exit 2, nothing sent).
import { InvalidArgumentError, Option } from '@commander-js/extra-typings';

/**
 * A flag that takes one of a few values, declared once (as gh's cmdutil.StringEnumFlag): the list
 * given here is the only one. From it
 * - commander refuses any other value before the command runs, and SvcCommand phrases it
 *   (`--status takes one of complete, processing, failed, not "done"`, the nearest as "did you
 *   mean", exit 2, nothing sent);
 * - the help writes `(one of: complete, processing, failed)` after the description (svc-help.ts);
 * - completion offers the values (src/completion/values.ts reads them as `argChoices`);
 * - the handler's option is typed as their union (extra-typings infers it from `.choices()`).
 */
export function enumOption<const Flags extends string, const Values extends readonly string[]>(
  flags: Flags,
  description: string,
  values: Values,
) {
  // The choices are set before the option is added to a command, whose parsers refuse in svc's
  // words (SvcCommand.addOption).
  return new Option(flags, description).choices(values);
}

/** The whole number a text writes in digits alone (no sign, point or exponent), from min to max. */
export function wholeNumber(min: number, max: number): (text: string) => number {
  return (text) => {
    const n = /^\d+$/.test(text) ? Number(text) : NaN;
    // What the flag takes: the refusal reads `--limit takes a whole number from 1 to 100, not "x"`.
    if (!(n >= min && n <= max))
      throw new InvalidArgumentError(`a whole number from ${min} to ${max}`);
    return n;
  };
}

/** A flag that takes a whole number from min to max: the handler receives it as a number. */
export function integerOption<const Flags extends string>(
  flags: Flags,
  description: string,
  range: { min: number; max: number },
) {
  return new Option(flags, description).argParser(wholeNumber(range.min, range.max));
}
