// Checks of user input that every command shares; each failure is a usage error (exit 2) and
// happens before any request.
import { InvalidArgumentError } from '@commander-js/extra-typings';

import { AUTO_BANK, BANK_CODES, readBankCode } from '../api/banks.js';
import { checkId, type Endpoint, requestNote } from '../api/endpoints.js';
import { UsageError } from '../core/errors.js';
import { oneLine } from '../core/output/format.js';
import { type Block, paragraph } from '../core/program/document.js';
import { didYouMean } from '../core/program/mistakes.js';
import { wholeNumber } from '../core/program/typed-options.js';

export { checkId };
export { examples, paragraph } from '../core/program/document.js';

/**
 * A whole number checked in the handler, where its declaration cannot check it: a flag of a server
 * that keeps its state in a --ready-file (svc mock, webhooks listen), which must learn of a bad
 * value too, and commander refuses a value before the handler opens that file. Any other number
 * flag is declared with integerOption (core/program/typed-options.ts), whose check this is.
 */
export function checkInteger(
  value: string | undefined,
  flag: string,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  try {
    return wholeNumber(min, max)(value);
  } catch (error) {
    if (!(error instanceof InvalidArgumentError)) throw error;
    throw new UsageError(`${flag} takes ${error.message}, not "${value}"`);
  }
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * What keeps a text from being a calendar date: not written YYYY-MM-DD, or no day of the calendar
 * (and why); undefined for a date.
 */
function dateFault(text: string): 'form' | { calendar: string } | undefined {
  const m = DATE.exec(text);
  if (!m) return 'form';
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12) return { calendar: 'months run from 01 to 12' };
  const days = daysInMonth(year, month);
  if (day < 1 || day > days) return { calendar: `${m[1]}-${m[2]} has days 01 to ${days}` };
  return undefined;
}

/**
 * A real calendar date written YYYY-MM-DD (2024-02-29 is; 2025-02-29, 2026-13-01 and 2026-2-28 are
 * not).
 */
export function isCalendarDate(text: string): boolean {
  return dateFault(text) === undefined;
}

/**
 * A flag's calendar date (`--since`, `--until`): a usage error that names the flag and what is
 * wrong.
 */
export function checkDate(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  const fault = dateFault(value);
  if (fault === 'form')
    throw new UsageError(
      `${flag} takes a date written YYYY-MM-DD (e.g. 2026-03-25), not "${value}"`,
    );
  if (fault) throw new UsageError(`${flag} ${value} is no date of the calendar: ${fault.calendar}`);
  return value;
}

/**
 * `--bank` of `svc parse`: auto or a documented bank code (src/api/banks.ts), in the form the
 * documentation writes it (`nabil` is sent as NABIL). Any other code is refused with the nearest
 * ones: the documentation lists the codes the service parses.
 */
export function checkBank(value: string, flag = '--bank'): string {
  const read = readBankCode(value, BANK_CODES, true);
  if ('code' in read) return read.code;
  throw new UsageError(
    `${flag} takes a bank code (${[AUTO_BANK, ...BANK_CODES].join(', ')}), not "${oneLine(value)}"`,
    didYouMean(read.near),
  );
}

/** Commander's collector of a flag given several times: `--name A --name B`. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * The end of the help of a command that sends one request: `help` (its examples, and any notes
 * after them), then the request, the key it needs and what it costs (and `also`, what else it
 * sends).
 */
export function requestHelp(endpoint: Endpoint, help: readonly Block[], also = ''): Block[] {
  return [...help, paragraph(requestNote(endpoint) + also)];
}
