// Ids `.` and `..` would leave their place in the URL (`reports counterparties ..` became `GET
// /v1/counterparties`): refused before any request, exit 2 (docs/reference/reliability.md,
// "Limits").
import { describe, expect, it } from 'vitest';

import { STACK_LINE, useWorld } from './harness.js';

const world = useWorld();

describe('ids . and ..', () => {
  it.each([
    [['reports', 'counterparties', '..']],
    [['reports', 'get', '.']],
    [['reports', 'get', '..']],
    [['reports', 'recurring', '..']],
    [['match', '..', '--name', 'Ram']],
    [['sandbox', 'fire', '..']],
  ])('svc %j: exit 2 and no request', async (args) => {
    const r = await world.svc(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: the report id "\.\.?" is not an id: "\." and "\.\." name a folder of the URL\n$/,
    );
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(await world.requests()).toEqual([]);
  });

  it('an id of three dots is an id like any other, sent in its place', async () => {
    const r = await world.svc(['reports', 'get', '...']);
    expect(r.code).toBe(5);
    expect((await world.requests()).map((q) => q.path)).toEqual(['/v1/reports/...']);
  });
});
