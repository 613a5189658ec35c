// Checks of user input that every command shares; each failure is a usage error (exit 2) and
// happens before any request.
import { AUTO_BANK, BANK_CODES, readBankCode } from '../api/banks.js';
import { checkId, requestNote, type Endpoint } from '../api/endpoints.js';
import { UsageError } from '../core/errors.js';
import { oneLine } from '../core/output/format.js';
import { didYouMean } from '../core/report-error.js';

export { checkId };

/** A path with one id in it: `idPath('/v1/reports', id, '/auth')`. */
export function idPath(prefix: string, id: string, suffix = ''): string {
  return `${prefix}/${encodeURIComponent(checkId(id))}${suffix}`;
}

export function checkInteger(value: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`${flag} takes a whole number from ${min} to ${max}, not "${value}"`);
  }
  return Number(value);
}

/**
 * `--bank` of `svc parse`: auto or a documented bank code (src/api/banks.ts), in the form the
 * documentation writes it (`nabil` is sent as NABIL). Any other code is refused with the nearest
 * ones: the documentation lists the codes the service parses.
 */
export function checkBank(value: string, flag = '--bank'): string {
  const read = readBankCode(value, BANK_CODES, true);
  if ('code' in read) return read.code;
  throw new UsageError(`${flag} takes a bank code (${[AUTO_BANK, ...BANK_CODES].join(', ')}), not "${oneLine(value)}"`, didYouMean(read.near));
}

/** Commander's collector of a flag given several times: `--name A --name B`. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** The help's last lines: the request a command sends, the key it needs and what it costs. */
export function requestHelp(endpoint: Endpoint): string {
  return '\n' + requestNote(endpoint);
}

export function examples(...lines: string[]): string {
  return '\nExamples:\n' + lines.map((line) => `  $ ${line}`).join('\n');
}
