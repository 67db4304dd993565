import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { benchmarkSchema } from '@skeval/schema';
import { comparisonOf } from '@skeval/schema/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWhyRuns } from '../__fixtures__/make-why-run.js';
import type { ReportRun } from '../report-data.js';
import { collectReport } from './collect-report.js';

let runs: Awaited<ReturnType<typeof makeWhyRuns>>;
let run: ReportRun;

beforeAll(async () => {
  runs = await makeWhyRuns();
  const collected = await collectReport({ paths: [runs.second], against: [runs.first], cwd: runs.root });
  const [first] = collected.data.runs;
  if (!first) throw new Error('no run in the report');
  run = first;
}, 120_000);
afterAll(() => rm(runs.root, { recursive: true, force: true }));

const caseOf = (id: string) => {
  const found = run.cases.find((entry) => entry.id === id);
  if (!found) throw new Error(`no case ${id}`);
  return found;
};
const problemOf = (id: string, arm: string) => caseOf(id).runs.find((entry) => entry.arm === arm)?.problem;

describe('collectReport: why cases failed, and what changed', () => {
  it("keeps each case run's first fail or error with a short reason", () => {
    expect(problemOf('regex-timeout', 'with_skill')).toMatchObject({
      index: 1,
      status: 'error',
      reason: 'regex timed out after 1 s',
    });
    expect(problemOf('crashed-grader', 'without_skill')).toMatchObject({
      status: 'error',
      reason: 'grader crashed (exit code 1)',
    });
    expect(problemOf('agent-crash', 'with_skill')).toMatchObject({ status: 'error', reason: 'agent crashed' });
    expect(problemOf('same', 'with_skill')).toMatchObject({ status: 'fail', text: 'output-contains value=Paris' });
    expect(problemOf('helped', 'with_skill')).toBeUndefined();
  });

  it('sums the cost of the runs that have one and counts those that do not', () => {
    expect(run.overview.arms.map((arm) => [arm.arm, arm.costUsd?.toFixed(4), arm.costUnknownRuns])).toEqual([
      ['with_skill', '0.0105', 1],
      ['without_skill', '0.0105', 1],
    ]);
  });

  it('marks the case that failed anew and the one fixed since the earlier run, per arm', () => {
    expect(Object.fromEntries(run.cases.map((entry) => [entry.id, entry.against?.change]))).toEqual({
      'agent-crash': 'unchanged',
      'crashed-grader': 'unchanged',
      helped: 'unchanged',
      hurt: 'fixed',
      'regex-timeout': 'unchanged',
      same: 'new failure',
    });
    expect(caseOf('same').against?.arms).toEqual([
      { arm: 'with_skill', change: 'new failure', passRateBefore: 1, passRateNow: 0 },
      { arm: 'without_skill', change: 'unchanged', passRateBefore: 1, passRateNow: 1 },
    ]);
    expect(run.against).toMatch(/^runs\/why-skill\//);
  });

  it('finds nothing changed against the run itself, and refuses an earlier run that is not there', async () => {
    const { data } = await collectReport({ paths: [runs.second], against: [runs.second], cwd: runs.root });
    expect(data.runs[0]?.cases.every((entry) => entry.against?.change === 'unchanged')).toBe(true);
    await expect(collectReport({ paths: [runs.second], against: ['no-such-run'], cwd: runs.root })).rejects.toThrow(
      'no-such-run: no such folder',
    );
  });
});

describe("benchmark.json's assertion flags", () => {
  it('flags an assertion whose every verdict is an error `always errors`, never `always fails`', async () => {
    const benchmark = benchmarkSchema.parse(JSON.parse(await readFile(join(runs.first, 'benchmark.json'), 'utf8')));
    const flags = Object.fromEntries(
      (comparisonOf(benchmark)?.assertions ?? []).map((entry) => [`${entry.eval_id}#${entry.index}`, entry.flag]),
    );
    expect(flags).toEqual({
      'agent-crash#0': null,
      'crashed-grader#0': 'always errors',
      'helped#0': null,
      'hurt#0': 'skill hurts',
      'regex-timeout#0': 'non-discriminating',
      'regex-timeout#1': 'always errors',
      'same#0': 'non-discriminating',
    });
  });
});
