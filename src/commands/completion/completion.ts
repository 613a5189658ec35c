import type { Command } from 'commander';
import { renderScript } from '../../docs/completion/render.js';
import { describeProgram } from '../../docs/completion/spec.js';
import type { Shell } from '../../docs/completion/shells.js';
import type { Context } from '../../app/context.js';
import { VERSION } from '../../version.js';

/** Prints the script of a shell (commander has checked the name against SHELLS). */
export async function printCompletion(ctx: Context, program: Command, shell: string): Promise<void> {
  ctx.out(renderScript(shell as Shell, describeProgram(program), VERSION));
}
