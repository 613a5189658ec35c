// The questions of a person at a terminal, asked with @inquirer on the IO's stdin and written to
// its stderr, so stdout stays clean. Loaded only when a command asks something, from the file of
// the packages apart from the program (core/external.ts). One package per kind of question, not
// @inquirer/prompts, which would bundle the editor prompt and iconv-lite too.
import {
  importCheckbox,
  importConfirm,
  importInput,
  importPassword,
  importSearch,
} from '../core/external.js';
import type { IO } from '../core/io.js';
import type { Prompter } from './services.js';

export function terminalPrompter(io: IO): Prompter {
  const streams = { input: io.stdin, output: io.stderr };
  return {
    async text(message, options = {}) {
      const { default: input } = await importInput();
      return (
        await input({ message, default: options.default, validate: options.validate }, streams)
      ).trim();
    },
    async secret(message, validate) {
      const { default: password } = await importPassword();
      // Without toggleMask, Ctrl+T would show the key in clear.
      return (await password({ message, mask: '•', toggleMask: false, validate }, streams)).trim();
    },
    async checkbox(message, choices) {
      const { default: checkbox } = await importCheckbox();
      return checkbox(
        {
          message,
          choices: choices.map((c) => ({
            value: c.value,
            name: c.name ?? c.value,
            short: c.short,
          })),
          required: true,
        },
        streams,
      );
    },
    async search(message, source) {
      const { default: search } = await importSearch();
      return search(
        {
          message,
          pageSize: 12,
          source: async (term) =>
            source(term).map((c) => ({
              value: c.value,
              name: c.name ?? c.value,
              short: c.short,
              description: c.description,
            })),
        },
        streams,
      );
    },
    async confirm(message, defaultAnswer) {
      const { default: confirm } = await importConfirm();
      return confirm({ message, default: defaultAnswer }, streams);
    },
  };
}
