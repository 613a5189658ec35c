// Questions for a person at a terminal. Callers check Context.canPrompt first: a script never
// gets a prompt. The questions are written to stderr so stdout stays clean.
import type { IO } from './io.js';

export async function askText(io: IO, message: string, options: { default?: string; validate?: (value: string) => true | string } = {}): Promise<string> {
  const { input } = await import('@inquirer/prompts');
  const value = await input(
    { message, default: options.default, validate: options.validate },
    { input: io.stdin, output: io.stderr },
  );
  return value.trim();
}

export async function askSecret(io: IO, message: string, validate?: (value: string) => true | string): Promise<string> {
  const { password } = await import('@inquirer/prompts');
  const value = await password({ message, mask: '•', validate }, { input: io.stdin, output: io.stderr });
  return value.trim();
}
