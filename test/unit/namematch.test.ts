import { describe, expect, it } from 'vitest';

import { bandFor, MATCH_THRESHOLDS, matchNames, phoneticFold } from '../../src/mock/namematch.js';

const HOLDER = 'Ram Bahadur Shrestha';

/** The spec's name match result: match_score 0-100, result, statement_name, reasons. */
function expectSpecShape(result: ReturnType<typeof matchNames>): void {
  expect(Object.keys(result).sort()).toEqual([
    'match_score',
    'reasons',
    'result',
    'statement_name',
  ]);
  expect(
    Number.isInteger(result.match_score) && result.match_score >= 0 && result.match_score <= 100,
  ).toBe(true);
  expect(['match', 'partial_match', 'no_match', 'no_data']).toContain(result.result);
  expect(result.statement_name === null || typeof result.statement_name === 'string').toBe(true);
  expect(result.reasons.every((reason) => typeof reason === 'string')).toBe(true);
}

describe('matchNames', () => {
  it('scores an identical name 100 / match', () => {
    const result = matchNames(HOLDER, HOLDER);
    expect(result).toMatchObject({ match_score: 100, result: 'match', statement_name: HOLDER });
    expect(result.reasons).toContain("Surname 'Shrestha' matches");
    expectSpecShape(result);
  });

  it('ignores case and punctuation', () => {
    expect(matchNames('ram  bahadur-shrestha.', 'RAM BAHADUR SHRESTHA').match_score).toBe(100);
  });

  it('tolerates word order, with a small penalty and a reason', () => {
    const result = matchNames('Shrestha Ram Bahadur', HOLDER);
    expect(result.result).toBe('match');
    expect(result.match_score).toBeLessThan(100);
    expect(result.reasons).toContain('Word order differs');
    expect(result.reasons).toContain("Surname 'Shrestha' matches");
  });

  it.each(['Mr', 'Mr.', 'Mrs', 'Ms', 'Miss', 'Shri', 'Shree', 'Smt.', 'Sushri', 'Dr.'])(
    'drops the honorific %s',
    (honorific) => {
      const result = matchNames(`${honorific} ${HOLDER}`, HOLDER);
      expect(result.match_score).toBe(100);
      expect(result.reasons).toContain(`Honorific '${honorific.replace('.', '')}' ignored`);
    },
  );

  it('drops honorifics on the statement side too', () => {
    expect(matchNames('Bishnu Maya Rai', 'SMT. BISHNU MAYA RAI').match_score).toBe(100);
  });

  it('counts initials as partial agreement', () => {
    const both = matchNames('R. B. Shrestha', HOLDER);
    expect(both.result).toBe('partial_match');
    expect(both.reasons).toContain("Initial 'R' matches 'Ram'");
    expect(both.reasons).toContain("Initial 'B' matches 'Bahadur'");
    expect(matchNames('R.B. Shrestha', HOLDER).match_score).toBe(both.match_score);
    // Only the middle name shortened: still a match.
    expect(matchNames('Ram B. Shrestha', HOLDER).result).toBe('match');
    // An initial that disagrees does not count.
    expect(matchNames('K. B. Shrestha', HOLDER).match_score).toBeLessThan(both.match_score);
  });

  it.each([
    ['Ram Bahadur Srestha', HOLDER, 'Srestha', 'Shrestha'],
    ['Ram Bahadur Shresta', HOLDER, 'Shresta', 'Shrestha'],
    ['Lakshmi Prasad Adhikari', 'Laxmi Prasad Adhikari', 'Lakshmi', 'Laxmi'],
    ['Laxmee Prasad Adhikari', 'Laxmi Prasad Adhikari', 'Laxmee', 'Laxmi'],
    ['Ram Badur Shrestha', HOLDER, 'Badur', 'Bahadur'],
    ['Sita Kumary Thapa', 'Sita Kumari Thapa', 'Kumary', 'Kumari'],
    ['Laxmi Prashad Adhikari', 'Laxmi Prasad Adhikari', 'Prashad', 'Prasad'],
    ['Saarita Gurung', 'Sarita Gurung', 'Saarita', 'Sarita'], // aa
    ['Deepak Karki', 'Dipak Karki', 'Deepak', 'Dipak'], // ee
    ['Roopa Karki', 'Rupa Karki', 'Roopa', 'Rupa'], // oo
    ['Shyam Sarma', 'Shyam Sharma', 'Sarma', 'Sharma'], // sh/s
    ['Laxman Poudel', 'Lakshman Poudel', 'Laxman', 'Lakshman'], // ksh/x
    ['Vikram Singh Thakuri', 'Bikram Singh Thakuri', 'Vikram', 'Bikram'], // v/b
    ['Gita Tapa', 'Gita Thapa', 'Tapa', 'Thapa'], // th/t
    ['Hari Fuyal', 'Hari Phuyal', 'Fuyal', 'Phuyal'], // ph/f
    ['Gita Devi Paudel', 'Gita Devi Poudel', 'Paudel', 'Poudel'],
  ])('treats %s as a transliteration of %s', (claimed, statementName, from, to) => {
    const result = matchNames(claimed, statementName);
    expect(result.result).toBe('match');
    expect(result.match_score).toBeGreaterThanOrEqual(95);
    expect(result.reasons).toContain(`Transliteration variant: '${from}' ~ '${to}'`);
  });

  it.each([
    ['Ram Bdr Shrestha', HOLDER, 'Bdr', 'Bahadur'],
    [HOLDER, 'RAM BDR SHRESTHA', 'Bahadur', 'BDR'],
    ['Mohd. Irfan Ansari', 'Mohammad Irfan Ansari', 'Mohd', 'Mohammad'],
  ])('reads abbreviations: %s ~ %s', (claimed, statementName, from, to) => {
    const result = matchNames(claimed, statementName);
    expect(result.result).toBe('match');
    expect(result.reasons).toContain(`Abbreviation: '${from}' ~ '${to}'`);
  });

  it('reads Pd as Prasad', () => {
    expect(matchNames('Laxmi Pd Adhikari', 'Laxmi Prasad Adhikari').result).toBe('match');
  });

  it('joins and splits words', () => {
    const joined = matchNames('Rambahadur Shrestha', HOLDER);
    expect(joined.result).toBe('match');
    expect(joined.reasons).toContain("Joined words: 'Rambahadur' ~ 'Ram Bahadur'");
    expect(matchNames(HOLDER, 'RAMBAHADUR SHRESTHA').result).toBe('match');
    expect(matchNames('Rambadur Shrestha', HOLDER).result).toBe('match');
  });

  it('tolerates a one-letter typo in a long word, not in a short one', () => {
    const typo = matchNames('Ram Bahadur Shrestah', HOLDER);
    expect(typo.result).toBe('match');
    expect(typo.reasons).toContain("Close spelling: 'Shrestah' ~ 'Shrestha'");
    expect(matchNames('Anita Gurung', 'Amita Gurung').result).not.toBe('match');
  });

  it('says no_match for a different person', () => {
    const result = matchNames('Sita Kumari Thapa', HOLDER);
    expect(result).toMatchObject({ match_score: 0, result: 'no_match' });
    expect(result.reasons).toContain("Given name 'Sita' not found on statement");
    expect(result.reasons).toContain("Surname 'Thapa' not found on statement");
  });

  it.each(['Hari Prasad Shrestha', 'Hari Shrestha', 'Shrestha', 'Sita Shrestha'])(
    'never calls a shared surname alone a match (%s)',
    (claimed) => {
      const result = matchNames(claimed, HOLDER);
      expect(['partial_match', 'no_match']).toContain(result.result);
      expect(result.match_score).toBeLessThan(MATCH_THRESHOLDS.match);
    },
  );

  it('reports a given name missing from the statement', () => {
    expect(matchNames('Hari Shrestha', HOLDER).reasons).toContain(
      "Given name 'Hari' not found on statement",
    );
  });

  it('accepts a dropped middle name, but not a wrong surname', () => {
    expect(matchNames('Ram Shrestha', HOLDER).result).toBe('match');
    expect(matchNames('Ram Bahadur Thapa', HOLDER).result).not.toBe('match');
  });

  it.each([null, '', '   '])(
    'says no_data when the statement has no name (%j)',
    (statementName) => {
      const result = matchNames(HOLDER, statementName);
      expect(result).toMatchObject({ match_score: 0, result: 'no_data', statement_name: null });
      expect(result.reasons.length).toBeGreaterThan(0);
      expectSpecShape(result);
    },
  );

  it('bounds its search on long or repetitive input: words past the eighth are not compared', () => {
    const many = Array.from({ length: 40 }, () => 'a').join(' ');
    expect(matchNames(many, many).match_score).toBe(100);
    const words = [
      'Ram',
      'Sita',
      'Hari',
      'Gita',
      'Shyam',
      'Laxmi',
      'Krishna',
      'Parbati',
      'Bishnu',
      'Kamala',
      'Ganesh',
      'Sarita',
    ];
    const long = [...words, ...words, ...words].join(' ');
    expect(matchNames(long, words.slice(0, 8).join(' ')).match_score).toBe(100);
    expect(matchNames(long, words.slice(0, 7).join(' ')).match_score).toBeLessThan(100);
  });

  it('always returns an integer score within 0..100 in the band it names', () => {
    const names = [
      HOLDER,
      'R B S',
      'Shrestha Shrestha',
      'Mr.',
      'Sita',
      'Ram Ram Ram Bahadur',
      'Pasang Sherpa',
      'X',
    ];
    for (const a of names) {
      for (const b of names) {
        const result = matchNames(a, b);
        expect(Number.isInteger(result.match_score)).toBe(true);
        expect(result.result).toBe(bandFor(result.match_score));
      }
    }
  });
});

describe('bands and folding', () => {
  it('bands scores at the exported thresholds', () => {
    expect(bandFor(MATCH_THRESHOLDS.match)).toBe('match');
    expect(bandFor(MATCH_THRESHOLDS.match - 1)).toBe('partial_match');
    expect(bandFor(MATCH_THRESHOLDS.partial_match)).toBe('partial_match');
    expect(bandFor(MATCH_THRESHOLDS.partial_match - 1)).toBe('no_match');
  });

  it.each([
    ['Shrestha', 'Srestha'],
    ['Lakshmi', 'Laxmi'],
    ['Laxmee', 'Laxmi'],
    ['Vikram', 'Bikram'],
    ['Phuyal', 'Fuyal'],
    ['Bhattarai', 'Batarai'],
  ])('folds %s and %s alike', (a, b) => {
    expect(phoneticFold(a)).toBe(phoneticFold(b));
  });
});
