// What a flag asks of the others given with it, declared with the flag: another it needs
// (`--column needs --file`) or one it cannot go with (commander's `.conflicts()`). Each carries
// its refusal in svc's words, as commander's own ("option '--a' cannot be used with option '--b'")
// would not do; SvcCommand checks them where commander checks conflicts, after the flags are read
// and before the command runs, flag by flag in the order they are declared.

/** The part of commander's Option a relation needs. */
interface RelatedOption {
  conflicts(names: string | string[]): unknown;
}

export interface Relation {
  readonly kind: 'needs' | 'conflicts';
  /** The other flag, by the name its value has among the options (`file`, `dryRun`). */
  readonly other: string;
  /** The refusal, a usage error (exit 2), and the lines of advice after it. */
  readonly message: string;
  readonly hints?: readonly string[];
}

const declared = new WeakMap<object, Relation[]>();

function relate<Target extends RelatedOption>(option: Target, relation: Relation): Target {
  declared.set(option, [...(declared.get(option) ?? []), relation]);
  return option;
}

/** The flag is refused, with `message`, unless `other` is given too. */
export function needs<Target extends RelatedOption>(
  option: Target,
  other: string,
  message: string,
): Target {
  return relate(option, { kind: 'needs', other, message });
}

/** The flag is refused, with `message`, when `other` is given too (commander's `.conflicts()`). */
export function conflicts<Target extends RelatedOption>(
  option: Target,
  other: string,
  message: string,
  hints?: readonly string[],
): Target {
  option.conflicts(other);
  return relate(option, { kind: 'conflicts', other, message, hints });
}

/** The relations a flag declares, in the order declared. */
export function relationsOf(option: object): readonly Relation[] {
  return declared.get(option) ?? [];
}
