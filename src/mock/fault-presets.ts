// Named faults for `svc mock --fault NAME`: the ways a real service, proxy or network misbehaves,
// each as fault specs applied to every /v1 request. Tests and people use the same names; the names
// and their descriptions are in fault-names.ts, which the CLI reads without the mock.
import { FAULT_DESCRIPTIONS, type FaultName } from './fault-names.js';
import type { FaultSpec } from './faults.js';

export interface FaultPreset {
  description: string;
  specs: FaultSpec[];
}

/** Enough uses to last a whole session. */
const ALWAYS = 1_000_000;

const flatError = (code: string, type: string, message: string) => ({
  error_code: code,
  error_type: type,
  error_message: message,
});

const SPECS: Record<FaultName, FaultSpec[]> = {
  'html-502': [
    {
      path: '/v1/',
      times: ALWAYS,
      status: 502,
      headers: { 'Content-Type': 'text/html' },
      body: '<html><body><h1>502 Bad Gateway</h1></body></html>',
    },
  ],
  'truncated-json': [
    {
      path: '/v1/',
      times: ALWAYS,
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      body: '{"data":[{"report_id":"rpt_',
    },
  ],
  'reset-mid-reply': [
    { path: '/v1/', times: ALWAYS, status: 200, json: { data: [] }, cut_after_bytes: 5 },
  ],
  slow: [{ path: '/v1/', times: ALWAYS, delay_ms: 60_000 }],
  '429-once': [
    {
      path: '/v1/',
      times: 1,
      status: 429,
      headers: { 'Retry-After': '1' },
      error: flatError('RATE_LIMITED', 'RATE_LIMIT_ERROR', 'Too many requests.'),
    },
  ],
  '503-twice': [
    {
      path: '/v1/',
      times: 2,
      status: 503,
      error: flatError('SERVICE_UNAVAILABLE', 'API_ERROR', 'The service is briefly unavailable.'),
    },
  ],
  'nested-envelope': [
    {
      path: '/v1/',
      times: ALWAYS,
      status: 401,
      json: { error: { code: 'invalid_api_key', message: 'Key does not exist.' } },
    },
  ],
  'not-json': [
    {
      path: '/v1/',
      times: ALWAYS,
      status: 200,
      headers: { 'Content-Type': 'text/plain' },
      body: 'OK',
    },
  ],
  '500-always': [
    {
      path: '/v1/',
      times: ALWAYS,
      status: 500,
      error: flatError('INTERNAL_ERROR', 'API_ERROR', 'Something went wrong on our side.'),
    },
  ],
  'huge-reply': [
    {
      method: 'GET',
      path: '/v1/reports',
      times: ALWAYS,
      status: 200,
      huge_report_list_bytes: 50 * 1024 * 1024,
    },
  ],
};

export const FAULT_PRESETS: Record<string, FaultPreset> = Object.fromEntries(
  Object.entries(SPECS).map(([name, specs]) => [
    name,
    { description: FAULT_DESCRIPTIONS[name as FaultName], specs },
  ]),
);
