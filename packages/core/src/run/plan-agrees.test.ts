import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSkill } from '../__fixtures__/make-skill.js';
import { createCommandRunner } from '../runners/command/runner.js';
import { type PlanRunOptions, planRun } from './plan-run.js';
import { runEvals } from './run-evals.js';

let root: string;
let skillDir: string;
// Writes greeting.txt, so each case's one assertion passes.
const runner = createCommandRunner({ command: `node -e "require('fs').writeFileSync('greeting.txt','hi')"` });
const noJudge = { skipReason: 'no judge in this test' };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-plan-agrees-'));
  skillDir = await makeSkill(root, 'greeter', {
    skill_name: 'greeter',
    evals: Array.from({ length: 6 }, (_, index) => ({
      id: index + 1,
      prompt: `greet person ${index + 1}`,
      assertions: [{ type: 'file-exists', path: 'greeting.txt' }],
    })),
  });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Every case folder under `runDir` holding a grading.json, with when that file was last written. */
async function gradedFolders(runDir: string): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const folder = join(dir, entry.name);
      const grading = await stat(join(folder, 'grading.json')).catch(() => undefined);
      if (grading) found.set(folder, grading.mtimeMs);
      else await walk(folder);
    }
  };
  await walk(runDir);
  return found;
}

async function planAndRun(options: Omit<PlanRunOptions, 'path'>) {
  const common = { path: skillDir, runner, judge: noJudge, sandbox: 'none' as const, ...options };
  const plan = await planRun(common);
  const ended: string[] = [];
  const result = await runEvals({
    ...common,
    onProgress: (event) => {
      if (event.type === 'case-end') ended.push(event.outcome.caseDir);
    },
  });
  return { plan, result, ended };
}

describe('the dry run plans exactly what the run executes', () => {
  it('with --compare --runs 2 and a case filter: one planned case run per folder written', async () => {
    const outputDir = join(root, 'compare');
    const { plan, result, ended } = await planAndRun({
      compare: true,
      runs: 2,
      cases: ['2', '5'],
      outputDir,
      runId: 'compare-run',
    });
    expect(plan.problems).toEqual([]);
    const planned = [...plan.caseRuns].map((caseRun) => caseRun.caseDir).sort();
    expect(planned).toHaveLength(2 * 2 * 2);
    const runDir = result.runs[0]?.runDir ?? '';
    expect([...(await gradedFolders(runDir)).keys()].sort()).toEqual(planned);
    expect(ended.sort()).toEqual(planned);
    expect(planned.map((dir) => relative(runDir, dir))).toContain('eval-5/without_skill/run-2');
  });

  it('for one shard: the shard own cases alone, and the same folders', async () => {
    const outputDir = join(root, 'shard');
    const { plan, result, ended } = await planAndRun({
      shard: { index: 2, total: 3 },
      outputDir,
      runId: 'shard-run',
    });
    const planned = [...plan.caseRuns].map((caseRun) => caseRun.caseDir).sort();
    expect(planned.length).toBeGreaterThan(0);
    expect(planned.length).toBeLessThan(6);
    expect(plan.skills[0]?.casesInAllShards).toBe(6);
    expect([...(await gradedFolders(result.runs[0]?.runDir ?? '')).keys()].sort()).toEqual(planned);
    expect(ended.sort()).toEqual(planned);
  });

  it('resuming: the planned case runs that are not complete are the ones the run writes', async () => {
    const outputDir = join(root, 'resume');
    const first = await planAndRun({ runs: 2, outputDir, runId: 'resumed-run' });
    const runDir = first.result.runs[0]?.runDir ?? '';
    // Two case runs lost: the resumed run must make exactly those again.
    await rm(join(runDir, 'eval-3', 'with_skill', 'run-2'), { recursive: true });
    await rm(join(runDir, 'eval-6', 'with_skill', 'run-1', 'grading.json'));
    const before = await gradedFolders(runDir);
    const { plan, ended } = await planAndRun({ runs: 2, resume: runDir });
    const toRun = [...plan.caseRuns].filter((caseRun) => !caseRun.complete).map((caseRun) => caseRun.caseDir);
    expect(toRun.map((dir) => relative(runDir, dir)).sort()).toEqual([
      'eval-3/with_skill/run-2',
      'eval-6/with_skill/run-1',
    ]);
    expect(ended.sort()).toEqual(toRun.sort());
    const after = await gradedFolders(runDir);
    const rewritten = [...after].filter(([dir, mtime]) => before.get(dir) !== mtime).map(([dir]) => dir);
    expect(rewritten.sort()).toEqual(toRun.sort());
    expect([...plan.caseRuns]).toHaveLength(12);
    expect(plan.caseRuns.size).toBe(12);
  });
});

describe('the plan checks what would fail every case before any agent starts', () => {
  it('names a command agent whose program does not exist, and the run refuses before writing anything', async () => {
    const missing = createCommandRunner({ command: 'no-such-agent-program {prompt_file}' });
    const outputDir = join(root, 'missing-program');
    const options = { path: skillDir, runner: missing, judge: noJudge, sandbox: 'none' as const, outputDir };
    const plan = await planRun(options);
    expect(plan.problems).toEqual([
      expect.stringContaining('the program `no-such-agent-program` is not found on PATH'),
    ]);
    await expect(runEvals(options)).rejects.toMatchObject({ code: 'usage' });
    await expect(stat(outputDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('names a judge that has no key when some case has a judged claim', async () => {
    const judgedDir = await makeSkill(root, 'judged', {
      evals: [{ id: 1, prompt: 'greet', assertions: ['The greeting is friendly'] }],
    });
    const { createModel } = await import('@skeval/judge');
    const judge = { model: createModel('anthropic:claude-sonnet-4-6', { env: {} }), cache: false as const };
    const plan = await planRun({ path: judgedDir, runner, judge, sandbox: 'none' });
    expect(plan.problems).toEqual([expect.stringContaining('has no key: set ANTHROPIC_API_KEY')]);
    const unjudged = await planRun({ path: skillDir, runner, judge, sandbox: 'none' });
    expect(unjudged.problems).toEqual([]);
  });
});
