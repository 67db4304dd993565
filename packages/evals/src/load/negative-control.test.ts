import { describe, expect, it } from 'vitest';
import { formatIssue } from './issues.js';
import { loadEvalsFile } from './load-evals-file.js';

const fileName = 'skill/evals/evals.json';

function load(cases: unknown[]) {
  const source = JSON.stringify({ skill_name: 'demo', evals: cases }, null, 2);
  const result = loadEvalsFile({ source, fileName });
  return { ...result, lines: [...result.errors, ...result.warnings].map((issue) => formatIssue(fileName, issue)) };
}

describe('negative controls: "metadata": { "negative_control": true }', () => {
  it('marks the case, and only that case', () => {
    const result = load([
      { id: 'on-topic', prompt: 'Greet Ada.' },
      { id: 'unrelated', prompt: 'What is the capital of France?', metadata: { negative_control: true } },
      { id: 'said-no', prompt: 'Greet Grace.', metadata: { negative_control: false, owner: 'docs' } },
    ]);
    expect(result.lines).toEqual([]);
    expect(result.evals?.cases.map((evalCase) => [evalCase.id, evalCase.negativeControl])).toEqual([
      ['on-topic', false],
      ['unrelated', true],
      ['said-no', false],
    ]);
  });

  it('reads a marker that is not a boolean as no control, with a located warning', () => {
    const result = load([{ id: 1, prompt: 'What is 2 + 2?', metadata: { negative_control: 'yes' } }]);
    expect(result.errors).toEqual([]);
    expect(result.lines).toEqual([
      `${fileName}:8:29: warning: evals[0].metadata.negative_control: \`negative_control\` must be true or false, got a string: the case is not treated as a negative control; write \`"negative_control": true\``,
    ]);
    expect(result.evals?.cases[0]?.negativeControl).toBe(false);
  });
});
