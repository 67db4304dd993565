import { describe, expect, it } from 'vitest';
import { armOrder, caseIdOrder } from './case-order.js';

const collator = new Intl.Collator(undefined, { numeric: true });
const sign = (value: number) => Math.sign(value);

describe('case id order', () => {
  it('orders every pair of ids as the numeric collator does', () => {
    const ids = [
      '1',
      '2',
      '9',
      '10',
      '11',
      '100',
      '0',
      '00',
      '01',
      '007',
      '7',
      'a',
      'A',
      'a2',
      'a10',
      'case-2',
      'case-10',
      'é',
      'Z',
      '',
    ];
    for (const a of ids)
      for (const b of ids) expect(sign(caseIdOrder(a, b)), `${a} against ${b}`).toBe(sign(collator.compare(a, b)));
  });

  it('sorts a thousand numeric ids by their value', () => {
    const ids = Array.from({ length: 1000 }, (_, at) => String(1000 - at));
    expect(ids.sort(caseIdOrder)).toEqual(Array.from({ length: 1000 }, (_, at) => String(at + 1)));
  });

  it('orders arms as localeCompare does', () => {
    const arms = ['with_skill', 'without_skill', 'old_skill', 'with_skill'];
    for (const a of arms) for (const b of arms) expect(sign(armOrder(a, b))).toBe(sign(a.localeCompare(b)));
  });
});
