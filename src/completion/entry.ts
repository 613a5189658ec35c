// The second entry of the bundle, built as dist/complete.cjs: `svc __complete …`, asked by the
// completion scripts while the user presses TAB. bin/svc.cjs loads it instead of the program, so a
// completion loads no commander, HTTP, prompt or schema code and costs about one bare Node start.
import { completeCommand } from './dynamic.js';

/** `writeOut` is the launcher's direct write to stdout (it spares loading Node's streams). */
export function runComplete(
  argv: readonly string[],
  writeOut: (text: string) => void = (text) => process.stdout.write(text),
): number {
  return completeCommand(argv, process.env, writeOut, (text) => process.stderr.write(text));
}
