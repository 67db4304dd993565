import { describe, expect, it } from 'vitest';
import { collapseIssues, formatCollapsedIssue } from './collapse-issues.js';
import { loadEvalsFile } from './load-evals-file.js';

const fileName = 'evals.json';

/** A file whose every case has a `rubric` (69 of them) and one has a `notes` too. */
const source = JSON.stringify(
  {
    skill_name: 'demo',
    evals: Array.from({ length: 69 }, (_, index) => ({
      id: index + 1,
      prompt: 'Do it.',
      rubric: 'Done well.',
      ...(index === 4 ? { notes: 'flaky' } : {}),
    })),
  },
  null,
  2,
);

describe('collapseIssues', () => {
  it('turns issues with the same code and message into one line with a count and the first places', () => {
    const { warnings } = loadEvalsFile({ source, fileName });
    expect(warnings).toHaveLength(70);
    expect(collapseIssues(warnings).map((group) => formatCollapsedIssue(fileName, group))).toEqual([
      `${fileName}:7:7: warning: 69 × unknown case key \`rubric\` is kept but not used (evals[0].rubric, evals[1].rubric, evals[2].rubric, …)`,
      `${fileName}:28:7: warning: evals[4].notes: unknown case key \`notes\` is kept but not used`,
    ]);
  });

  it('keeps the groups in the order of their first issue', () => {
    const groups = collapseIssues([
      { severity: 'warning', code: 'b', message: 'B', pointer: 'y', line: 9, column: 1 },
      { severity: 'warning', code: 'a', message: 'A', pointer: 'x', line: 2, column: 1 },
      { severity: 'warning', code: 'b', message: 'B', pointer: 'z', line: 1, column: 1 },
    ]);
    expect(groups.map((group) => [group.code, group.count, group.line, group.pointers])).toEqual([
      ['b', 2, 1, ['z', 'y']],
      ['a', 1, 2, ['x']],
    ]);
  });

  it('names as many places as asked, without an ellipsis when it names them all', () => {
    const { warnings } = loadEvalsFile({ source, fileName });
    const [rubric] = collapseIssues(warnings, { places: 69 });
    expect(rubric?.pointers).toHaveLength(69);
    expect(rubric && formatCollapsedIssue(fileName, rubric)).not.toContain('…');
  });

  it('collapses lint warnings by their rule', () => {
    const lint = {
      severity: 'warning' as const,
      rule: 'vague-prose',
      message: 'vague',
      pointer: 'p',
      line: 1,
      column: 1,
    };
    expect(collapseIssues([lint, { ...lint, line: 2 }]).map((group) => [group.code, group.count])).toEqual([
      ['vague-prose', 2],
    ]);
  });
});
