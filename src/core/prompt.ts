// The questions of a person at a terminal, asked with @inquirer on the IO's stdin and written to
// its stderr, so stdout stays clean. Loaded only when a command asks something.
import type { IO } from './io.js';
import type { Prompter } from './services.js';

export function terminalPrompter(io: IO): Prompter {
  const streams = { input: io.stdin, output: io.stderr };
  return {
    async text(message, options = {}) {
      const { input } = await import('@inquirer/prompts');
      return (await input({ message, default: options.default, validate: options.validate }, streams)).trim();
    },
    async secret(message, validate) {
      const { password } = await import('@inquirer/prompts');
      return (await password({ message, mask: '•', validate }, streams)).trim();
    },
    async checkbox(message, choices) {
      const { checkbox } = await import('@inquirer/prompts');
      return checkbox({ message, choices: choices.map((c) => ({ value: c.value, name: c.name ?? c.value, short: c.short })), required: true }, streams);
    },
    async search(message, source) {
      const { search } = await import('@inquirer/prompts');
      return search(
        { message, pageSize: 12, source: async (term) => source(term).map((c) => ({ value: c.value, name: c.name ?? c.value, short: c.short, description: c.description })) },
        streams,
      );
    },
    async confirm(message, defaultAnswer) {
      const { confirm } = await import('@inquirer/prompts');
      return confirm({ message, default: defaultAnswer }, streams);
    },
  };
}
