import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { readRunFolder } from '@skeval/run-folder';
import { evalMetadataSchema, feedbackSchema, gradingSchema } from '@skeval/schema';
import { executionMetricsSchema } from '@skeval/schema/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSkill } from '../__fixtures__/make-skill.js';
import { gradeRun } from '../run/grade-run.js';
import { runEvals } from '../run/run-evals.js';
import { createCommandRunner } from '../runners/command/runner.js';

// skill-creator's tools read a run folder unchanged: its aggregator (scripts/aggregate_benchmark.py)
// and its viewer (eval-viewer/generate_review.py). What they read is modelled here, field by field,
// and checked against the files Skeval writes:
// - the aggregator walks `eval-*` folders, takes `eval_id` from `eval-*/eval_metadata.json` (else the
//   number after `eval-`, else the folder's position: where `named-ada` became eval 1), then every
//   `<config>/run-*/grading.json` — `summary.{pass_rate,passed,failed,total}`,
//   `execution_metrics.{total_tool_calls,errors_encountered,output_chars}`, `expectations[].{text,passed}` —
//   and `timing.json`'s `total_duration_seconds` and `total_tokens`; it averages pass rates per config and
//   sorts the eval ids (a mix of numbers and strings stops it);
// - the viewer takes every folder holding `outputs/` as a run (`run_id`: its path with `/` as `-`), its
//   prompt and `eval_id` from `eval_metadata.json` in that folder or the one above ("(No prompt found)"
//   otherwise), sorts runs by (`eval_id`, `run_id`) and shows grading.json's summary and expectations;
//   it saves `feedback.json` as `{ reviews: [{ run_id, feedback, timestamp }], status }`.

const repoRoot = new URL('../../../../', import.meta.url).pathname;
const greetingAgent = `node ${join(repoRoot, 'examples/agents/greeting-agent.mjs')} {prompt_file}`;
let root: string;

const mixedIds = {
  skill_name: 'mixed',
  evals: [
    {
      id: 2,
      prompt: 'Write a greeting for Ada Lovelace.',
      assertions: [{ type: 'file-exists', path: 'greeting.txt' }],
    },
    { id: 'alpha', prompt: 'Say hello to Grace Hopper in a greeting file.', assertions: ['It greets Grace'] },
    { id: 1, prompt: 'Create a greeting.', assertions: [{ kind: 'output', method: 'contains', value: 'greeting' }] },
    { id: '10', prompt: 'Greet Alan Turing in a greeting file.', assertions: [{ type: 'file-exists', path: 'x' }] },
    {
      id: 'Beta Case',
      prompt: 'What is the capital of France?',
      metadata: { negative_control: true },
      assertions: [{ kind: 'output', method: 'contains', value: 'Paris' }],
    },
  ],
};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-skill-creator-'));
  await makeSkill(root, 'mixed', mixedIds);
});
afterAll(() => rm(root, { recursive: true, force: true }));

const readJson = async (path: string): Promise<unknown> => JSON.parse(await readFile(path, 'utf8'));
const isDir = (path: string) =>
  stat(path).then(
    (entry) => entry.isDirectory(),
    () => false,
  );
