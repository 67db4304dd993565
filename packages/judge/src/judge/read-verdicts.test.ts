import { describe, expect, it } from 'vitest';
import { readVerdicts } from './read-verdicts.js';
import type { JudgeCaseInput } from './types.js';

const claims = [
  { id: 'a1', text: 'greets Ada' },
  { id: 'a2', text: 'is short' },
];
const input: JudgeCaseInput = {
  prompt: 'Greet Ada.',
  response: 'Hello, Ada! Nice to see you.',
  files: [{ path: 'greeting.txt', size: 11, excerpt: 'Hello, Ada!' }],
  claims,
};
const good = { verdict: 'pass', evidence: 'It says so.', quote: 'Nice to see you', source: 'response', absent: null };

const read = (answer: unknown, text = '') => readVerdicts(answer, claims, input, text);
const evidenceOf = (answer: unknown) => read(answer).verdicts.map((verdict) => verdict.evidence);

describe('readVerdicts', () => {
  it('keeps a well-formed answer, and counts it valid', () => {
    const result = read({
      verdicts: [
        { id: 'a1', ...good, quote: 'Hello, Ada! Nice', source: 'response' },
        { id: 'a2', ...good, verdict: 'fail' },
      ],
    });
    expect(result.verdicts.map((verdict) => verdict.status)).toEqual(['pass', 'fail']);
    expect(result.verdicts[0]?.evidence).toBe('It says so. (quote: "Hello, Ada! Nice" from response)');
    expect(result).toMatchObject({ notes: [], valid: true });
  });

  it('marks every claim as an error when the answer is not the verdict JSON', () => {
    for (const answer of [undefined, null, 'pass', [], {}, { verdicts: 'all pass' }]) {
      const result = read(answer, '  All fine.  ');
      expect(result.valid).toBe(false);
      expect(result.verdicts.map((verdict) => verdict.evidence)).toEqual([
        'the judge did not answer with the verdict JSON: "All fine."',
        'the judge did not answer with the verdict JSON: "All fine."',
      ]);
    }
  });

  it('says which entry is missing, repeated or malformed, and counts the answer invalid', () => {
    const missing = read({ verdicts: [{ id: 'a1', ...good }] });
    expect(missing.valid).toBe(false);
    expect(missing.verdicts[1]?.evidence).toBe('the judge gave no verdict for this claim');
    expect(
      evidenceOf({
        verdicts: [
          { id: 'a1', ...good },
          { id: 'a1', ...good },
          { id: 'a2', ...good },
        ],
      })[0],
    ).toBe('the judge gave 2 verdicts for this claim');
    const malformed = (entry: Record<string, unknown>) =>
      evidenceOf({
        verdicts: [
          { id: 'a1', ...good, ...entry },
          { id: 'a2', ...good },
        ],
      })[0];
    expect(malformed({ verdict: 'yes' })).toBe(
      'the judge\'s verdict is malformed: `verdict` is "yes", not "pass" or "fail"',
    );
    expect(malformed({ verdict: undefined })).toBe(
      'the judge\'s verdict is malformed: `verdict` is undefined, not "pass" or "fail"',
    );
    expect(malformed({ verdict: 'yes', evidence: '' })).toMatch(/`verdict` is "yes"/);
    expect(malformed({ evidence: '  ' })).toBe("the judge's verdict is malformed: `evidence` is missing or empty");
    expect(malformed({ evidence: 3 })).toBe("the judge's verdict is malformed: `evidence` is missing or empty");
    expect(malformed({ quote: 3 })).toBe("the judge's verdict is malformed: `quote` is not a string");
    expect(malformed({ quote: 3, source: 4 })).toBe("the judge's verdict is malformed: `quote` is not a string");
    expect(malformed({ source: ['greeting.txt'] })).toBe("the judge's verdict is malformed: `source` is not a string");
    expect(malformed({ absent: 7 })).toBe("the judge's verdict is malformed: `absent` is not a string");
  });

  it('notes entries for ids that were not asked, and counts the answer invalid', () => {
    const result = read({ verdicts: [{ id: 'a1', ...good }, { id: 'a2', ...good }, { id: 'a9', ...good }, 'stray'] });
    expect(result.verdicts.map((verdict) => verdict.status)).toEqual(['pass', 'pass']);
    expect(result.notes).toEqual([
      `ignored a verdict for an id that was not asked: ${JSON.stringify({ id: 'a9', ...good }).slice(0, 120)}`,
      'ignored a verdict for an id that was not asked: "stray"',
    ]);
    expect(result.valid).toBe(false);
  });
});
