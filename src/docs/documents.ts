// The files generated at build time from the command tree (scripts/generate-docs.mjs bundles this
// module and writes them): the three completion scripts and the man page.
import { renderMan } from './man.js';
import { HELP_TOPICS } from '../commands/help/topics.js';
import { processIO } from '../core/io.js';
import { buildProgram } from '../main.js';
import { VERSION } from '../version.js';
import { renderScript } from '../completion/render.js';
import { SCRIPT_FILES, SHELLS } from '../completion/shells.js';
import { describeProgram } from '../completion/spec.js';

export const MAN_PAGE = 'man/svc.1';

/** Path (from the package root) → content. */
export function generatedFiles(): Record<string, string> {
  // The tree is only described, never run: actions do nothing.
  const program = buildProgram({ action: () => async () => {} }, processIO());
  const spec = describeProgram(program);
  const files: Record<string, string> = {};
  for (const shell of SHELLS) files[SCRIPT_FILES[shell]] = renderScript(shell, spec, VERSION);
  files[MAN_PAGE] = renderMan(program, spec, HELP_TOPICS, VERSION);
  return files;
}
