import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadEvalsFileFromDisk } from '../skills/load-from-disk.js';
import { importForeignFile } from './import-file.js';
import { mapVallyGrader } from './vally-graders.js';

const skillDir = fileURLToPath(new URL('../__fixtures__/real-world/vally-run-tests/', import.meta.url));
const evalFile = `${skillDir}evals/tests/run-tests/eval.yaml`;

describe("Vally's graders", () => {
  it.each([
    [
      { type: 'output-contains', config: { substring: '&' } },
      { id: 'a', kind: 'output', method: 'contains', value: '&' },
    ],
    [
      { type: 'output-matches', config: { pattern: '(?i)expected term' } },
      { id: 'a', kind: 'output', method: 'regex', pattern: 'expected term', flags: 'i' },
    ],
    [
      { type: 'token-budget', config: { max: 500000 } },
      { id: 'a', kind: 'behavior', method: 'budget', maxTokens: 500000 },
    ],
    [
      { type: 'wall-time', config: { max: '5m' } },
      { id: 'a', kind: 'behavior', method: 'budget', maxDurationMs: 300000 },
    ],
    [
      { type: 'tool-call-count', config: { max: 25 } },
      { id: 'a', kind: 'behavior', method: 'budget', maxToolCalls: 25 },
    ],
    [
      { type: 'skill-invocation', config: { required: ['my-skill'] } },
      { id: 'a', kind: 'behavior', method: 'skill-read', skill: 'my-skill' },
    ],
  ])('maps %j', (source, expected) => {
    const [result] = mapVallyGrader(source, 'a', 'stimuli[0].graders[0]');
    expect(result && 'assertion' in result ? result.assertion : result).toEqual(expected);
  });

  it.each([
    [{ type: 'exit-success' }, 'already an `error` verdict'],
    [{ type: 'output-not-matches', config: { pattern: 'fatal' } }, 'a pattern that must not match'],
    [{ type: 'program', config: { program: 'pwsh' } }, 'write it as a grader in .skeval/graders/'],
    [{ type: 'turn-count', config: { max: 20 } }, 'has no Skeval equivalent; not imported'],
    [{ type: 'wall-time', config: { max: 'soon' } }, 'is not a limit Skeval reads'],
  ])('lists %j as not imported, saying why', (source, reason) => {
    const [result] = mapVallyGrader(source, 'a', 'stimuli[0].graders[0]');
    expect(result && 'lost' in result ? result.lost : '').toContain(reason);
  });

  it("keeps skill-invocation's required skills and lists its disallowed ones as not imported", () => {
    const results = mapVallyGrader(
      { type: 'skill-invocation', config: { required: ['a', 'b'], disallowed: ['c'] } },
      'a1',
      'stimuli[0].graders[0]',
    );
    expect(results.map((result) => ('assertion' in result ? result.assertion : result.lost))).toEqual([
      { id: 'a1-1', kind: 'behavior', method: 'skill-read', skill: 'a' },
      { id: 'a1-2', kind: 'behavior', method: 'skill-read', skill: 'b' },
      expect.stringContaining('disallowed ["c"]: Skeval has no "skill not read" assertion'),
    ]);
  });
});

describe('a Vally eval file from a public repository, read in place', () => {
  it('reads each stimulus as a case: its files seeded where it says, its rubric judged, its patterns checked', async () => {
    const result = await loadEvalsFileFromDisk(evalFile, 'eval.yaml', { skillDir });
    expect(result.errors).toEqual([]);
    const cases = result.evals?.cases ?? [];
    expect(cases.map((entry) => [entry.id, entry.assertions.length])).toEqual([
      ['1', 4],
      ['2', 6],
    ]);
    expect(cases[0]?.setup).toEqual({
      kind: 'seeded',
      sources: [
        { from: 'evals/tests/run-tests/fixtures/vstest-mstest/TestProject.csproj', to: 'TestProject.csproj' },
        { from: 'evals/tests/run-tests/fixtures/vstest-mstest/OrderServiceTests.cs', to: 'OrderServiceTests.cs' },
      ],
    });
    expect(cases[1]?.assertions.map((assertion) => assertion.spec)).toContainEqual({
      mode: 'grader',
      grader: 'output-regex',
      config: { pattern: '--\\s+--report-trx' },
    });
    const messages = result.warnings.map((issue) => issue.message);
    expect(messages).toContain("read as Vally's eval file: 2 cases");
    expect(messages).toContain(
      'not imported: stimuli[0].graders[1]: `exit-success`: an agent that fails or times out is already an `error` verdict in Skeval; nothing to import',
    );
  });

  it('lists each mapping and each loss once, the run settings among the losses', async () => {
    const result = await importForeignFile({ absolutePath: evalFile, skillDir });
    expect(result.format).toBe('vally');
    expect(result.mapped.filter((line) => line.endsWith('→ a judged claim'))).toHaveLength(7);
    expect(result.lost).toContain(
      "`config` is Vally's own (executor, runs, timeout, threshold): set them with `skeval run`'s flags",
    );
    expect(result.lost.filter((line) => line.includes('.constraints:'))).toHaveLength(2);
  });
});
