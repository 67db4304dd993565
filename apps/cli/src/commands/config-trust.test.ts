import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createQuizProject, quizAgent } from './__fixtures__/forgery-fixture.js';
import { runBinary } from './__fixtures__/run-cli.js';

// The config file decides how the agent is contained: which file that is must never be a guess.
vi.setConfig({ testTimeout: 60_000 });
let outer: string;

beforeAll(async () => {
  outer = await mkdtemp(join(tmpdir(), 'skeval-config-trust-'));
});
afterAll(() => rm(outer, { recursive: true, force: true }));

const summaryOf = async (outputDir: string) => {
  const runs = join(outputDir, 'quiz');
  const [runId] = (await readdir(runs)).filter((entry) => !entry.startsWith('latest'));
  return JSON.parse(await readFile(join(runs, runId ?? '', 'summary.json'), 'utf8'));
};

/** A quiz project (a repository) inside `dir`, which holds a config file above it. */
async function projectBelow(dir: string, marker: '.git' | 'package.json'): Promise<string> {
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'skeval.config.json'),
    JSON.stringify({ sandbox: 'none', agent: 'codex', passEnv: ['HOME'] }),
  );
  const project = await createQuizProject();
  const inside = join(dir, 'project');
  await rm(inside, { recursive: true, force: true });
  await cp(project, inside, { recursive: true });
  await rm(project, { recursive: true, force: true });
  if (marker === 'package.json') {
    await rm(join(inside, '.git'), { recursive: true });
    await writeFile(join(inside, 'package.json'), '{"name":"project"}');
  }
  return inside;
}

describe('the config file of a run', () => {
  it.each(['.git', 'package.json'] as const)(
    'is not read from above the project (its root marked by %s)',
    async (marker) => {
      const project = await projectBelow(join(outer, `above-${marker}`), marker);
      const outputDir = join(project, 'runs');
      const result = await runBinary(project, ['run', 'quiz', ...quizAgent(project), '--output-dir', outputDir]);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).not.toContain('config file');
      expect(result.stderr).not.toContain('sandbox');
      const summary = await summaryOf(outputDir);
      expect(summary.config.file).toBeNull();
      expect(summary.config.values.sandbox).not.toBe('none');
      expect(summary.agent).toBe('command');
    },
  );

  it('is named on stderr, and each setting that weakens containment is named with it and recorded', async () => {
    const project = await createQuizProject();
    try {
      await writeFile(
        join(project, 'skeval.config.json'),
        JSON.stringify({ sandbox: 'none', network: 'on', contextMode: 'ambient', passEnv: ['QUIZ_TOKEN'] }),
      );
      const outputDir = join(project, 'runs');
      const result = await runBinary(project, ['run', 'quiz', ...quizAgent(project), '--output-dir', outputDir]);
      expect(result.code, result.stderr).toBe(1);
      const lines = result.stderr.split('\n');
      expect(lines).toContain('skeval: config file skeval.config.json');
      expect(lines.filter((line) => line.startsWith('skeval: warning: skeval.config.json sets '))).toEqual([
        'skeval: warning: skeval.config.json sets sandbox: "none": the agent runs without the sandbox, with your user rights',
        'skeval: warning: skeval.config.json sets network: "on": the agent can reach the network',
        'skeval: warning: skeval.config.json sets contextMode: "ambient": the agent sees your own skills and instruction files',
        'skeval: warning: skeval.config.json sets passEnv: ["QUIZ_TOKEN"]: these variables of your environment reach the agent',
      ]);
      const file = join(project, 'skeval.config.json');
      expect((await summaryOf(outputDir)).config.containment_weakened).toEqual([
        { setting: 'sandbox', value: 'none', file },
        { setting: 'network', value: 'on', file },
        { setting: 'context_mode', value: 'ambient', file },
        { setting: 'pass_env', value: ['QUIZ_TOKEN'], file },
      ]);
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });

  it('names no weakening that a flag overrode', async () => {
    const project = await createQuizProject();
    try {
      await writeFile(join(project, 'skeval.config.json'), JSON.stringify({ contextMode: 'ambient' }));
      const outputDir = join(project, 'runs');
      const result = await runBinary(project, [
        'run',
        'quiz',
        ...quizAgent(project),
        '--output-dir',
        outputDir,
        '--context-mode',
        'isolated',
      ]);
      expect(result.stderr).toContain('skeval: config file skeval.config.json');
      expect(result.stderr).not.toContain('warning: skeval.config.json sets');
      expect((await summaryOf(outputDir)).config.containment_weakened).toBeUndefined();
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });

  it.each([
    [
      'throws',
      "throw new Error('the config is broken\\nat a line no one needs');\n",
      'the config file failed to load: the config is broken',
    ],
    ['exports the wrong shape', 'export default 42;\n', 'the config must be an object, got number'],
    ['exports nothing', 'export const agent = "command";\n', 'the file has no default export'],
  ])('is a usage error naming the file when it %s', async (_what, source, message) => {
    const project = await createQuizProject();
    try {
      await writeFile(join(project, 'skeval.config.mjs'), source);
      const result = await runBinary(project, [
        'run',
        'quiz',
        ...quizAgent(project),
        '--output-dir',
        join(project, 'runs'),
      ]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`skeval.config.mjs`);
      expect(result.stderr).toContain(message);
      expect(result.stderr).not.toContain('a line no one needs');
      expect(result.stderr).not.toContain('internal error');
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });
});
