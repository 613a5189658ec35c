// Which pager, and its words (docs/reference/output.md, "Pager"): --no-pager > SVC_PAGER > the
// profile's pager > PAGER > less -FRX, an empty value (or cat) meaning none; a command line split
// as a shell splits it.
import { describe, expect, it } from 'vitest';

import { resolvePager } from '../../src/config/resolve.js';
import { profileMap } from '../../src/config/store.js';
import { pagerWords } from '../../src/core/stream/pager.js';

const doc = (pager?: string) => ({
  current_profile: 'default',
  profiles: profileMap([['default', pager === undefined ? {} : { pager }]]),
});

describe('which pager', () => {
  it.each([
    [{}, {}, undefined, 'less -FRX'],
    [{}, { PAGER: 'more' }, undefined, 'more'],
    [{}, { PAGER: 'more' }, 'less -R', 'less -R'],
    [{}, { PAGER: 'more', SVC_PAGER: 'most' }, 'less -R', 'most'],
    [{ pager: false }, { SVC_PAGER: 'most' }, 'less -R', undefined],
    [{}, { SVC_PAGER: '' }, 'less -R', undefined],
    [{}, { PAGER: 'more' }, '', undefined],
    [{}, { PAGER: '' }, undefined, undefined],
    [{}, { PAGER: ' cat ' }, undefined, undefined],
    [{ profile: 'missing' }, {}, 'less -R', 'less -FRX'],
  ])('flags %j, environment %j, profile %j: %j', (flags, env, saved, expected) => {
    expect(resolvePager(flags, env, doc(saved))).toBe(expected);
  });
});

describe("a pager's words", () => {
  it.each([
    ['less -FRX', ['less', '-FRX']],
    ['  less\t-R  ', ['less', '-R']],
    ["'/opt/my pager/p' -x", ['/opt/my pager/p', '-x']],
    ['"/opt/my pager/p" "a \\"b\\" \\\\ \\n"', ['/opt/my pager/p', 'a "b" \\ \\n']],
    ['/opt/my\\ pager/p', ['/opt/my pager/p']],
    ['a\'b\'"c"d', ['abcd']],
    ["''", ['']],
    ["less '-R", undefined],
    ['less "-R', undefined],
    ['   ', undefined],
  ])('%j: %j', (line, words) => {
    expect(pagerWords(line)).toEqual(words);
  });
});