/** Python's `sorted()` of folder names: by code point. */
const sortedNames = async (dir: string) => (await readdir(dir)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

async function run(name: string, skillDir: string, options: { compare?: boolean; runs?: number } = {}) {
  const result = await runEvals({
    path: skillDir,
    runner: createCommandRunner({ command: greetingAgent }),
    judge: { skipReason: 'no judge configured' },
    outputDir: join(root, name),
    sandbox: 'none',
    ...options,
  });
  const runDir = result.runs[0]?.runDir;
  if (!runDir) throw new Error(`no run folder for ${name}`);
  return runDir;
}

/** What the aggregator reads of a run folder. */
async function aggregatorView(runDir: string) {
  const evals: Array<{ folder: string; evalId: unknown; metadata: unknown }> = [];
  const runs: Array<{ evalId: unknown; config: string; grading: Record<string, unknown>; timing: unknown }> = [];
  const folders = (await sortedNames(runDir)).filter((entry) => entry.startsWith('eval-'));
  for (const [index, folder] of folders.entries()) {
    const metadataPath = join(runDir, folder, 'eval_metadata.json');
    const metadata = existsSync(metadataPath) ? await readJson(metadataPath) : undefined;
    const fromName = Number.parseInt(folder.split('-')[1] ?? '', 10);
    const evalId =
      metadata && typeof metadata === 'object' && 'eval_id' in metadata
        ? metadata.eval_id
        : Number.isNaN(fromName)
          ? index
          : fromName;
    evals.push({ folder, evalId, metadata });
    for (const config of await sortedNames(join(runDir, folder))) {
      const configDir = join(runDir, folder, config);
      if (!(await isDir(configDir))) continue;
      const runFolders = (await sortedNames(configDir)).filter((entry) => entry.startsWith('run-'));
      for (const runFolder of runFolders) {
        const grading = (await readJson(join(configDir, runFolder, 'grading.json'))) as Record<string, unknown>;
        runs.push({ evalId, config, grading, timing: await readJson(join(configDir, runFolder, 'timing.json')) });
      }
    }
  }
  return { evals, runs };
}

/** What the viewer reads of a run folder. */
async function viewerView(runDir: string) {
  const runs: Array<{ id: string; dir: string; prompt: string; evalId: unknown; grading: unknown }> = [];
  const visit = async (dir: string): Promise<void> => {
    if (await isDir(join(dir, 'outputs'))) {
      let prompt = '';
      let evalId: unknown = null;
      for (const candidate of [join(dir, 'eval_metadata.json'), join(dir, '..', 'eval_metadata.json')]) {
        if (!existsSync(candidate)) continue;
        const metadata = (await readJson(candidate)) as { prompt?: string; eval_id?: unknown };
        prompt = metadata.prompt ?? '';
        evalId = metadata.eval_id;
        if (prompt) break;
      }
      const grading = existsSync(join(dir, 'grading.json')) ? await readJson(join(dir, 'grading.json')) : null;
      runs.push({ id: relative(runDir, dir).split('/').join('-'), dir, prompt, evalId, grading });
      return;
    }
    for (const entry of await sortedNames(dir)) {
      if (['node_modules', '.git', '__pycache__', 'skill', 'inputs'].includes(entry)) continue;
      if (await isDir(join(dir, entry))) await visit(join(dir, entry));
    }
  };
  await visit(runDir);
  return runs;
}

/** The contract: every field the two tools read is there, with the type they need. */
async function expectReadable(runDir: string, cases: Array<{ id: string | number; prompt: string }>) {
  const { evals, runs } = await aggregatorView(runDir);
  expect(evals).toHaveLength(cases.length);
  for (const entry of evals) {
    const metadata = evalMetadataSchema.parse(entry.metadata);
    expect(Number.isInteger(entry.evalId)).toBe(true);
    const evalCase = cases.find((candidate) => String(candidate.id) === metadata.skeval_id);
    expect(metadata.prompt).toBe(evalCase?.prompt);
    if (typeof evalCase?.id === 'number') expect(entry.evalId).toBe(evalCase.id);
  }
  // No two cases share an id (which merges them), and every id is a number (a mix stops its sort).
  expect(new Set(evals.map((entry) => entry.evalId)).size).toBe(cases.length);
  for (const { grading, timing, evalId } of runs) {
    const parsed = gradingSchema.parse(grading);
    expect(parsed.summary).toMatchObject({
      passed: expect.any(Number),
      failed: expect.any(Number),
      total: expect.any(Number),
    });
    const metrics = executionMetricsSchema.parse(parsed.execution_metrics);
    expect(Object.values(metrics.tool_calls).reduce((sum, count) => sum + count, 0)).toBe(metrics.total_tool_calls);
    for (const row of parsed.expectations) expect(Object.keys(row).sort()).toEqual(['evidence', 'passed', 'text']);
    expect(timing).toMatchObject({ total_duration_seconds: expect.any(Number), total_tokens: expect.any(Number) });
    expect(evals.map((entry) => entry.evalId)).toContain(evalId);
  }
  const viewed = await viewerView(runDir);
  expect(viewed.length).toBeGreaterThan(0);
  for (const entry of viewed) {
    const grading = gradingSchema.parse(entry.grading);
    const evalCase = cases.find((candidate) => String(candidate.id) === grading.case_id);
    expect(entry.prompt).toBe(evalCase?.prompt);
    expect(Number.isInteger(entry.evalId)).toBe(true);
  }
  // The viewer's feedback.json, for these runs, is a file Skeval's schema reads.
  const feedback = {
    reviews: viewed.map((entry) => ({ run_id: entry.id, feedback: '', timestamp: '2026-12-01T10:00:00.000Z' })),
    status: 'complete',
  };
  expect(feedbackSchema.parse(feedback).reviews.map((review) => review.run_id)).toEqual(
    viewed.map((entry) => entry.id),
  );
  return { evals, runs, viewed };
}

describe("skill-creator's aggregator and viewer on a Skeval run folder", () => {
  it('read the bundled example run with --compare --runs 2: integer ids, prompts, tool calls, the same statistics', async () => {
    const examplePath = join(repoRoot, 'examples/greeting');
    const runDir = await run('example', examplePath, { compare: true, runs: 2 });
    const example = (await readJson(join(examplePath, 'evals/evals.json'))) as {
      evals: Array<{ id: string | number; prompt: string }>;
    };
    const { evals, runs, viewed } = await expectReadable(runDir, example.evals);
    // `named-ada` no longer takes eval 1's id; the arm folders say the same as the case folder.
    const named = evals.find((entry) => entry.folder === 'eval-named-ada');
    expect(named?.evalId).not.toBe(1);
    const armMetadata = await readJson(join(runDir, 'eval-named-ada', 'without_skill', 'eval_metadata.json'));
    expect(armMetadata).toEqual(named?.metadata);
    expect(named?.metadata).toMatchObject({
      eval_name: 'named-ada',
      skeval_id: 'named-ada',
      negative_control: false,
      assertions: expect.arrayContaining(['The reply confirms the greeting is for Ada']),
    });
    expect(viewed).toHaveLength(16);
    // Tool calls as the agent made them: it reads the skill and writes greeting.txt with it.
    const withSkill = runs.find((entry) => entry.evalId === named?.evalId && entry.config === 'with_skill');
    const metrics = executionMetricsSchema.parse(withSkill?.grading.execution_metrics);
    expect(metrics).toMatchObject({
      tool_calls: { read_file: 1, write_file: 1 },
      total_tool_calls: 2,
      errors_encountered: 0,
      output_chars: 'Hello, Ada Lovelace!\n'.length,
      tool_calls_by_kind: { read: 1, write: 1 },
    });
    // The aggregator's statistics (sample standard deviation, rounded to 4 places) are Skeval's.
    const benchmark = (await readJson(join(runDir, 'benchmark.json'))) as {
      run_summary: Record<string, { pass_rate: { mean: number; stddev: number; min: number; max: number } }>;
    };
    for (const config of ['with_skill', 'without_skill']) {
      const rates = runs
        .filter((entry) => entry.config === config)
        .map((entry) => gradingSchema.parse(entry.grading).summary.pass_rate ?? 0);
      const mean = rates.reduce((sum, rate) => sum + rate, 0) / rates.length;
      const stddev = Math.sqrt(rates.reduce((sum, rate) => sum + (rate - mean) ** 2, 0) / (rates.length - 1));
      const round = (value: number) => Math.round(value * 10_000) / 10_000;
      const ours = benchmark.run_summary[config]?.pass_rate;
      expect([ours?.mean, ours?.stddev].map((value) => round(value ?? Number.NaN))).toEqual([
        round(mean),
        round(stddev),
      ]);
    }
  }, 120_000);

  it('read a run whose ids mix numbers and strings, without merging or mixing them', async () => {
    const runDir = await run('mixed-runs', join(root, 'mixed'), { compare: true, runs: 2 });
    const { evals } = await expectReadable(runDir, mixedIds.evals);
    const idOf = (folder: string) => evals.find((entry) => entry.folder === folder)?.evalId;
    // An integer id keeps its number, a string of one too; the others get six-digit numbers.
    expect([idOf('eval-1'), idOf('eval-2'), idOf('eval-10')]).toEqual([1, 2, 10]);
    for (const folder of ['eval-alpha', 'eval-Beta_Case-19a360ab'])
      expect(idOf(folder)).toBeGreaterThanOrEqual(100_000);
    const control = evals.find((entry) => entry.folder.startsWith('eval-Beta_Case'));
    expect(control?.metadata).toMatchObject({ skeval_id: 'Beta Case', eval_name: 'Beta Case', negative_control: true });
  }, 120_000);

  it('read a single run (eval-<id>/ is the run), and a run folder written before these files still reads and is completed by a re-grade', async () => {
    const runDir = await run('single', join(root, 'mixed'));
    await expectReadable(runDir, mixedIds.evals);
    // An old run folder: no eval_metadata.json, no execution_metrics.
    const old = join(root, 'old-run');
    await cp(runDir, old, { recursive: true });
    for (const folder of (await readdir(old)).filter((entry) => entry.startsWith('eval-'))) {
      await rm(join(old, folder, 'eval_metadata.json'));
      const path = join(old, folder, 'grading.json');
      const { execution_metrics: _dropped, ...grading } = (await readJson(path)) as Record<string, unknown>;
      await writeFile(path, JSON.stringify(grading));
    }
    const read = await readRunFolder(old);
    expect([read.runs.length, read.problems]).toEqual([mixedIds.evals.length, []]);
    expect(read.runs.every((stored) => stored.grading.execution_metrics === undefined)).toBe(true);
    await gradeRun({ runDir: old, judge: { skipReason: 'no judge configured' }, inPlace: true });
    await expectReadable(old, mixedIds.evals);
  }, 120_000);
});
