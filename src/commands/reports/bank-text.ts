// A bank as a cell: its name and code. Apart from report-view.ts, so that `reports list`, which
// reads its list by hand, loads no schema library (test/e2e/startup.test.ts).
export function bankText(bank: string | undefined, code: string | undefined): string {
  if (bank && code && bank !== code) return `${bank} (${code})`;
  return bank ?? code ?? '';
}
