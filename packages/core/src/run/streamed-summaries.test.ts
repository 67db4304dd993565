import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type BenchmarkCase,
  buildBenchmark,
  type CaseRunDigest,
  type CaseRunOutcome,
  outcomeOf,
  readRunFolder,
  type StoredCaseRun,
} from '@skeval/run-folder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRatesSkill } from '../__fixtures__/rates-skill.js';
import { runReporters } from '../reporters/reporters.js';
import { createCommandRunner } from '../runners/command/runner.js';
import { mergeShards } from '../shards/merge-shards.js';
import { runEvals } from './run-evals.js';
import type { RunReport } from './run-report.js';

// A run keeps of each finished case run only its digest, and the summary and benchmark are
// written from digests read back one case run at a time. The oracle here is what was computed
// before: every case run held whole in memory — the outcomes exactly as the case runs returned
// them (from the progress events), and every artifact read back whole — and the two must agree
// case for case, on a run with arms and trials and on a merge of its shards.

let root: string;
let skillDir: string;
let command: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-streamed-'));
  ({ skillDir, command } = await makeRatesSkill(root));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const key = (outcome: Pick<CaseRunOutcome, 'caseId' | 'arm' | 'runNumber'>) =>
  `${outcome.caseId}/${outcome.arm}/${outcome.runNumber}`;

function run(outputDir: string, options: { shard?: { index: number; total: number } } = {}) {
  const whole: CaseRunOutcome[] = [];
  const report = runEvals({
    path: skillDir,
    runner: createCommandRunner({ command }),
    judge: { skipReason: 'no judge in this test' },
    compare: true,
    runs: 3,
    outputDir,
    sandbox: 'none',
    env: { PATH: process.env.PATH },
    ...options,
    onProgress: (event) => {
      if (event.type === 'case-end') whole.push(event.outcome);
    },
  });
  return { report, whole };
}

/** The run with its outcomes replaced by `whole` ones (same order), as every reporter renders it. */
function withOutcomes(report: RunReport, whole: readonly CaseRunOutcome[]): RunReport {
  const byKey = new Map(whole.map((outcome) => [key(outcome), outcome]));
  return {
    ...report,
    runs: report.runs.map((skillRun) => ({
      ...skillRun,
      outcomes: skillRun.outcomes.map((outcome) => {
        const found = byKey.get(key(outcome));
        if (!found) throw new Error(`no whole outcome of ${key(outcome)}`);
        return found;
      }),
    })),
  };
}

/** A stored case run kept whole (nothing dropped, nothing shared), as buildBenchmark reads it. */
const whole = (stored: StoredCaseRun): CaseRunDigest => ({
  folder: stored.folder,
  dir: stored.dir,
  arm: stored.arm,
  runNumber: stored.runNumber,
  grading: stored.grading,
  timing: stored.timing,
  skillsRead: stored.trace.skills_read ?? [],
  toolCalls: stored.trace.tool_calls.length,
  artifactsSha256: stored.artifactsSha256,
});

/** benchmark.json as the run wrote it, and as it is computed with every case run read back whole. */
async function benchmarks(runDir: string) {
  const written = JSON.parse(await readFile(join(runDir, 'benchmark.json'), 'utf8'));
  const names = new Map<string, { eval_id: string | number; eval_name: string }>(
    written.runs.map((entry: { eval_id: string | number; eval_name: string }) => [String(entry.eval_id), entry]),
  );
  const cases: BenchmarkCase[] = [...names].map(([id, entry]) => ({
    id,
    rawId: entry.eval_id,
    name: entry.eval_name,
    negativeControl: id.startsWith('ctl-'),
  }));
  const { runs, problems } = await readRunFolder(runDir);
  expect(problems).toEqual([]);
  const computed = buildBenchmark({
    skill: { name: 'rates', dir: written.metadata.skill_path },
    cases,
    runs: runs.map(whole),
    executorModel: written.metadata.executor_model,
  });
  const withoutTimestamp = (benchmark: { metadata: object }) =>
    JSON.parse(JSON.stringify({ ...benchmark, metadata: { ...benchmark.metadata, timestamp: null } }));
  return { written: withoutTimestamp(written), computed: withoutTimestamp(computed), stored: runs };
}

function expectSameReports(kept: RunReport, oracle: RunReport): void {
  for (const reporter of Object.values(runReporters)) {
    expect(reporter.render(kept, {}), reporter.name).toBe(reporter.render(oracle, {}));
  }
}

describe('a run keeps digests and streams its summaries', () => {
  it('every reporter draws the same report from the kept digests as from the outcomes held whole', async () => {
    const { report, whole: outcomes } = run(join(root, 'out'));
    const kept = await report;
    expect(kept.totals.cases).toBe(30);
    expect(outcomes).toHaveLength(30);
    for (const outcome of kept.runs[0]?.outcomes ?? []) {
      const held = outcomes.find((entry) => key(entry) === key(outcome));
      expect(outcome.grading.summary, key(outcome)).toEqual(held?.grading.summary);
      expect(outcome.grading.assertion_results.map((row) => [row.status, row.text, row.evidence])).toEqual(
        held?.grading.assertion_results.map((row) => [row.status, row.text, row.evidence]),
      );
    }
    expectSameReports(kept, withOutcomes(kept, outcomes));
  });

  it('benchmark.json and summary.json equal the ones computed with every case run held whole', async () => {
    const runDir = (await run(join(root, 'out-summary')).report).runs[0]?.runDir ?? '';
    const { written, computed, stored } = await benchmarks(runDir);
    expect(written.runs).toHaveLength(30);
    expect(written).toEqual(computed);
    const summary = JSON.parse(await readFile(join(runDir, 'summary.json'), 'utf8'));
    expect(summary.cases.map((row: { passed: number; total: number; pass_rate: number | null }) => row)).toEqual(
      stored.map((entry) =>
        expect.objectContaining({
          id: entry.grading.case_id,
          arm: entry.arm,
          run_number: entry.runNumber,
          ...entry.grading.summary,
          artifacts_sha256: entry.artifactsSha256,
        }),
      ),
    );
  });

  it('a merge of two shards writes and reports what its case runs held whole give', async () => {
    const shards = [1, 2].map((index) => run(join(root, `shard-${index}`), { shard: { index, total: 2 } }));
    const dirs = (await Promise.all(shards.map((shard) => shard.report))).map((report) => report.runs[0]?.runDir ?? '');
    const merged = await mergeShards({ dirs, outDir: join(root, 'merged', 'rates', 'merged-run'), cwd: root });
    const { written, computed, stored } = await benchmarks(merged.runDir);
    expect(written.runs).toHaveLength(30);
    expect(written).toEqual(computed);
    const oracle = withOutcomes(
      merged,
      stored.map((entry) => outcomeOf('rates', entry)),
    );
    expectSameReports(merged, oracle);
  });
});
