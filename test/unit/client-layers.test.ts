// The layers of the API client (gh's RoundTrippers): given to its constructor in order, the first
// the outermost, each around the client's own sending, so a retried request passes each layer once.
import { describe, expect, it } from 'vitest';

import { ApiClient, type Layer } from '../../src/api/client.js';
import type { Transport } from '../../src/api/transport.js';
import { ReplyHeaders } from '../../src/core/reply-headers.js';

/** A layer that writes down when a request enters it and when its reply or failure leaves it. */
function recording(name: string, log: string[]): Layer {
  return (next) => async (spec) => {
    log.push(`${name} → ${spec.method} ${spec.path}`);
    try {
      const reply = await next(spec);
      log.push(`${name} ← ${reply.status}`);
      return reply;
    } catch (error) {
      log.push(`${name} ✗ ${(error as Error).constructor.name}`);
      throw error;
    }
  };
}

function clientWith(statuses: number[], layers: Layer[], log: string[]): ApiClient {
  const transport: Transport = async (request) => {
    const status = statuses.shift() ?? 200;
    log.push(`transport ${request.method} ${request.url.pathname} → ${status}`);
    return {
      status,
      headers: new ReplyHeaders([['content-type', 'application/json']]),
      raw: status === 200 ? '{"data":[]}' : '{"error_code":"SERVICE_UNAVAILABLE"}',
    };
  };
  return new ApiClient({
    baseUrl: 'https://api.example.com',
    apiKey: 'svc_sk_test_00000000000000000000000000000000',
    userAgent: 'svc/test',
    timeoutMs: 5_000,
    retries: 2,
    env: {},
    signal: new AbortController().signal,
    transport,
    sleep: async () => {},
    layers,
  });
}

describe('the layers of the API client', () => {
  it('run outermost first, around the retries: a request retried twice passes each layer once', async () => {
    const log: string[] = [];
    const client = clientWith(
      [503, 503, 200],
      [recording('outer', log), recording('inner', log)],
      log,
    );
    await client.request({ method: 'GET', path: '/v1/reports' });
    expect(log).toEqual([
      'outer → GET /v1/reports',
      'inner → GET /v1/reports',
      'transport GET /v1/reports → 503',
      'transport GET /v1/reports → 503',
      'transport GET /v1/reports → 200',
      'inner ← 200',
      'outer ← 200',
    ]);
  });

  it('see the failure the client decoded, innermost first', async () => {
    const log: string[] = [];
    const client = clientWith([400], [recording('outer', log), recording('inner', log)], log);
    await expect(client.request({ method: 'GET', path: '/v1/reports' })).rejects.toThrow();
    expect(log.slice(-2)).toEqual(['inner ✗ ApiError', 'outer ✗ ApiError']);
  });

  it('none: the client sends by itself', async () => {
    const log: string[] = [];
    const reply = await clientWith([200], [], log).request({ method: 'GET', path: '/v1/reports' });
    expect(reply.body).toEqual({ data: [] });
    expect(log).toEqual(['transport GET /v1/reports → 200']);
  });
});
