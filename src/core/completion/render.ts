// One completion script per shell, all rendered from the same description of the command tree, and
// the file each is committed as under completions/ (written at build time by
// src/docs/documents.ts).
import { renderBash } from './bash.js';
import { renderFish } from './fish.js';
import { type Shell, SHELLS } from './shells.js';
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

export const SCRIPT_FILES: Readonly<Record<Shell, string>> = {
  bash: 'completions/svc.bash',
  zsh: 'completions/_svc',
  fish: 'completions/svc.fish',
};

/** The scripts of every shell: path from the package root → content. */
export function completionScripts(spec: ProgramSpec, version: string): Record<string, string> {
  return Object.fromEntries(
    SHELLS.map((shell) => [SCRIPT_FILES[shell], renderScript(shell, spec, version)]),
  );
}
