import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSkillTriggers } from '@skeval/evals/internal';
import { anthropicMessage, type FakeProvider, startFakeProvider } from '@skeval/fake-provider';
import { createModel } from '@skeval/judge';
import { triggersHistorySchema } from '@skeval/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandRunner } from '../runners/command/runner.js';
import { runTriggers } from './run-triggers.js';
import { splitQueries } from './split-queries.js';

// --optimize against the fake provider as the judge model, with the scripted agent, which loads
// a skill when its description shares a word with the query. The fake proposes, in turn: a word
// of a train query (train up, test flat), the words of the test queries (test up, train down),
// and a description over 1,024 characters twice (rejected). Best by test is round 3, not 2.

const agent = new URL('./__fixtures__/routing-agent.mjs', import.meta.url).pathname;
const positives = ['alpha', 'bravo', 'charlie', 'deltas'];
const negatives = ['echoes', 'foxtrot', 'golfing', 'hotels'];
const queryText = (word: string) => `please handle ${word} today`;
let fake: FakeProvider;
let root: string;
let skillDir: string;

beforeAll(async () => {
  fake = await startFakeProvider();
  root = await mkdtemp(join(tmpdir(), 'skeval-optimize-'));
  skillDir = join(root, 'deploy');
  await mkdir(join(skillDir, 'evals'), { recursive: true });
  await writeFile(
    join(skillDir, 'SKILL.md'),
    '---\nname: deploy\ndescription: Helps with shipping.\n---\n\n# Deploy\n',
  );
  await writeFile(
    join(skillDir, 'evals', 'trigger-evals.json'),
    JSON.stringify([
      ...positives.map((word) => ({ query: queryText(word), should_trigger: true })),
      ...negatives.map((word) => ({ query: queryText(word), should_trigger: false })),
    ]),
  );
});
afterAll(async () => {
  await fake.close();
  await rm(root, { recursive: true, force: true });
});

describe('skeval triggers --optimize', () => {
  it('splits by class with a seed, blinds the model to the test set, keeps the length limit, picks by test score', async () => {
    const { queries } = await loadSkillTriggers({ skillDir, skillName: 'deploy' });
    const split = splitQueries(queries, { holdout: 0.5, seed: 7 });
    expect(splitQueries(queries, { holdout: 0.5, seed: 7 })).toEqual(split);
    expect(split.test.filter((query) => query.shouldTrigger)).toHaveLength(2);
    expect(split.test.filter((query) => !query.shouldTrigger)).toHaveLength(2);
    const wordOf = (text: string) => text.split(' ')[2] ?? '';
    const trainPositive = split.train.filter((query) => query.shouldTrigger).map((query) => wordOf(query.query));
    const testPositive = split.test.filter((query) => query.shouldTrigger).map((query) => wordOf(query.query));
    const tooLong = `Use this skill for ${'shipping things, '.repeat(70)}`;
    const proposals = [
      `Use this skill for ${trainPositive[0]}.`,
      `Use this skill for ${testPositive.join(' and ')}.`,
      tooLong,
      tooLong,
    ];
    fake.requests.length = 0;
    let asked = 0;
    fake.respondWith(() => {
      const text = proposals[Math.min(asked, proposals.length - 1)];
      asked += 1;
      return { body: anthropicMessage({ text: `<new_description>${text}</new_description>` }) };
    });
    const result = await runTriggers({
      path: skillDir,
      runner: createCommandRunner({ command: `node ${agent}` }),
      runs: 1,
      alone: true,
      env: { PATH: process.env.PATH, WORK_STEPS: '0', WORK_DELAY_MS: '0' },
      passEnv: ['WORK_STEPS', 'WORK_DELAY_MS'],
      outputDir: join(root, 'out'),
      optimize: {
        model: createModel('anthropic:claude-sonnet-4-6', { apiKey: 'sk-ant-test', baseURL: fake.url }),
        iterations: 4,
        holdout: 0.5,
        seed: 7,
      },
    });
    const [run] = result.runs;
    if (!run) throw new Error('no run');
    const history = triggersHistorySchema.parse(
      JSON.parse(await readFile(join(run.runDir, 'triggers-history.json'), 'utf8')),
    );
    expect(history.skeval.test_ids.sort()).toEqual(split.test.map((query) => query.id).sort());
    expect(
      history.history.map((round) => [round.iteration, round.train_passed, round.test_passed, round.rejected]),
    ).toEqual([
      [1, 2, 2, undefined],
      [2, 3, 2, undefined],
      [3, 2, 4, undefined],
      [4, 0, null, expect.stringContaining('1024-character limit')],
    ]);
    expect(history.skeval.best_iteration).toBe(3);
    expect(history.best_description).toBe(proposals[1]);
    expect(history.best_test_score).toBe('4/4');
    expect(run.triggers.description).toBe(proposals[1]);
    expect(run.triggers.skeval.description_source).toBe('optimize');
    expect(run.triggers.skeval.comparison).toMatchObject({
      baseline: { passed: 2, total: 4 },
      candidate: { passed: 4 },
    });
    // Blinding: no request to the model holds a test query; the train failures are there.
    expect(fake.requests).toHaveLength(4);
    for (const query of split.test) expect(fake.bodiesContain(query.query)).toBe(false);
    for (const query of split.train.filter((entry) => entry.shouldTrigger))
      expect(fake.bodiesContain(query.query)).toBe(true);
    // The too-long proposal was sent back once to be shortened.
    expect(JSON.stringify(fake.requests[3]?.body)).toContain('over the hard limit of 1024');
    // The skill itself is never rewritten.
    expect(await readFile(join(skillDir, 'SKILL.md'), 'utf8')).toContain('description: Helps with shipping.');
  }, 120_000);

  it('refuses to split a trigger set with fewer than two queries of a class', () => {
    const one = [
      {
        id: 'a',
        query: 'x',
        shouldTrigger: true,
        forbiddenSkills: [],
        shape: 'eval-set' as const,
        fileName: 'f',
        pointer: '',
        line: 1,
        column: 1,
      },
    ];
    expect(() => splitQueries(one, { holdout: 0.4, seed: 1 })).toThrow(/at least 2 queries that should trigger/);
  });
});
