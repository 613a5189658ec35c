// A flag that takes one of a few values, declared once (as gh's cmdutil.StringEnumFlag): the list
// given here is the only one. From it
// - commander refuses any other value before the command runs, and SvcCommand phrases it
//   (`--status takes one of complete, processing, failed, not "done"`, the nearest as "did you
//   mean", exit 2, nothing sent);
// - the help writes `(one of: complete, processing, failed)` after the description (svc-help.ts);
// - completion offers the values (src/completion/values.ts reads them as `argChoices`);
// - the handler's option is typed as their union (extra-typings infers it from `.choices()`).
import { Option } from '@commander-js/extra-typings';

export function enumOption<const Flags extends string, const Values extends readonly string[]>(flags: Flags, description: string, values: Values) {
  // The choices are set before the option is added to a command, whose parsers refuse in svc's
  // words (SvcCommand.addOption).
  return new Option(flags, description).choices(values);
}
