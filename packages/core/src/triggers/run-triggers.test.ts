import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TriggersFile, triggersFileSchema } from '@skeval/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandRunner } from '../runners/command/runner.js';
import { runTriggers } from './run-triggers.js';

// A scripted agent (__fixtures__/routing-agent.mjs) loads skills by rule: the skill whose
// installed description shares the most words with the prompt. Three skills in one repository:
// `commit` (under test), `audit`, and `changelog`, whose description also claims "history" and
// "release", so it steals the commit queries that say so.

const agent = new URL('./__fixtures__/routing-agent.mjs', import.meta.url).pathname;
let root: string;

async function writeSkill(name: string, description: string, triggers?: unknown) {
  const dir = join(root, 'repo', 'skills', name);
  await mkdir(join(dir, 'evals'), { recursive: true });
  await writeFile(join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`);
  if (triggers) await writeFile(join(dir, 'evals', 'evals.json'), JSON.stringify(triggers));
  return dir;
}

const commitQueries = {
  skill_name: 'commit',
  trigger_evals: {
    should_trigger: [
      { query: 'please commit the staged changes' },
      { query: 'write a commit message for these changes' },
      { query: 'commit this LATER after looking around' },
      { query: 'commit the release history notes' },
      { query: 'commit the fix SHELL' },
    ],
    should_not_trigger: [{ query: 'audit the security posture' }, { query: 'what is the weather' }],
  },
  should_not_trigger: [
    { id: 'broken', query: 'commit ERROR now' },
    { id: 'routed', prompt: 'audit dependencies for security', expected_skill: 'audit' },
  ],
};

// Six steps of 150 ms after the decision: what an early stop saves.
const env = { PATH: process.env.PATH, WORK_STEPS: '6', WORK_DELAY_MS: '150' };
const run = (options: Partial<Parameters<typeof runTriggers>[0]> = {}) =>
  runTriggers({
    path: join(root, 'repo', 'skills', 'commit'),
    runner: createCommandRunner({ command: `node ${agent}` }),
    runs: 2,
    env,
    passEnv: ['WORK_STEPS', 'WORK_DELAY_MS'],
    outputDir: join(root, 'out'),
    timeoutMs: 30_000,
    ...options,
  });

let file: TriggersFile;
let commitDir: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-triggers-'));
  await mkdir(join(root, 'repo', '.git'), { recursive: true });
  commitDir = await writeSkill('commit', 'Commit staged changes with a message', commitQueries);
  await writeSkill('audit', 'Audit a repository for security problems');
  await writeSkill('changelog', 'Write release notes from the commit history');
  const result = await run();
  const [first] = result.runs;
  if (!first) throw new Error('no trigger run');
  file = triggersFileSchema.parse(JSON.parse(await readFile(join(first.runDir, 'triggers.json'), 'utf8')));
}, 120_000);
afterAll(() => rm(root, { recursive: true, force: true }));

const queryOf = (text: string) => {
  const found = file.skeval.queries.find((query) => query.query.includes(text));
  if (!found) throw new Error(`no query ${text}`);
  return found;
};

describe('skeval triggers with a scripted agent', () => {
  it('installs the repository’s other skills as neighbours', () => {
    expect(file.skeval.neighbourhood.map((entry) => [entry.name, entry.under_test])).toEqual([
      ['commit', true],
      ['audit', false],
      ['changelog', false],
    ]);
  });

  it('shows a neighbour stealing queries in the routing matrix', () => {
    const { rows, columns, counts } = file.skeval.matrix;
    expect(rows).toEqual(['commit', 'audit', 'none']);
    expect(columns).toEqual(['commit', 'audit', 'changelog', 'none']);
    const at = (row: string, column: string) => counts[rows.indexOf(row)]?.[columns.indexOf(column)];
    // Five commit queries × 2 runs: four go to commit, "release history" to changelog.
    expect(at('commit', 'commit')).toBe(8);
    expect(at('commit', 'changelog')).toBe(2);
    expect(at('audit', 'audit')).toBe(2);
    expect(queryOf('release history')).toMatchObject({ pass: false, trigger_rate: { successes: 0, trials: 2 } });
  });

  it('computes recall, precision, false-trigger rate and accuracy as counted from the runs', () => {
    // Counted here from each run's loads, independently of the scorer.
    const runs = file.skeval.queries.flatMap((query) =>
      query.runs.filter((entry) => entry.status !== 'error').map((entry) => ({ query, entry })),
    );
    const positive = runs.filter(({ query }) => query.should_trigger);
    const negative = runs.filter(({ query }) => !query.should_trigger);
    const tp = positive.filter(({ entry }) => entry.loaded.includes('commit')).length;
    const fp = negative.filter(({ entry }) => entry.loaded.includes('commit')).length;
    const [commit] = file.skeval.skills;
    expect(commit?.skill).toBe('commit');
    expect(commit?.recall).toMatchObject({ successes: tp, trials: positive.length, value: tp / positive.length });
    expect(commit?.precision).toMatchObject({ successes: tp, trials: tp + fp });
    expect(commit?.false_trigger_rate).toMatchObject({ successes: fp, trials: negative.length });
    expect(commit?.accuracy.successes).toBe(tp + (negative.length - fp));
    expect([tp, positive.length, fp]).toEqual([8, 10, 0]);
    const changelog = file.skeval.skills.find((skill) => skill.skill === 'changelog');
    expect(changelog?.false_positives).toBe(2);
  });

  it('counts a run that loads the skill after another tool as triggered', () => {
    const later = queryOf('LATER');
    expect(later.runs.every((entry) => entry.status === 'triggered' && entry.tool_calls >= 2)).toBe(true);
    expect(queryOf('SHELL').runs.every((entry) => entry.status === 'triggered')).toBe(true);
  });

  it('leaves an erroring run out of every rate and reports it', () => {
    const broken = queryOf('ERROR');
    expect(broken).toMatchObject({ pass: null, errors: 2, trigger_rate: { trials: 0, value: null } });
    expect(file.skeval.excluded).toEqual(['broken']);
    expect(file.skeval.errors.map((error) => [error.query_id, error.code])).toEqual([
      ['broken', 'agent_failed'],
      ['broken', 'agent_failed'],
    ]);
    expect(file.results.some((result) => result.query.includes('ERROR'))).toBe(false);
    expect(file.summary).toEqual({ total: 8, passed: 7, failed: 1 });
  });

  it('stops each agent at its decision: a skill load, or the end of the budget', () => {
    // Unstopped, the agent makes 7 tool calls (the load and 6 steps) and takes over 1 s.
    for (const entry of queryOf('staged changes').runs) {
      expect(entry).toMatchObject({ status: 'triggered', stopped: 'skill_loaded' });
      expect(entry.tool_calls).toBeLessThan(7);
    }
    const none = queryOf('weather').runs[0];
    expect(none).toMatchObject({ status: 'not_triggered', fired: null, stopped: 'finished' });
  });

  it('keeps run_eval.py’s results and summary shape', () => {
    expect(file.results[0]).toEqual({
      query: 'please commit the staged changes',
      should_trigger: true,
      trigger_rate: 1,
      triggers: 2,
      runs: 2,
      pass: true,
    });
    expect(Object.keys(file).sort()).toEqual(['description', 'results', 'skeval', 'skill_name', 'summary']);
  });

  it('ends a run without a skill within a budget of tool calls as "no skill within budget"', async () => {
    const result = await run({ budget: { toolCalls: 2 }, runs: 1, skills: ['commit'], runId: 'budget' });
    const weather = result.runs[0]?.triggers.skeval.queries.find((query) => query.query.includes('weather'));
    expect(weather?.runs[0]).toMatchObject({ stopped: 'no_skill_within_budget', status: 'not_triggered' });
    expect(weather?.runs[0]?.tool_calls).toBeGreaterThanOrEqual(2);
    expect(weather?.runs[0]?.tool_calls).toBeLessThan(6);
  });

  it('tests another description in the installed copy only, compared on the same queries', async () => {
    const before = await readFile(join(commitDir, 'SKILL.md'), 'utf8');
    const result = await run({
      runs: 1,
      runId: 'candidate',
      description: { text: 'Commit staged changes, release notes and history included', source: 'flag' },
    });
    expect(await readFile(join(commitDir, 'SKILL.md'), 'utf8')).toBe(before);
    const [entry] = result.runs;
    expect(entry?.triggers.description).toBe('Commit staged changes, release notes and history included');
    expect(entry?.baseline?.description).toBe('Commit staged changes with a message');
    // With "release" and "history" in its description, commit wins the query changelog stole.
    const stolen = entry?.triggers.skeval.queries.find((query) => query.query.includes('release history'));
    expect(stolen?.pass).toBe(true);
    expect(entry?.triggers.skeval.comparison).toMatchObject({
      test: 'exact-mcnemar',
      candidate_only: [stolen?.id],
      baseline_only: [],
      p_value: 1,
      verdict: 'no_difference',
    });
  });
});
