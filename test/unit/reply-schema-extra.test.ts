// The words of schema-extra.ts: an object kept as received, a list of strings, a text or texts,
// a number as written, and a reply of any type read for one required text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { object, readReply, requiredText } from '../../src/api/replies/schema.js';
import { anyBody, numeric, received, strings, texts } from '../../src/api/replies/schema-extra.js';
import { UnexpectedReplyError } from '../../src/core/errors.js';
import { ExactNumber } from '../../src/core/json/exact-number.js';
import { ReplyReading, textOf } from '../../src/core/reading.js';

describe('received', () => {
  it('gives the very object received, `__proto__` and the order of its fields kept', () => {
    const data = JSON.parse('{"b":1,"__proto__":{"x":2},"a":3}') as unknown;
    const r = object({ data: received() }).parse({ data });
    expect(r?.data).toBe(data);
    expect(Object.keys(r!.data!)).toEqual(['b', '__proto__', 'a']);
  });

  it('reads anything but an object as absent', () => {
    for (const value of [[], 'x', 1, null, new ExactNumber('1')])
      expect(object({ data: received() }).parse({ data: value })?.data).toBeUndefined();
  });
});

describe('strings', () => {
  it('is a list only when every item is a string', () => {
    const read = (value: unknown) => object({ l: strings() }).parse({ l: value })?.l;
    expect(read(['a', ''])).toEqual(['a', '']);
    expect(read([])).toEqual([]);
    for (const value of [['a', 1], 'a', null, {}]) expect(read(value)).toBeUndefined();
  });
});

describe('texts', () => {
  it('reads a value as textOf does, and a list item by item', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const read = object({ s: texts() }).parse({ s: value })?.s;
        if (Array.isArray(value)) expect(read).toEqual(value.map(textOf));
        else expect(read).toEqual(textOf(value));
      }),
    );
  });
});

describe('numeric', () => {
  it('keeps a number, an ExactNumber or a decimal string as received; anything else is absent', () => {
    const read = (value: unknown) => object({ n: numeric() }).parse({ n: value })?.n;
    const exact = new ExactNumber('1e400');
    expect(read(exact)).toBe(exact);
    expect(read(12)).toBe(12);
    expect(read(' 12.50 ')).toBe(' 12.50 ');
    for (const value of ['12a', '', true, null, [], {}]) expect(read(value)).toBeUndefined();
  });
});

describe('anyBody', () => {
  const Reply = anyBody({ id: requiredText() });
  const message = (body: unknown) => {
    try {
      readReply(new ReplyReading('POST /v1/x'), Reply, body);
    } catch (error) {
      expect(error).toBeInstanceOf(UnexpectedReplyError);
      return (error as Error).message;
    }
    return undefined;
  };

  it('names the text as missing in a body of any other type', () => {
    for (const body of [[], 'x', 1, null, {}, { id: null }])
      expect(message(body)).toBe(
        'unexpected reply to POST /v1/x: "id" should be a text, but it is missing',
      );
    expect(message({ id: '' })).toBe(
      'unexpected reply to POST /v1/x: "id" should be a text, but it is a text',
    );
    expect(message({ id: 3 })).toBe(
      'unexpected reply to POST /v1/x: "id" should be a text, but it is a number',
    );
    expect(readReply(new ReplyReading('POST /v1/x'), Reply, { id: 'r1' }).id).toBe('r1');
  });
});
