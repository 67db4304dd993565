import { describe, expect, it } from 'vitest';
import { jsonChunks } from './json-parts.js';

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

describe('jsonChunks', () => {
  for (const [name, value] of Object.entries(samples)) {
    for (const levels of [0, 1, 2, 5]) {
      it(`gives JSON.stringify(value, null, 2) for ${name}, ${levels} levels written entry by entry`, () => {
        expect([...jsonChunks(value, levels)].join('')).toBe(JSON.stringify(value, null, 2));
      });

      it(`gives JSON.stringify(value) for ${name} when compact, ${levels} levels written entry by entry`, () => {
        expect([...jsonChunks(value, levels, { compact: true })].join('')).toBe(JSON.stringify(value));
      });
    }
  }

  it('writes a large array in several chunks', () => {
    const large = { runs: Array.from({ length: 5000 }, (_, at) => ({ id: at, text: 'x'.repeat(40) })) };
    const chunks = [...jsonChunks(large)];
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe(JSON.stringify(large, null, 2));
    const compact = [...jsonChunks(large, 2, { compact: true })];
    expect(compact.length).toBeGreaterThan(1);
    expect(compact.join('')).toBe(JSON.stringify(large));
  });
});
