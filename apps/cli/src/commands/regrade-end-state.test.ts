import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createQuizProject, quizAgent } from './__fixtures__/forgery-fixture.js';
import { repoRoot, runBinary } from './__fixtures__/run-cli.js';

// `skeval grade` of a run nothing changed since must give the run's own verdicts: it grades the
// end state the agent left (the inputs with outputs/ over them, removed inputs removed), not
// outputs/ alone, which holds only what the run created or changed.
vi.setConfig({ testTimeout: 120_000 });
let root: string;

/**
 * A skill whose cases have input files every way a case can: inline, from the skill folder, a
 * seeded folder, a git fixture; an agent that leaves them alone, changes one, removes one.
 */
async function createInputsSkill(dir: string): Promise<void> {
  const skill = join(dir, 'inputs');
  await mkdir(join(skill, 'evals'), { recursive: true });
  await mkdir(join(skill, 'data'));
  await mkdir(join(skill, 'seed', 'deep'), { recursive: true });
  await mkdir(join(skill, 'repo'));
  await writeFile(join(skill, 'SKILL.md'), '---\nname: inputs\ndescription: works on input files\n---\nWork.\n');
  await writeFile(join(skill, 'data', 'table.csv'), 'a,b\n1,2\n');
  await writeFile(join(skill, 'seed', 'deep', 'a.txt'), 'seeded\n');
  await writeFile(join(skill, 'repo', 'README.md'), '# repo\n');
  await writeFile(
    join(dir, 'inputs-agent.mjs'),
    [
      "import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';",
      "const prompt = readFileSync(process.argv[2], 'utf8');",
      "if (prompt.includes('remove')) rmSync('old.txt');",
      "if (prompt.includes('append')) appendFileSync('data/table.csv', '3,4\\n');",
      "writeFileSync('done.txt', 'done\\n');",
      "process.stdout.write('Done.');",
    ].join('\n'),
  );
  const kept = (path: string) => ({ kind: 'workspace', method: 'file-exists', path });
  const cases = [
    {
      id: 'inline-kept',
      prompt: 'Leave the notes.',
      files: [{ path: 'notes.md', content: 'notes\n' }],
      assertions: [kept('notes.md'), kept('done.txt')],
    },
    {
      id: 'skill-file-changed',
      prompt: 'append a row.',
      files: ['data/table.csv'],
      assertions: [
        { kind: 'workspace', method: 'file-contains', path: 'data/table.csv', value: '1,2' },
        { kind: 'workspace', method: 'file-contains', path: 'data/table.csv', value: '3,4' },
      ],
    },
    {
      id: 'seeded',
      prompt: 'Leave the seed.',
      setup: { kind: 'seeded', sources: [{ from: 'seed' }] },
      assertions: [
        kept('seed/deep/a.txt'),
        { type: 'regex-match', pattern: 'seeded', target: { file: 'seed/deep/a.txt' } },
      ],
    },
    {
      id: 'removed',
      prompt: 'remove old.txt.',
      files: [
        { path: 'old.txt', content: 'stale\n' },
        { path: 'keep.txt', content: 'keep\n' },
      ],
      // Fails in the run (the agent removed old.txt): a re-grade must not find it again.
      assertions: [{ type: 'regex-match', pattern: 'stale', target: { file: 'old.txt' } }, kept('keep.txt')],
    },
    {
      id: 'git-fixture',
      prompt: 'Leave the repository.',
      setup: { kind: 'fixture', path: 'repo', git: true },
      assertions: [kept('README.md'), kept('done.txt')],
    },
  ];
  await writeFile(join(skill, 'evals', 'evals.json'), JSON.stringify({ skill_name: 'inputs', evals: cases }));
}

/** Each case run's verdicts, in order: `[case id, [status of each row]]`. */
async function verdictsOf(runDir: string): Promise<Array<[string, string[]]>> {
  const folders = (await readdir(runDir)).filter((entry) => entry.startsWith('eval-')).sort();
  return Promise.all(
    folders.map(async (folder) => {
      const grading = JSON.parse(await readFile(join(runDir, folder, 'grading.json'), 'utf8'));
      return [grading.case_id, grading.assertion_results.map((row: { status: string }) => row.status)];
    }),
  );
}

