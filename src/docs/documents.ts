// The files generated at build time from the command tree (scripts/generate-docs.mjs bundles this
// module and writes them): the three completion scripts and the man page, and the help topics'
// blocks in the reference pages under docs/.
import { HELP_TOPICS } from '../commands/help/topics.js';
import { completionScripts } from '../core/completion/render.js';
import { describeProgram } from '../core/completion/spec.js';
import { processIO } from '../core/io.js';
import { buildProgram } from '../main.js';
import { VERSION } from '../version.js';
import { renderMan } from './man.js';
import { type GeneratedBlock, spliceBlock, topicBlocks } from './markdown.js';

export const MAN_PAGE = 'man/svc.1';

// The tree is only described, never run: actions do nothing.
const describedProgram = () => buildProgram({ action: () => async () => {} }, processIO());

/** Path (from the package root) → content. */
export function generatedFiles(): Record<string, string> {
  const program = describedProgram();
  const spec = describeProgram(program);
  return {
    ...completionScripts(spec, VERSION),
    [MAN_PAGE]: renderMan(program, spec, HELP_TOPICS, VERSION),
  };
}

/** Each help topic as Markdown, with the page it is written into. */
export function generatedBlocks(): GeneratedBlock[] {
  return topicBlocks(describedProgram(), HELP_TOPICS);
}

export { spliceBlock };
