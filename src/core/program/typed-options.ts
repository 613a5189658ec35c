// Flags whose values are checked where they are declared, so that a handler receives them typed
// and never checks them again: enums, whole and decimal numbers, sizes, durations and lists, each
// with its bounds (what a flag completes to is declared with it too: completes(), in
// core/completion/values.ts). commander calls the parser as the value comes, before the command
// runs; a refusal is a usage error in svc's words (`--limit takes a whole number from 1 to 100,
// not "500"`, exit 2, nothing sent).
import { InvalidArgumentError, Option } from '@commander-js/extra-typings';

import { UsageError } from '../errors.js';

/**
 * A flag that takes one of a few values, declared once (as gh's cmdutil.StringEnumFlag): the list
 * given here is the only one. From it
 * - commander refuses any other value before the command runs, and SvcCommand phrases it
 *   (`--status takes one of complete, processing, failed, not "done"`, the nearest as "did you
 *   mean", exit 2, nothing sent);
 * - the help writes `(one of: complete, processing, failed)` after the description (svc-help.ts);
 * - completion offers the values (core/completion/values.ts reads them as `argChoices`);
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

/** The refusal of a value: `--principal takes the loan amount, …, not "0"`, then any hint. */
function refusal(flag: string, takes: string, value: string, hint = ''): UsageError {
  return new UsageError(`${flag} takes ${takes}, not "${value}"${hint}`);
}

/** How a decimal flag's number is written. */
const DECIMAL_FORMS = {
  /** 500000, 12.5, .5, 5e5: no sign, grouping or hex (a grouped number is told how to write it). */
  decimal: /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/,
  /** 250000, 1250.50: digits and a point, blanks around them taken. */
  plain: /^\d+(\.\d+)?$/,
  /** Whatever JavaScript's Number() reads. */
  number: undefined,
} as const;

/** A decimal flag: how its number is written, its bounds and what its refusals say. */
export interface DecimalRule {
  readonly form: keyof typeof DECIMAL_FORMS;
  /** The least value taken. */
  readonly min?: number;
  /** A bound the value must be above, not equal to. */
  readonly above?: number;
  readonly max?: number;
  /** What the flag takes, as its refusal says it: `--timeout takes ${takes}, not "x"`. */
  readonly takes: string;
  /** What it takes, said of a number out of bounds, when it is said otherwise. */
  readonly takesInBounds?: string;
  /** Words after the refusal of a number out of bounds: ` (for 50% write 0.5)`. */
  readonly hint?: (number: number, value: string) => string;
}

/** The parser of a decimal flag: the number, or a UsageError in the rule's words. */
export function decimalNumber(flag: string, rule: DecimalRule): (value: string) => number {
  const form = DECIMAL_FORMS[rule.form];
  return (value) => {
    const text = rule.form === 'plain' ? value.trim() : value;
    const n = form === undefined || form.test(text) ? Number(text) : NaN;
    if (!Number.isFinite(n)) {
      const grouped =
        rule.form === 'decimal' && /^\d{1,3}(,\d{2,3})+(\.\d+)?$/.test(value)
          ? ' (write it without grouping commas)'
          : '';
      throw refusal(flag, rule.takes, value, grouped);
    }
    const inBounds =
      (rule.min === undefined || n >= rule.min) &&
      (rule.above === undefined || n > rule.above) &&
      (rule.max === undefined || n <= rule.max);
    if (!inBounds)
      throw refusal(flag, rule.takesInBounds ?? rule.takes, value, rule.hint?.(n, value));
    return n;
  };
}

/** A flag that takes a decimal number within bounds: the handler receives it as a number. */
export function decimalOption<const Flags extends string>(
  flags: Flags,
  description: string,
  rule: DecimalRule,
) {
  const option = new Option(flags, description);
  return option.argParser(decimalNumber(longName(option), rule));
}

const MIB = 1024 * 1024;
const SIZE_UNITS: Readonly<Record<string, number>> = { '': 1, k: 1024, m: MIB, g: 1024 * MIB };

/**
 * A size in bytes: bytes, or a number with K, M or G (powers of 1024; KiB, MB and the like too),
 * from 1 byte to max; undefined for anything else.
 */
export function byteSize(text: string, max: number): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?$/i.exec(text.trim());
  if (!match) return undefined;
  const bytes = Math.floor(Number(match[1]) * SIZE_UNITS[match[2]!.toLowerCase()]!);
  return bytes >= 1 && bytes <= max ? bytes : undefined;
}

/** A flag that takes a size (200M, 1.5K, 300): the handler receives it in bytes. */
export function sizeOption<const Flags extends string>(
  flags: Flags,
  description: string,
  bounds: { max: number; takes: string },
) {
  const option = new Option(flags, description);
  const flag = longName(option);
  return option.argParser((value) => {
    const bytes = byteSize(value, bounds.max);
    if (bytes === undefined) throw refusal(flag, bounds.takes, value);
    return bytes;
  });
}

const DURATION = /^(\d+(?:\.\d+)?)(s|m|h|d)?$/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A duration flag's parser: 90, 30m, 12h, 7d (seconds without a unit), in ms up to maxMs. */
export function duration(
  flag: string,
  bounds: { maxMs: number; takes: string },
): (value: string) => number {
  return (value) => {
    const match = DURATION.exec(value.trim());
    const ms = match ? Number(match[1]) * UNIT_MS[(match[2] ?? 's') as keyof typeof UNIT_MS] : NaN;
    if (!(ms >= 0 && ms <= bounds.maxMs)) throw refusal(flag, bounds.takes, value);
    return Math.round(ms);
  };
}

/** A flag that takes a duration (90, 30m, 12h, 7d): the handler receives it in milliseconds. */
export function durationOption<const Flags extends string>(
  flags: Flags,
  description: string,
  bounds: { maxMs: number; takes: string },
) {
  const option = new Option(flags, description);
  return option.argParser(duration(longName(option), bounds));
}

/** `a, b,,c` → the items, each trimmed, the empty ones left out. */
export function commaList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

const lists = new WeakSet<Option>();

/**
 * A flag that takes a comma-separated list (`--scopes identity,income`): the handler receives the
 * items, trimmed, and checks them against what it knows. A second use replaces the list.
 */
export function listOption<const Flags extends string>(flags: Flags, description: string) {
  const option = new Option(flags, description).argParser(commaList);
  lists.add(option);
  return option;
}

/** Whether a flag was declared by listOption (completion offers it once, not again and again). */
export function isListOption(option: Option): boolean {
  return lists.has(option);
}

/** The name a refusal gives the flag: `--timeout`. */
function longName(option: Option): string {
  return option.long ?? option.flags;
}