async function runAndRegrade(cwd: string, skill: string, agent: string[]) {
  const outputDir = join(root, `${skill}-runs`);
  const run = await runBinary(cwd, ['run', skill, ...agent, '--output-dir', outputDir]);
  const skillRuns = join(outputDir, skill);
  const [runId] = (await readdir(skillRuns)).filter((entry) => !entry.startsWith('latest'));
  const runDir = join(skillRuns, runId ?? '');
  const grade = await runBinary(cwd, ['grade', runDir, '--in-place']);
  return { run, grade, runDir };
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-regrade-'));
  await createInputsSkill(root);
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('skeval grade of an unchanged run', () => {
  it.each([
    [
      'the example greeting',
      () => repoRoot,
      'examples/greeting',
      [
        '--agent',
        'command',
        '--agent-command',
        `node ${join(repoRoot, 'examples/agents/greeting-agent.mjs')} {prompt_file}`,
      ],
    ],
    [
      'the inputs fixture',
      () => root,
      'inputs',
      ['--agent', 'command', '--agent-command', `node ${join('.', 'inputs-agent.mjs')} {prompt_file}`],
    ],
  ])('gives the verdicts of the run, case for case: %s', async (_name, cwdOf, skill, agent) => {
    const outputDir = join(root, `${_name}-runs`);
    const before = await runBinary(cwdOf(), ['run', skill, ...agent, '--output-dir', outputDir]);
    const skillRuns = join(outputDir, skill.split('/').pop() ?? skill);
    const [runId] = (await readdir(skillRuns)).filter((entry) => !entry.startsWith('latest'));
    const dir = join(skillRuns, runId ?? '');
    const verdicts = await verdictsOf(dir);
    const grade = await runBinary(cwdOf(), ['grade', dir, '--in-place']);
    expect(grade.code, grade.stderr).toBe(before.code);
    expect(await verdictsOf(dir)).toEqual(verdicts);
    expect(verdicts.flatMap(([, statuses]) => statuses)).toContain('pass');
  });

  it('keeps a removed input removed: the check that fails in the run fails in the re-grade', async () => {
    const { run, grade, runDir } = await runAndRegrade(root, 'inputs', [
      '--agent',
      'command',
      '--agent-command',
      'node inputs-agent.mjs {prompt_file}',
    ]);
    expect(run.code, run.stderr).toBe(1);
    expect(grade.code, grade.stderr).toBe(1);
    const manifest = JSON.parse(await readFile(join(runDir, 'eval-removed', 'context-manifest.json'), 'utf8'));
    expect(manifest.outputs_deleted).toEqual(['old.txt']);
    const grading = JSON.parse(await readFile(join(runDir, 'eval-removed', 'grading.json'), 'utf8'));
    expect(grading.assertion_results.map((row: { status: string }) => row.status)).toEqual(['fail', 'pass']);
  });

  it('gives the quiz fixture its verdicts again, from the README command `skeval grade latest`', async () => {
    const project = await createQuizProject();
    try {
      const run = await runBinary(join(project, 'quiz'), ['run', '.', ...quizAgent(project)]);
      expect(run.code, run.stderr).toBe(1);
      const runs = join(project, 'quiz', 'evals-runs');
      const [runId] = (await readdir(runs)).filter((entry) => !entry.startsWith('latest'));
      const verdicts = await verdictsOf(join(runs, runId ?? ''));
      const grade = await runBinary(join(project, 'quiz'), ['grade', 'latest']);
      expect(grade.code, grade.stderr).toBe(1);
      const [graded] = (await readdir(runs)).filter((entry) => entry.includes('-graded-'));
      expect(await verdictsOf(join(runs, graded ?? ''))).toEqual(verdicts);
      // Every notes-kept check holds: the agent left the input alone.
      expect(verdicts.every(([, statuses]) => statuses[1] === 'pass')).toBe(true);
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });
});

describe('skeval grade --end-state', () => {
  it('lays out the workspace a transpiled evals file grades, inputs included', async () => {
    const outputDir = join(root, 'end-state-runs');
    const agent = ['--agent', 'command', '--agent-command', 'node inputs-agent.mjs {prompt_file}'];
    await runBinary(root, [
      'run',
      'inputs',
      ...agent,
      '--output-dir',
      outputDir,
      '--case',
      'inline-kept',
      '--case',
      'removed',
    ]);
    const [runId] = (await readdir(join(outputDir, 'inputs'))).filter((entry) => !entry.startsWith('latest'));
    const endStates = join(root, 'end-states');
    const grade = await runBinary(root, ['grade', join(outputDir, 'inputs', runId ?? ''), '--end-state', endStates]);
    expect(grade.code, grade.stderr).toBe(1);
    expect((await readdir(endStates)).sort()).toEqual(['eval-inline-kept', 'eval-removed']);
    // What `<the workspace folder>` of a transpiled file means: skeval assert reads it as the run's grading did.
    const assert = (folder: string, path: string) =>
      runBinary(root, [
        'assert',
        'workspace-file-exists',
        '--agent-output',
        'Done.',
        '--workspace',
        join(endStates, folder),
        '--config',
        JSON.stringify({ path }),
      ]);
    expect((await assert('eval-inline-kept', 'notes.md')).code).toBe(0);
    expect((await assert('eval-inline-kept', 'done.txt')).code).toBe(0);
    expect((await assert('eval-removed', 'keep.txt')).code).toBe(0);
    expect((await assert('eval-removed', 'old.txt')).code).toBe(1);
  });
});
