// How an address is shown in a message: never with the user name or password it carries.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { redirectUriProblem } from '../../src/api/connect.js';
import { checkBaseUrl } from '../../src/config/resolve.js';
import { shownUrl } from '../../src/core/urls.js';

describe('shownUrl', () => {
  it('replaces what comes before @ in the authority, parsed or not', () => {
    expect(shownUrl('https://user:hunter2@api.example.com/x')).toBe(
      'https://***@api.example.com/x',
    );
    expect(shownUrl('http://ghp_token@127.0.0.1:8787')).toBe('http://***@127.0.0.1:8787');
    expect(shownUrl('http://a:b@c@d/')).toBe('http://***@d/');
    expect(shownUrl('ftp://a:b@c')).toBe('ftp://***@c');
    expect(shownUrl('https://api.example.com/a@b')).toBe('https://api.example.com/a@b');
    expect(shownUrl('not a url')).toBe('not a url');
  });

  it('never shows a password, whatever it holds', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_.~!$&'()*+,;=:%-]{6,30}$/), (password) => {
        fc.pre(!/[/?#@]/.test(password));
        expect(shownUrl(`https://user:${password}@api.example.com/v`)).not.toContain(password);
      }),
    );
  });
});

describe('messages about an address keep its password out', () => {
  const usage = (fn: () => unknown): string => {
    try {
      fn();
    } catch (error) {
      return (error as Error).message;
    }
    return '';
  };

  it('a base URL with a password is refused, the password not named', () => {
    for (const value of [
      'https://u:hunter2pw@api.example.com',
      'http://u:hunter2pw@example.com',
      'ftp://u:hunter2pw@example.com',
      'https://u:hunter2pw@api.example.com/?q=1',
    ]) {
      const message = usage(() => checkBaseUrl(value));
      expect(message).toMatch(/^the base URL "[a-z]+:\/\/\*\*\*@/);
      expect(message).not.toContain('hunter2pw');
    }
  });

  it('a redirect URI that is refused is named without its password', () => {
    expect(redirectUriProblem('http://u:hunter2pw@example.com/cb')).toBe(
      '"http://***@example.com/cb" uses http to example.com; use https (http is only for localhost, 127.0.0.1 or ::1)',
    );
  });
});
