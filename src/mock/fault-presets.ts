// Named faults for `svc mock --fault NAME`: the ways a real service, proxy or network misbehaves,
// each as fault specs applied to every /v1 request. Tests and people use the same names.
import type { FaultSpec } from './faults.js';

export interface FaultPreset {
  description: string;
  specs: FaultSpec[];
}

/** Enough uses to last a whole session. */
const ALWAYS = 1_000_000;

const flatError = (code: string, type: string, message: string) => ({ error_code: code, error_type: type, error_message: message });

export const FAULT_PRESETS: Record<string, FaultPreset> = {
  'html-502': {
    description: 'a proxy answers 502 with an HTML page',
    specs: [{ path: '/v1/', times: ALWAYS, status: 502, headers: { 'Content-Type': 'text/html' }, body: '<html><body><h1>502 Bad Gateway</h1></body></html>' }],
  },
  'truncated-json': {
    description: 'a 200 whose JSON body stops half-way',
    specs: [{ path: '/v1/', times: ALWAYS, status: 200, headers: { 'Content-Type': 'application/json' }, body: '{"data":[{"report_id":"rpt_' }],
  },
  'reset-mid-reply': {
    description: 'the connection is reset after part of the reply was sent',
    specs: [{ path: '/v1/', times: ALWAYS, status: 200, json: { data: [] }, cut_after_bytes: 5 }],
  },
  slow: {
    description: 'every reply takes 60 s (longer than a --timeout you would set)',
    specs: [{ path: '/v1/', times: ALWAYS, delay_ms: 60_000 }],
  },
  '429-once': {
    description: '429 with Retry-After: 1 once, then normal replies',
    specs: [{ path: '/v1/', times: 1, status: 429, headers: { 'Retry-After': '1' }, error: flatError('RATE_LIMITED', 'RATE_LIMIT_ERROR', 'Too many requests.') }],
  },
  '503-twice': {
    description: '503 twice, then normal replies',
    specs: [{ path: '/v1/', times: 2, status: 503, error: flatError('SERVICE_UNAVAILABLE', 'API_ERROR', 'The service is briefly unavailable.') }],
  },
  'nested-envelope': {
    description: 'errors in the older nested envelope (401 invalid_api_key)',
    specs: [{ path: '/v1/', times: ALWAYS, status: 401, json: { error: { code: 'invalid_api_key', message: 'Key does not exist.' } } }],
  },
  'not-json': {
    description: 'a 200 whose body is not JSON',
    specs: [{ path: '/v1/', times: ALWAYS, status: 200, headers: { 'Content-Type': 'text/plain' }, body: 'OK' }],
  },
  '500-always': {
    description: 'every request fails with 500',
    specs: [{ path: '/v1/', times: ALWAYS, status: 500, error: flatError('INTERNAL_ERROR', 'API_ERROR', 'Something went wrong on our side.') }],
  },
  'huge-reply': {
    description: 'a valid 50 MB JSON reply to GET /v1/reports',
    specs: [{ method: 'GET', path: '/v1/reports', times: ALWAYS, status: 200, huge_report_list_bytes: 50 * 1024 * 1024 }],
  },
};
