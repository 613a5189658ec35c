// For property tests of checks that refuse bad input with a usage error (exit 2) and nothing else.
import { expect } from 'vitest';
import { EXIT, UsageError } from '../../src/core/errors.js';

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
