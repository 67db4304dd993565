import { describe, expect, it } from 'vitest';
import { jsonParts } from './json-parts.js';

const nullPrototype: Record<string, unknown> = Object.create(null);
nullPrototype.kept = 'yes';

const samples: Record<string, unknown> = {
  'a benchmark-like object': {
    metadata: { skill_name: 'demo', evals_run: ['1', '2'], timestamp: new Date(0) },
    runs: Array.from({ length: 3 }, (_, at) => ({
      eval_id: String(at),
      result: { pass_rate: at / 3, errors: [], notes: {} },
      expectations: [{ text: 'line one\nline "two"', passed: at > 0, evidence: 'é ✓ \u2028' }],
    })),
    empty: [],
    nothing: {},
    dropped: undefined,
    call: () => 1,
    holes: [undefined, () => 2, Number.NaN, null, 'x'],
    nullPrototype,
  },
  'a top-level array': [1, [2, [3, [4]]], { a: { b: { c: [] } } }],
  'a string': 'plain\ttext',
  'a number': 42,
  null: null,
};

describe('jsonParts', () => {
  for (const [name, value] of Object.entries(samples)) {
    for (const levels of [0, 1, 2, 5]) {
      it(`gives JSON.stringify(value, null, 2) for ${name}, ${levels} levels written entry by entry`, () => {
        expect([...jsonParts(value, levels)].flat().join('')).toBe(JSON.stringify(value, null, 2));
      });

      it(`gives JSON.stringify(value) for ${name} when compact, ${levels} levels written entry by entry`, () => {
        expect([...jsonParts(value, levels, { compact: true })].flat().join('')).toBe(JSON.stringify(value));
      });
    }
  }

  it('writes a large array in batches of short parts, none of them the whole', () => {
    const large = { runs: Array.from({ length: 5000 }, (_, at) => ({ id: at, text: 'x'.repeat(40) })) };
    for (const [batches, whole] of [
      [[...jsonParts(large)], JSON.stringify(large, null, 2)],
      [[...jsonParts(large, 2, { compact: true })], JSON.stringify(large)],
    ] as const) {
      expect(batches.length).toBeGreaterThan(1);
      const parts = batches.flat();
      expect(parts.length).toBeGreaterThan(5000);
      expect(Math.max(...parts.map((part) => part.length))).toBeLessThan(200);
      expect(parts.join('')).toBe(whole);
    }
  });

  it('hands out a batch once it is made, before the rest is walked', () => {
    let walked = 0;
    const runs = Array.from({ length: 5000 }, (_, at) => ({
      get id() {
        walked += 1;
        return at;
      },
      text: 'x'.repeat(40),
    }));
    const batches = jsonParts({ runs });
    const first = batches.next();
    expect(first.done).toBe(false);
    expect(walked).toBeGreaterThan(0);
    expect(walked).toBeLessThan(5000);
    expect([first.value ?? [], ...batches].flat().join('')).toBe(JSON.stringify({ runs }, null, 2));
  });
});
