// The mock's merchant directory: the fixture's promises (terminal numbers, MCCs, cities), name
// normalisation and fuzzy name lookups.
import { describe, expect, it } from 'vitest';

import merchantsJson from '../../src/mock/fixtures/merchants.json' with { type: 'json' };
import { MerchantDirectory, merchantDirectory } from '../../src/mock/merchants/directory.js';
import { editDistance, merchantNameForms, similarity } from '../../src/mock/merchants/normalise.js';

const file = merchantsJson;
const directory = merchantDirectory();

describe('the merchant fixture', () => {
  it('holds a few thousand terminals of 16 or more digits, each in one place', () => {
    const terminals = file.merchants.flatMap((m) => m.terminals);
    expect(terminals.length).toBeGreaterThan(2000);
    expect(new Set(terminals).size).toBe(terminals.length);
    for (const terminal of terminals) expect(terminal).toMatch(/^[1-9]\d{15,}$/);
  });

  it('gives every merchant a clean name, a four-digit MCC, a category and a Nepali city', () => {
    const cities = new Set(file.merchants.map((m) => m.city));
    expect(cities).toContain('Kathmandu');
    expect(cities).toContain('Pokhara');
    for (const m of file.merchants) {
      expect(m.merchant).toMatch(/^[A-Z][A-Za-z ]+[a-z]$/);
      expect(m.merchant).not.toMatch(/\b(Pvt|Ltd|Limited)\b/);
      expect(m.mcc).toMatch(/^\d{4}$/);
      expect(m.category).toMatch(/^[a-z_]+$/);
    }
  });

  it('has no two merchants that normalise to the same name (the directory refuses that)', () => {
    expect(directory.size.merchants).toBe(file.merchants.length);
    const twins = {
      source: 's',
      merchants: [
        file.merchants[0]!,
        {
          ...file.merchants[0]!,
          merchant: `${file.merchants[0]!.merchant} Pvt. Ltd.`,
          terminals: [],
        },
      ],
    };
    expect(() => new MerchantDirectory(twins)).toThrow(/normalise to/);
  });
});

describe('merchantNameForms', () => {
  it.each([
    ['Shrestha Kirana Pasal', 'shrestha kirana'],
    ['SHRESTHA KIRANA PASAL PVT. LTD.', 'shrestha kirana'],
    ['M/S Shrestha Kirana Traders', 'shrestha kirana'],
    ['Shrestha Kirana (P) Ltd', 'shrestha kirana'],
    ['Shrestha Kirana P. Ltd.', 'shrestha kirana'],
    ['Shrestha Kirana Private Limited', 'shrestha kirana'],
    ['  shrestha,  kirana  store ', 'shrestha kirana'],
    ["Ram's Café & Bakery", 'rams cafe bakery'],
    ['Store', 'store'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(merchantNameForms(input).normalised).toBe(expected);
  });

  it('keeps the noise words in the plain form, as a typo may hide one', () => {
    expect(merchantNameForms('M/S Shrestha Kirana Stor')).toEqual({
      normalised: 'shrestha kirana stor',
      plain: 'shrestha kirana stor',
    });
    expect(merchantNameForms('Shrestha Kirana Pasal Pvt. Ltd.')).toEqual({
      normalised: 'shrestha kirana',
      plain: 'shrestha kirana pasal pvt ltd',
    });
  });
});

describe('edit distance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
    expect(similarity('abcd', 'abcx')).toBe(0.75);
  });
});

describe('MerchantDirectory', () => {
  const entry = file.merchants.find(
    (m) => m.terminals.length >= 2 && m.merchant.split(' ').length >= 3,
  )!;

  it('resolves every terminal of a merchant to that merchant', () => {
    for (const terminal of entry.terminals) {
      expect(directory.resolveTerminal(terminal)).toEqual({
        input: terminal,
        type: 'terminal',
        matched: true,
        merchant: entry.merchant,
        mcc: entry.mcc,
        category: entry.category,
        city: entry.city,
        terminal,
      });
    }
  });

  it('reads a terminal written with spaces or dashes, and echoes the input as given', () => {
    const spaced = entry.terminals[0]!.replace(/(\d{4})(?=\d)/g, '$1 ');
    expect(directory.resolveTerminal(spaced)).toMatchObject({
      input: spaced,
      matched: true,
      terminal: entry.terminals[0],
    });
  });

  it('answers an unknown terminal as not matched, with no merchant fields', () => {
    expect(directory.resolveTerminal('1000000000000000')).toEqual({
      input: '1000000000000000',
      type: 'terminal',
      matched: false,
    });
  });

  it.each([
    (name: string) => name,
    (name: string) => name.toUpperCase(),
    (name: string) => `${name} Pvt. Ltd.`,
    (name: string) => `M/S ${name.toLowerCase()} traders`,
    (name: string) => `${name}, Store`,
    (name: string) => name.slice(0, -1), // a typo: the last letter missing
    (name: string) => name.split(' ').reverse().join(' '),
  ])('resolves a name string written another way (%#) to the clean name', (variant) => {
    const input = variant(entry.merchant);
    expect(directory.resolveName(input)).toMatchObject({
      input,
      type: 'name',
      matched: true,
      merchant: entry.merchant,
      mcc: entry.mcc,
      terminal: entry.terminals[0],
    });
  });

  it.each(['Completely Unknown Merchant', 'Pvt Ltd', 'xyz', '!!!'])(
    'does not match %j',
    (input) => {
      expect(directory.resolveName(input)).toEqual({ input, type: 'name', matched: false });
    },
  );

  it('tells two shops of the same family name apart', () => {
    const [a, b] = file.merchants.filter((m) => m.merchant.startsWith('Shrestha '));
    expect(directory.resolveName(a!.merchant).merchant).toBe(a!.merchant);
    expect(directory.resolveName(b!.merchant).merchant).toBe(b!.merchant);
  });
});
