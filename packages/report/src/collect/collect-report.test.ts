import { mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { benchmarkSchema } from '@skeval/schema';
import { armSummarySchema, comparisonOf, passRateOf } from '@skeval/schema/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtureRun } from '../__fixtures__/make-fixture-run.js';
import type { ReportRun } from '../report-data.js';
import { collectReport } from './collect-report.js';

let root: string;
let runDir: string;
let run: ReportRun;

beforeAll(async () => {
  ({ root, runDir } = await makeFixtureRun());
  const collected = await collectReport({ paths: [runDir], cwd: root });
  const [first] = collected.data.runs;
  if (!first) throw new Error('no run in the report');
  run = first;
}, 60_000);
afterAll(() => rm(root, { recursive: true, force: true }));

const caseOf = (id: string) => {
  const found = run.cases.find((entry) => entry.id === id);
  if (!found) throw new Error(`no case ${id}`);
  return found;
};

describe('collectReport', () => {
  it('has every case of the run with both arms and three trials each', () => {
    expect(run.cases.map((entry) => entry.id).sort()).toEqual(
      ['broken-check', 'crash', 'flaky', 'greet', 'hostile', 'unrelated'].sort(),
    );
    for (const entry of run.cases) {
      expect(entry.runs.map((caseRun) => `${caseRun.arm}/${caseRun.runNumber}`)).toEqual([
        'with_skill/1',
        'with_skill/2',
        'with_skill/3',
        'without_skill/1',
        'without_skill/2',
        'without_skill/3',
      ]);
    }
    expect(run.arms).toEqual(['with_skill', 'without_skill']);
    expect(run.trials).toBe(3);
  });

  it('shows the pass rates benchmark.json has, computed from the grading files', async () => {
    const benchmark = benchmarkSchema.parse(JSON.parse(await readFile(join(runDir, 'benchmark.json'), 'utf8')));
    for (const arm of run.overview.arms) {
      const rates = run.cases.flatMap((entry) =>
        entry.runs.filter((caseRun) => caseRun.arm === arm.arm).map((caseRun) => passRateOf(caseRun.summary)),
      );
      const known = rates.filter((rate): rate is number => rate !== null);
      const expected = known.reduce((sum, rate) => sum + rate, 0) / known.length;
      expect(arm.passRate).toBeCloseTo(expected, 10);
      expect(arm.passRate).toBeCloseTo(armSummarySchema.parse(benchmark.run_summary[arm.arm]).pass_rate.mean, 4);
      expect(arm.passRate).toBeCloseTo(comparisonOf(benchmark)?.arms[arm.arm]?.pass_rate_case_mean ?? Number.NaN, 10);
    }
    for (const entry of comparisonOf(benchmark)?.cases ?? []) {
      const shown = caseOf(entry.eval_id).passRateByArm;
      for (const [arm, rate] of Object.entries(entry.pass_rate)) {
        expect(Reflect.get(shown, arm)).toBe(rate);
      }
    }
    expect(run.overview.comparison).toMatchObject({
      target: 'with_skill',
      baseline: 'without_skill',
      delta: comparisonOf(benchmark)?.delta?.pass_rate,
      ci95: comparisonOf(benchmark)?.delta?.ci95,
      verdict: comparisonOf(benchmark)?.delta?.verdict,
    });
  });

  it('shows a crashed agent as an error with its message, and every verdict of it as error', () => {
    for (const caseRun of caseOf('crash').runs) {
      expect(caseRun.status).toBe('error');
      expect(caseRun.error?.message).toBeTruthy();
      expect(caseRun.assertions.map((row) => row.status)).toEqual(['error']);
    }
    expect(run.overview.arms.every((arm) => arm.erroredRuns === 3)).toBe(true);
  });

  it('keeps fails, skips, errors of a missing grader and flaky trials apart', () => {
    const greetWithout = caseOf('greet').runs.find((caseRun) => caseRun.arm === 'without_skill');
    expect(greetWithout?.assertions.map((row) => row.status)).toEqual(['pass', 'fail', 'skipped']);
    expect(caseOf('broken-check').runs[0]?.assertions.map((row) => row.status)).toEqual(['pass', 'error']);
    expect(caseOf('flaky').flaky).toBe(true);
    expect(caseOf('flaky').runs.map((caseRun) => caseRun.summary.passRate)).toEqual([1, 0, 1, 1, 0, 1]);
    expect(caseOf('unrelated').negativeControl).toBe(true);
  });

  it('carries the case input: prompt, input files and expected output from the run folder', () => {
    const greet = caseOf('greet');
    expect(greet.prompt.text).toBe('Write a greeting for Ada.');
    expect(greet.files).toEqual(['notes.md']);
    expect(greet.expectedOutput?.text).toBe("greeting.txt holds 'Hello, Ada!' and the reply names the file.");
  });

  it('shows the case as it was run with the skill folder gone: the run folder alone is read', async () => {
    const moved = join(root, 'report-skill-moved');
    await rename(join(root, 'report-skill'), moved);
    try {
      const collected = await collectReport({ paths: [runDir], cwd: root });
      const greet = collected.data.runs[0]?.cases.find((entry) => entry.id === 'greet');
      expect(greet?.expectedOutput?.text).toBe("greeting.txt holds 'Hello, Ada!' and the reply names the file.");
      expect(greet?.name).toBe(caseOf('greet').name);
      expect(collected.data.runs[0]?.notes).toEqual(run.notes);
    } finally {
      await rename(moved, join(root, 'report-skill'));
    }
  });

  it("reads no case's eval_metadata.json through a link", async () => {
    const metadata = join(runDir, caseOf('greet').folder, 'eval_metadata.json');
    const forged = join(root, 'forged-metadata.json');
    await writeFile(forged, JSON.stringify({ eval_name: 'forged', expected_output: 'forged' }));
    await rename(metadata, `${metadata}.real`);
    await symlink(forged, metadata);
    try {
      const collected = await collectReport({ paths: [runDir], cwd: root });
      const greet = collected.data.runs[0]?.cases.find((entry) => entry.id === 'greet');
      expect(greet?.name).toBe('greet');
      expect(greet?.expectedOutput).toBeNull();
    } finally {
      await rm(metadata);
      await rename(`${metadata}.real`, metadata);
    }
    expect(caseOf('greet').expectedOutput?.text).toBe("greeting.txt holds 'Hello, Ada!' and the reply names the file.");
  });

  it('shows the files the run wrote: text, inlines images as data URLs and lists binary files', () => {
    const outputs = caseOf('greet').runs[0]?.outputs ?? [];
    expect(outputs.map((file) => [file.path, file.kind])).toEqual([
      ['blob.bin', 'other'],
      ['card.png', 'image'],
      ['greeting.txt', 'text'],
    ]);
    expect(outputs[0]?.note).toBe('binary');
    expect(outputs[1]?.dataUrl).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    expect(outputs[2]?.text).toEqual({ text: 'Hello, Ada!\n' });
  });

  it('turns the trace into a timeline of tool calls with their commands and outputs', () => {
    const trace = caseOf('greet').runs[0]?.trace;
    expect(trace?.toolCalls.map((call) => `${call.kind} ${call.name} ${call.detail.text}`)).toEqual([
      expect.stringMatching(/^read read_file .*SKILL\.md$/),
      'write write_file greeting.txt',
      'shell bash ls -la',
    ]);
    expect(trace?.skillsRead).toEqual(['report-skill']);
    expect(caseOf('greet').runs[0]?.reviewId).toBe('eval-greet-with_skill-run-1');
  });

  it('keeps what the agent wrote as it was, hostile markup included', () => {
    const hostile = caseOf('hostile').runs[0];
    expect(hostile?.response.text).toContain('</script><img src=x onerror=');
    expect(hostile?.assertions[1]?.evidence.text).toContain(`he said \\"hi\\" & <b>'bye'</b>`);
  });

  it('cuts responses, outputs and traces to the bounds and says how long the whole was', async () => {
    const small = await collectReport({
      paths: [runDir],
      cwd: root,
      bounds: { textBudget: 0, perRunFloor: 200, perRunCeiling: 200, imageBudget: 0 },
    });
    const greet = small.data.runs[0]?.cases.find((entry) => entry.id === 'greet')?.runs[0];
    expect(greet?.response.text.length).toBeLessThanOrEqual(70);
    expect(greet?.response.cut).toBeGreaterThan(70);
    expect(greet?.outputs.find((file) => file.path === 'card.png')?.note).toBe(
      "not inlined: past the page's image budget",
    );
    expect((greet?.trace.toolCalls.length ?? 0) + (greet?.trace.omitted ?? 0)).toBe(3);
    expect(greet?.trace.omitted).toBeGreaterThan(0);
  });

  it('reads a folder of run folders as the newest run of each', async () => {
    const older = join(root, 'runs', 'report-skill', 'aaa-older-run');
    await mkdir(older, { recursive: true });
    await writeFile(join(older, 'summary.json'), '{}');
    const collected = await collectReport({ paths: [join(root, 'runs')], cwd: root });
    expect(collected.runDirs).toEqual([runDir]);
    await rm(older, { recursive: true });
  });

  it('refuses a folder with no run folder, saying what a run folder is', async () => {
    await expect(collectReport({ paths: ['report-skill'], cwd: root })).rejects.toThrow(
      'report-skill: no run folder here or below it (a run folder holds summary.json)',
    );
  });
});

describe('collectReport: eval strength', () => {
  it("shows benchmark.json's skeval.eval_strength, and nothing when the skill was never checked", async () => {
    expect(run.overview.evalStrength).toBeNull();
    const path = join(runDir, 'benchmark.json');
    const original = await readFile(path, 'utf8');
    const strength = {
      checked_at: '2026-12-01T10:00:00.000Z',
      current: false,
      mutation_score: 0.75,
      verdicts: { ok: 5, broken: 1, vacuous: 1, weak: 1, unchecked: 0 },
      cases_with_reference: 2,
      cases: 6,
      surviving_mutants: [{ case_id: 'greet', id: 'number-times-ten:outputs/greeting.txt#1' }],
    };
    const benchmark = JSON.parse(original);
    benchmark.skeval.eval_strength = strength;
    await writeFile(path, JSON.stringify(benchmark));
    try {
      const [checked] = (await collectReport({ paths: [runDir], cwd: root })).data.runs;
      expect(checked?.overview.evalStrength).toEqual(strength);
    } finally {
      await writeFile(path, original);
    }
  });
});
