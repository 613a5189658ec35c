// The names `svc sandbox create --scenario` takes. The service lists them (`GET
// /v1/sandbox/scenarios`) in a shape no document shows, so they are read from any form: names in
// lists, or objects naming one under `scenario`, `name`, `id` or `key`. Before any list was
// fetched, completion offers the names the documents give. Kept free of imports: the completion
// entry point loads this module on every TAB.

export interface ScenarioName {
  value: string;
  description: string;
}

/**
 * The scenarios the service's documentation names; the last error scenario's full name is not
 * shown.
 */
export const DOCUMENTED_SCENARIOS: readonly ScenarioName[] = [
  { value: 'salaried', description: 'steady salary, growing balance, light EMI (the default)' },
  { value: 'thin_file', description: 'little history, no salary' },
  { value: 'high_risk', description: 'falling balance, overdraft, heavy EMI' },
  { value: 'remittance', description: 'foreign inflow is the main income' },
  { value: 'error_unsupported_bank', description: 'fails: unsupported bank' },
  { value: 'error_unsupported_document', description: 'fails: unsupported document' },
  { value: 'error_password_required', description: 'fails: the PDF needs a password' },
];

const NAME = /^[a-z][a-z0-9_]{0,63}$/;
const NAME_FIELDS = ['scenario', 'name', 'id', 'key'];
const MAX_DEPTH = 6;

/** Every scenario name a reply holds, in order, once each. */
export function scenarioNames(body: unknown): ScenarioName[] {
  const found = new Map<string, string>();
  collect(body, 0, found);
  return [...found].map(([value, description]) => ({ value, description }));
}

function collect(value: unknown, depth: number, found: Map<string, string>): void {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) {
      if (typeof item === 'string' && NAME.test(item)) found.set(item, found.get(item) ?? '');
      else collect(item, depth + 1, found);
    }
    return;
  }
  const record = value as Record<string, unknown>;
  const name = NAME_FIELDS.map((field) => record[field]).find(
    (v): v is string => typeof v === 'string' && NAME.test(v),
  );
  if (name !== undefined && depth > 0) {
    const description = typeof record.description === 'string' ? record.description : '';
    found.set(name, description);
    return;
  }
  for (const child of Object.values(record)) collect(child, depth + 1, found);
}
