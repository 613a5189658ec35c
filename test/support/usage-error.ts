// For property tests of checks that refuse bad input with a usage error (exit 2) and nothing else,
// and of the parsers that flags are declared with.
import type { Option } from '@commander-js/extra-typings';
import { expect } from 'vitest';

import { EXIT, UsageError } from '../../src/core/errors.js';
import { SvcCommand } from '../../src/core/program/svc-command.js';

/** Runs f and returns its value, or the UsageError it threw; any other throw fails the property. */
export function valueOrUsageError<T>(f: () => T): T | UsageError {
  try {
    return f();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(EXIT.usage);
    return error as UsageError;
  }
}

/**
 * The parser of a flag as svc runs it, once the flag is added to a command (SvcCommand.addOption):
 * its value, or a UsageError in svc's words.
 */
export function parserOf<T>(option: Option<string, undefined, undefined, T>): (text: string) => T {
  new SvcCommand('svc').addOption(option);
  return (text) => option.parseArg!(text, undefined as T);
}
