// Completion values read from cached replies come from the service, and bash inserts a completion
// unquoted: a value that the shell would expand (`ov$(touch x)`) must never be offered.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { completeCommand, dynamicValues } from '../../src/completion/dynamic.js';
import { ReplyCache } from '../../src/service/cache.js';

const home = mkdtempSync(join(tmpdir(), 'svc-completion-safety-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const BASE_URL = 'http://127.0.0.1:9';
const env = { SVC_CONFIG_DIR: join(home, 'config'), SVC_CACHE_DIR: join(home, 'cache') };
mkdirSync(env.SVC_CONFIG_DIR, { recursive: true });
writeFileSync(
  join(env.SVC_CONFIG_DIR, 'config.json'),
  JSON.stringify({ current_profile: 'default', profiles: { default: { base_url: BASE_URL } } }),
);

/** Values a hostile or broken service could send, each of which a shell would act on. */
const HOSTILE = [
  'ov$(touch x)',
  '`touch x`',
  'a;touch x',
  'a b',
  "it's",
  'a|b',
  'a&b',
  '$HOME',
  '~root',
  'a*',
  'x>y',
  '"q"',
  '\\n',
  'a\tb',
  '(x)',
  '{a,b}',
  'a!b',
  '#c',
];
const SAFE = [
  'overall',
  'food.and-beverages',
  'rate:5y',
  'user@bank',
  '10%',
  'a+b',
  'x,y',
  'path/to',
  'k=v',
];

function cache(path: string, body: unknown): void {
  const url = `${BASE_URL}${path}`;
  new ReplyCache(env.SVC_CACHE_DIR, 'default').write({
    url,
    fetched_at: new Date().toISOString(),
    as_of: null,
    raw: JSON.stringify(body),
  });
}

describe('completion values from cached replies', () => {
  it('offers series selectors made of plain characters only', () => {
    const indicators = [...SAFE, ...HOSTILE].map((indicator) => ({
      indicator,
      label: 'an indicator',
    }));
    cache('/v1/data/cbank/cpi/latest', { data: { indicators } });
    const offered = dynamicValues({ source: 'data-selectors', family: 'cpi' }, env).map(
      (c) => c.value,
    );
    expect(offered).toEqual(SAFE);
  });

  it('writes no shell metacharacter on the lines the completion scripts read', () => {
    cache('/v1/data/cbank/cpi/latest', {
      data: { indicators: [{ indicator: 'ov$(touch x)' }, { indicator: 'overall' }] },
    });
    let out = '';
    expect(
      completeCommand(
        ['data-selectors', 'cpi'],
        env,
        (text) => (out += text),
        () => {},
      ),
    ).toBe(0);
    expect(
      out
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('\t')[0]),
    ).toEqual(['overall']);
  });

  it('offers scenario names made of plain characters only', () => {
    cache('/v1/sandbox/scenarios', {
      scenarios: [{ scenario: 'salaried' }, { scenario: 'ov$(touch x)' }, { name: 'a b' }],
    });
    expect(dynamicValues({ source: 'scenarios' }, env).map((c) => c.value)).toEqual(['salaried']);
  });
});
