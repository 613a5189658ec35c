// `svc completion SHELL`: the script of a shell, rendered from the program as it runs, the same
// text the build commits under completions/ (src/docs/documents.ts).
import type { CommandUnknownOpts } from '@commander-js/extra-typings';

import type { Context } from '../../app/context.js';
import { renderScript } from '../../core/completion/render.js';
import type { Shell } from '../../core/completion/shells.js';
import { describeProgram } from '../../core/completion/spec.js';
import { VERSION } from '../../version.js';

/** Prints the script of a shell (commander has checked the name against SHELLS). */
export async function printCompletion(
  ctx: Context,
  program: CommandUnknownOpts,
  shell: string,
): Promise<void> {
  ctx.out(renderScript(shell as Shell, describeProgram(program), VERSION));
}
