// The named faults of `svc mock --fault NAME`, each with what it does in a few words. The CLI reads
// this table (completion, `--fault list`, a name checked before the mock is loaded) without the
// emulator, which is a bundle of its own (dist/mock.cjs); what each fault does to a request is the
// mock's own (fault-presets.ts). This file imports nothing.
export const FAULT_DESCRIPTIONS = {
  'html-502': 'a proxy answers 502 with an HTML page',
  'truncated-json': 'a 200 whose JSON body stops half-way',
  'reset-mid-reply': 'the connection is reset after part of the reply was sent',
  slow: 'every reply takes 60 s (longer than a --timeout you would set)',
  '429-once': '429 with Retry-After: 1 once, then normal replies',
  '503-twice': '503 twice, then normal replies',
  'nested-envelope': 'errors in the older nested envelope (401 invalid_api_key)',
  'not-json': 'a 200 whose body is not JSON',
  '500-always': 'every request fails with 500',
  'huge-reply': 'a valid 50 MB JSON reply to GET /v1/reports',
} as const;

export type FaultName = keyof typeof FAULT_DESCRIPTIONS;

export const isFaultName = (name: string): name is FaultName =>
  Object.hasOwn(FAULT_DESCRIPTIONS, name);
