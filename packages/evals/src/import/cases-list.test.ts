import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadEvalsFileFromDisk } from '../skills/load-from-disk.js';
import { importCasesList } from './cases-list.js';
import { importForeignFile } from './import-file.js';

const fixture = (path: string) => fileURLToPath(new URL(`../__fixtures__/real-world/${path}`, import.meta.url));

describe('a cases.yaml list', () => {
  it('reads must / must_not lines as judged claims and should_activate as a skill read', async () => {
    const result = await importForeignFile({ absolutePath: fixture('cases-spreadsheet/evals/cases.yaml') });
    expect(result.evals.evals[0]).toEqual({
      id: 'low-risk-csv-total',
      name: 'Low-risk CSV total',
      prompt: 'Add a total column to a 40-row CSV.',
      assertions: [
        'avoid bulk reference loading',
        'perform one focused verification',
        'keep response concise',
        'Does not: spawn unnecessary subagents',
        'Does not: run unrelated full test suites',
        { id: 'c1', kind: 'behavior', method: 'skill-read' },
      ],
    });
    expect(result.lost).toContain(
      'cases[1].activation: "should_not_activate": Skeval has no "skill not read" assertion; not imported: write the prompt as a trigger query (`"should_trigger": false`) for `skeval triggers`',
    );
    expect(result.lost).toContain('`assurance_tier` (in 2 cases): not a Skeval case field; not imported');
  });

  it('reads an input to edit with its exact answer and the phrases that must be gone', async () => {
    const result = await importForeignFile({ absolutePath: fixture('cases-academic-writing/evals/cases.yaml') });
    expect(result.evals.evals[1]).toEqual({
      id: 'scoped-negative-result',
      prompt: '本次检查未发现异常，现有结果不能代表未检查范围。',
      expected_output: '在本次检查范围内未发现异常。',
      assertions: [
        { id: 'c1', kind: 'output', method: 'not-contains', value: ['不能代表未检查范围', '未检查范围不存在异常'] },
        { id: 'c2', kind: 'output', method: 'exact', value: '在本次检查范围内未发现异常。' },
      ],
    });
  });

  it("names the file's skill, and each case's own skill when it has one", async () => {
    const align = await importForeignFile({ absolutePath: fixture('cases-align/evals/cases.yaml') });
    expect(align.evals.skill_name).toBe('align-before-action');
    expect(align.evals.evals.map((entry) => entry.prompt)[0]).toBe('I have a vague product idea.');
    const reading = await importForeignFile({ absolutePath: fixture('cases-clear-eyed/evals/cases.yaml') });
    expect(reading.evals.evals.map((entry) => entry.skill)).toEqual(['clear-eyed-reading', 'clear-eyed-deep-reading']);
  });

  it('reads a file that is itself the list, and lists the reference answers it cannot use', async () => {
    const result = await importForeignFile({ absolutePath: fixture('cases-caveman/evals/cases.yaml') });
    expect(result.evals.evals.map((entry) => [entry.id, entry.assertions.length])).toEqual([
      ['react-rerender', 0],
      ['db-pooling', 0],
    ]);
    expect(result.lost[0]).toBe(
      '`baseline` (in 2 cases): not a Skeval case field; not imported: a reference answer; put it under evals/reference/<case>/response.md for `skeval check`',
    );
  });

  it('does not import a case without a prompt, and says which keys it looked for', () => {
    const result = importCasesList({ cases: [{ id: 'happy-path', fixture: 'A signal.', expect: 'ready' }] });
    expect(result.evals.evals).toEqual([]);
    expect(result.lost[0]).toMatch(/^cases\[0\]: no prompt \(none of `prompt`, `input`, `user`/);
  });

  it('loads a list of checks beside SKILL.md with no issue, each check a judged claim', async () => {
    const result = await loadEvalsFileFromDisk(fixture('cases-readable-writing/evals/cases.yaml'), 'cases.yaml');
    expect(result.errors).toEqual([]);
    expect(result.evals?.cases.map((entry) => entry.id).slice(0, 2)).toEqual(['simple_question', 'recommendation']);
    expect(result.evals?.cases.every((entry) => entry.assertions.every((a) => a.spec.mode === 'judge'))).toBe(true);
  });
});
