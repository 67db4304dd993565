import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { anthropicMessage, type FakeProvider, startFakeProvider } from '@skeval/fake-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setProcessEnv } from './__fixtures__/process-env.js';
import { runCli } from './__fixtures__/run-cli.js';

// skeval triggers reads skeval.config.* as skeval run does: the same file, found the same way,
// the agent, sandbox, judge and output folder it names, a flag over it. The agent is a script
// the config names by a path relative to its own folder; the judge is the fake provider.

let root: string;
let fake: FakeProvider;
let restoreEnv: () => void;

// Loads the skill whose description shares a word of five letters or more with the prompt, and
// writes the file a case checks.
const agentSource = `
import { readFileSync, writeFileSync } from 'node:fs';
const prompt = readFileSync(process.argv[2], 'utf8');
const words = (text) => new Set(text.toLowerCase().split(/[^a-z]+/).filter((word) => word.length >= 5));
const asked = words(prompt);
const emit = (event) => process.stdout.write(JSON.stringify(event) + '\\n');
for (const skill of JSON.parse(process.env.SKEVAL_SKILLS ?? '[]')) {
  const file = skill.path + '/SKILL.md';
  const description = /^description: (.*)$/m.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
  if (![...words(description)].some((word) => asked.has(word))) continue;
  emit({ type: 'tool_call', id: 't1', name: 'read_file', kind: 'read', arguments: { path: file }, paths: [file] });
  emit({ type: 'tool_result', id: 't1', output: 'ok', is_error: false });
  break;
}
writeFileSync('greeting.txt', 'Hello\\n');
emit({ type: 'final', text: 'Done.' });
`;

const config = {
  agentCommand: 'node agent.mjs {prompt_file}',
  sandbox: 'none',
  judge: 'anthropic:claude-test',
  outputDir: 'runs',
};

async function write(path: string, text: string) {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), text);
}

function cli(args: string[]) {
  return runCli(root, args, { env: { PATH: process.env.PATH, ANTHROPIC_API_KEY: 'sk-ant-test' } });
}

/** The one run folder below `dir`: not a `latest` link, nor the `triggers` folder beside the runs. */
async function onlyRun(dir: string): Promise<string> {
  const entries = (await readdir(join(root, dir))).filter(
    (entry) => !entry.startsWith('latest') && entry !== 'triggers',
  );
  expect(entries).toHaveLength(1);
  return join(root, dir, entries[0] ?? '');
}

beforeAll(async () => {
  fake = await startFakeProvider();
  fake.respondWith(() => ({
    body: anthropicMessage({ text: '<new_description>Commit staged changes and backup notes.</new_description>' }),
  }));
  // The Anthropic adapter reads its endpoint from the process, as the SDK does.
  restoreEnv = setProcessEnv({ ANTHROPIC_BASE_URL: fake.url });
  root = await mkdtemp(join(tmpdir(), 'skeval-triggers-config-'));
  await write('project/agent.mjs', agentSource);
  await write('project/skeval.config.json', `${JSON.stringify(config, null, 2)}\n`);
  await write('project/skills/commit/SKILL.md', '---\nname: commit\ndescription: Commit staged changes\n---\n');
  await write(
    'project/skills/commit/evals/evals.json',
    JSON.stringify({
      skill_name: 'commit',
      evals: [{ id: 1, prompt: 'Commit the work', assertions: [{ type: 'file-exists', path: 'greeting.txt' }] }],
    }),
  );
  await write(
    'project/skills/commit/evals/trigger-evals.json',
    JSON.stringify([
      { query: 'backup my notes', should_trigger: true },
      { query: 'backup the drafts', should_trigger: true },
      { query: 'what is the weather', should_trigger: false },
      { query: 'tell me a joke', should_trigger: false },
    ]),
  );
});
afterAll(async () => {
  restoreEnv();
  await fake.close();
  await rm(root, { recursive: true, force: true });
});

