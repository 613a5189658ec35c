// The words of schema.ts (an object kept as received, a list of strings, a text or texts, a
// number as written, a reply of any type read for one required text), and the dataset parts read
// with them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  lineItem,
  receivedData,
  receivedObject,
  seriesHolder,
  seriesPoint,
} from '../../src/api/replies/data.js';
import { object, readReply, requiredText } from '../../src/api/replies/schema.js';
import {
  anyBody,
  numeric,
  objectAsReceived as received,
  strings,
  textOrTexts as texts,
} from '../../src/api/replies/schema.js';
import { UnexpectedReplyError } from '../../src/core/errors.js';
import { ExactNumber } from '../../src/core/json/exact-number.js';
import { numberOf } from '../../src/core/json/values.js';
import { ReplyReading } from '../../src/service/reading.js';

/** The oracle of a text: strings as they are, numbers (as received) and booleans written out. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value instanceof ExactNumber) return value.text;
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean')
    return String(value);
  return undefined;
}

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

describe('the dataset parts a view reads (api/replies/data.ts)', () => {
  // What the views read by hand: the first non-null of the names as text; a value when a number
  // or a decimal text, as received.
  const first = (from: Record<string, unknown>, ...names: string[]) =>
    textOf(names.map((name) => from[name]).find((v) => v !== undefined && v !== null));
  const asReceived = (raw: unknown) =>
    raw instanceof ExactNumber || numberOf(raw) !== undefined ? raw : undefined;
  const names = fc.constantFrom('key', 'code', 'label', 'name', 'unit', 'value', 'month', 'x');
  const item = fc.dictionary(names, fc.oneof(fc.jsonValue(), fc.constant('12.50')));

  it('reads a line item as textOf and the value test did', () => {
    fc.assert(
      fc.property(item, fc.option(names, { nil: undefined }), (raw, field) => {
        const i = lineItem(field).parse(raw);
        expect(i?.selector).toEqual(field === undefined ? undefined : textOf(raw[field]));
        expect(i?.value).toEqual(asReceived(raw.value));
        expect(i?.unit).toEqual(textOf(raw.unit));
      }),
    );
  });

  it('reads a series holder and its points as pick and textOf did', () => {
    fc.assert(
      fc.property(item, names, names, names, (raw, selector, month, value) => {
        const h = seriesHolder(selector).parse(raw);
        expect(h?.label).toEqual(first(raw, 'label', 'line_item', 'name', 'title'));
        expect(h?.selector).toEqual(first(raw, selector, 'key', 'indicator', 'metric', 'code'));
        const p = seriesPoint(month, value).parse(raw);
        expect(p?.month).toEqual(textOf(raw[month]));
        expect(p?.value).toEqual(asReceived(raw[value]));
      }),
    );
  });

  it('gives `data` as received, and an object only when one', () => {
    const data = { b: 1, a: [2] };
    expect(receivedData({ data })).toBe(data);
    expect(receivedData({ data: null })).toBeNull();
    expect(receivedData([data])).toBeUndefined();
    expect(receivedObject(data)).toBe(data);
    expect(receivedObject([data])).toBeUndefined();
  });
});
