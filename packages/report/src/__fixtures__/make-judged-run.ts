import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCommandRunner, runEvals } from '@skeval/core';
import { type FakeProvider, noisyJudge, startFakeProvider } from '@skeval/fake-provider';
import { createModel } from '@skeval/judge';

/**
 * A run folder whose prose claims the judge decided: two cases, each with a claim the fake
 * provider's judge passes (quoting the response) and one it fails (marked [fails]), judged once.
 * The fake provider is closed before it returns.
 */
export async function makeJudgedRun(): Promise<{ root: string; runDir: string }> {
  const root = await mkdtemp(join(tmpdir(), 'skeval-report-judged-'));
  const skillDir = join(root, 'judged-skill');
  await mkdir(join(skillDir, 'evals'), { recursive: true });
  await writeFile(join(skillDir, 'SKILL.md'), '---\nname: judged-skill\ndescription: greets people\n---\n');
  const assertions = ['The reply names the file greeting.txt', 'The reply is in French [fails]'];
  await writeFile(
    join(skillDir, 'evals', 'evals.json'),
    JSON.stringify({
      skill_name: 'judged-skill',
      evals: ['first', 'second'].map((id) => ({ id, prompt: `Greet Ada (${id})`, assertions })),
    }),
  );
  await writeFile(join(root, 'agent.mjs'), "process.stdout.write('I wrote greeting.txt with a greeting for Ada.');\n");
  const fake: FakeProvider = await startFakeProvider();
  fake.respondWith(noisyJudge({ fails: ['[fails]'] }));
  try {
    const result = await runEvals({
      path: skillDir,
      cwd: root,
      runner: createCommandRunner({ command: `node ${join(root, 'agent.mjs')} {prompt_file}`, cwd: root }),
      judge: { model: createModel('anthropic:claude-test', { apiKey: 'test-key', baseURL: fake.url }), cache: false },
      outputDir: join(root, 'runs'),
      runId: 'judged-run',
      sandbox: 'none',
      env: { PATH: process.env.PATH ?? '' },
    });
    const runDir = result.runs[0]?.runDir;
    if (!runDir) throw new Error('the judged fixture run wrote no run folder');
    return { root, runDir };
  } finally {
    await fake.close();
  }
}