describe('skeval triggers with a config file', () => {
  it('runs the agent, sandbox, judge and output folder of the nearest skeval.config.json, as skeval run does', async () => {
    const ran = await cli(['run', 'project/skills/commit']);
    expect(ran.code, ran.stderr).toBe(0);
    const summary = JSON.parse(await readFile(join(await onlyRun('project/runs/commit'), 'summary.json'), 'utf8'));
    expect(summary.config.values).toMatchObject({
      agent_command: 'node agent.mjs {prompt_file}',
      sandbox: 'none',
      judge: 'anthropic:claude-test',
      output_dir: join(root, 'project/runs'),
    });
    expect(summary.config.from).toMatchObject({ agent_command: 'file', sandbox: 'file', judge: 'file' });

    const triggered = await cli([
      'triggers',
      'project/skills/commit',
      '--runs',
      '1',
      '--no-neighbours',
      '--optimize',
      '--iterations',
      '2',
      '--holdout',
      '0.5',
    ]);
    expect(triggered.code, triggered.stderr).toBe(0);
    expect(triggered.stdout).toContain('commit: 4/4 queries passed (command, 1 run each, threshold 0.5)');
    // The config's judge proposed the description; the results went to the config's output folder.
    expect(fake.requests.length).toBeGreaterThan(0);
    expect(fake.requests.every((request) => request.body.model === 'claude-test')).toBe(true);
    const runDir = await onlyRun('project/runs/commit/triggers');
    const history = JSON.parse(await readFile(join(runDir, 'triggers-history.json'), 'utf8'));
    expect(history.history.map((round: { description: string }) => round.description)).toEqual([
      'Commit staged changes',
      'Commit staged changes and backup notes.',
    ]);
  }, 120_000);

  it('takes a flag over the config file, and the file --config names over the nearest one', async () => {
    await write(
      'elsewhere.config.json',
      JSON.stringify({ ...config, agentCommand: 'node project/agent.mjs {prompt_file}', outputDir: 'other' }),
    );
    const result = await cli([
      'triggers',
      'project/skills/commit',
      '--config',
      'elsewhere.config.json',
      '--runs',
      '1',
      '--no-neighbours',
      '--json',
    ]);
    // The original description misses the backup queries: exit 1, and the results are where the file says.
    expect(result.code, result.stderr).toBe(1);
    expect(JSON.parse(result.stdout).runs[0].run_dir).toMatch(new RegExp(`^${join(root, 'other/commit/triggers/')}`));
    const flagged = await cli([
      'triggers',
      'project/skills/commit',
      '--runs',
      '1',
      '--no-neighbours',
      '--output-dir',
      'flagged',
      '--json',
    ]);
    expect(flagged.code, flagged.stderr).toBe(1);
    expect(JSON.parse(flagged.stdout).runs[0].run_dir).toMatch(
      new RegExp(`^${join(root, 'flagged/commit/triggers/')}`),
    );
  }, 120_000);

  it("is a usage error when the config file's judge cannot be built, for skeval triggers --optimize and skeval grade as for skeval run", async () => {
    await write(
      'bad-judge/skeval.config.json',
      JSON.stringify({ ...config, agentCommand: 'node ../project/agent.mjs {prompt_file}', judge: 'nosuch:model' }),
    );
    await write('bad-judge/skills/commit/SKILL.md', '---\nname: commit\ndescription: Commit staged changes\n---\n');
    await write(
      'bad-judge/skills/commit/evals/trigger-evals.json',
      await readFile(join(root, 'project/skills/commit/evals/trigger-evals.json'), 'utf8'),
    );
    const triggered = await cli(['triggers', 'bad-judge/skills/commit', '--optimize']);
    expect(triggered.code).toBe(2);
    expect(triggered.stderr).toMatch(/^skeval: .*nosuch/m);
    const runDir = await onlyRun('project/runs/commit');
    const graded = await cli(['grade', runDir, '--config', 'bad-judge/skeval.config.json']);
    expect(graded.code).toBe(2);
    expect(graded.stderr).toMatch(/^skeval: .*nosuch/m);
  });
});
