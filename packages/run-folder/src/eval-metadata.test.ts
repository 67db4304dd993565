import { describe, expect, it } from 'vitest';
import { integerEvalIds } from './eval-metadata.js';

const idsOf = (ids: string[]) => integerEvalIds(ids.map((id) => ({ id })));

describe("eval_metadata.json's integer eval_id", () => {
  it('keeps the number of an integer id, written as a number or as a string of one', () => {
    expect(Object.fromEntries(idsOf(['1', '10', '-3', '0']))).toEqual({ '1': 1, '10': 10, '-3': -3, '0': 0 });
  });

  it('gives every other id a six-digit number that depends on the id alone', () => {
    const alone = idsOf(['named-ada']).get('named-ada');
    expect(alone).toBeGreaterThanOrEqual(100_000);
    expect(alone).toBeLessThan(1_000_000);
    // The same in any file and any order: it does not come from the case's position.
    expect(idsOf(['1', 'x', 'named-ada', '007']).get('named-ada')).toBe(alone);
    expect(idsOf(['007', 'named-ada', 'x', '1']).get('named-ada')).toBe(alone);
    // `007` is not written as an integer: it is not 7, so it cannot meet a case 7.
    expect(idsOf(['7', '007']).get('007')).not.toBe(7);
  });

  it('never gives two cases one number, even when a hash meets an integer id or another hash', () => {
    const taken = idsOf(['named-ada']).get('named-ada') ?? 0;
    const ids = idsOf([String(taken), 'named-ada']);
    expect(ids.get(String(taken))).toBe(taken);
    expect(ids.get('named-ada')).not.toBe(taken);
    const many = Array.from({ length: 3000 }, (_, index) => `case-${index}`);
    const numbers = idsOf([...many, ...Array.from({ length: 200 }, (_, index) => String(100_000 + index))]);
    expect(new Set(numbers.values()).size).toBe(3200);
  });
});
