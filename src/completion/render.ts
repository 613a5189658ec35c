// One completion script per shell, all rendered from the same description of the command tree.
import { renderBash } from './bash.js';
import { renderFish } from './fish.js';
import type { Shell } from './shells.js';
import type { ProgramSpec } from './spec.js';
import { renderZsh } from './zsh.js';

const RENDERERS: Readonly<Record<Shell, (spec: ProgramSpec, version: string) => string>> = {
  bash: renderBash,
  zsh: renderZsh,
  fish: renderFish,
};

export function renderScript(shell: Shell, spec: ProgramSpec, version: string): string {
  return RENDERERS[shell](spec, version);
}
