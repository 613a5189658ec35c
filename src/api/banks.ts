// THE table of bank codes: the values of the `bank` field of `POST /v1/parse` that the service's
// documentation lists (POST /v1/parse; older pages list only the first seven). `svc parse
// --bank` takes these (or `auto`) and nothing else; `svc data … bank-pnl --bank` covers 50+
// institutions that no document lists, so there an unknown code only earns a "did you mean".
// The help, the completion scripts and the checks all read this table. It imports only the
// "did you mean" helper (itself free of imports): `svc parse --help` loads it.
import { nearest } from '../core/program/suggest.js';

export interface Bank {
  /** The code as the documentation writes it (upper case). */
  readonly code: string;
  readonly name: string;
  /** A digital wallet, not a bank: its statements are parsed, but it has no bank data. */
  readonly wallet?: true;
  /** The documentation marks it beta. */
  readonly beta?: true;
}

export const BANKS: readonly Bank[] = [
  { code: 'NABIL', name: 'Nabil Bank' },
  { code: 'NIC_ASIA', name: 'NIC Asia Bank' },
  { code: 'NIMB', name: 'Nepal Investment Mega Bank' },
  { code: 'NMB', name: 'NMB Bank' },
  { code: 'KUMARI', name: 'Kumari Bank' },
  { code: 'SIDDHARTHA', name: 'Siddhartha Bank' },
  { code: 'PRABHU', name: 'Prabhu Bank' },
  { code: 'GARIMA', name: 'Garima Bikas Bank' },
  { code: 'GLOBAL_IME', name: 'Global IME Bank', beta: true },
  { code: 'ESEWA', name: 'eSewa', wallet: true },
  { code: 'KHALTI', name: 'Khalti', wallet: true },
];

/** `svc parse --bank auto` (the default): the service finds the bank itself. */
export const AUTO_BANK = 'auto';

export const BANK_CODES: readonly string[] = BANKS.map((bank) => bank.code);

/** The banks of the per-bank datasets: the wallets are no banks. */
export const DATA_BANK_CODES: readonly string[] = BANKS.filter((bank) => !bank.wallet).map(
  (bank) => bank.code,
);

/** A bank's name for a completion menu: `Global IME Bank (beta)`. */
export function bankDescription(bank: Bank): string {
  return bank.name + (bank.wallet ? ' (wallet)' : '') + (bank.beta ? ' (beta)' : '');
}

/**
 * What a typed code is: a documented one in the form the documentation writes it (`nabil` is
 * NABIL, `Auto` is auto: codes are written in one case only), or unknown with the nearest
 * documented codes.
 */
export function readBankCode(
  value: string,
  codes: readonly string[],
  withAuto: boolean,
): { code: string } | { unknown: string; near: string[] } {
  const trimmed = value.trim();
  if (withAuto && trimmed.toLowerCase() === AUTO_BANK) return { code: AUTO_BANK };
  const known = codes.find((code) => code === trimmed.toUpperCase());
  if (known) return { code: known };
  return {
    unknown: value,
    near: nearest(trimmed.replace(/[\s-]+/g, '_'), withAuto ? [...codes, AUTO_BANK] : codes),
  };
}
