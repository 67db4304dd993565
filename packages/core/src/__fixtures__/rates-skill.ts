import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeSkill } from './make-skill.js';

/**
 * The skill of the CLI's one-pass-rate test (`rates`): passes, failures, errors (an assertion no
 * grader decides, an agent that crashes), skipped prose claims (no judge), negative controls and
 * a case with nothing graded, whose agent answers by the case, the arm and the trial. Returns the
 * skill folder and the agent's command.
 */
export async function makeRatesSkill(root: string): Promise<{ skillDir: string; command: string }> {
  const greeting = [
    { type: 'file-exists', path: 'greeting.txt' },
    { type: 'regex-match', pattern: '^Hello, Ada!$', flags: 'm', target: { file: 'greeting.txt' } },
    { kind: 'output', method: 'contains', value: 'done' },
    { type: 'no-such-grader' },
    'The reply is polite',
  ];
  const skillDir = await makeSkill(root, 'rates', {
    skill_name: 'rates',
    evals: [
      { id: 1, prompt: 'Greet Ada in greeting.txt.', assertions: greeting },
      { id: 'crash', prompt: 'Crash test: greet Ada in greeting.txt.', assertions: greeting.slice(0, 3) },
      {
        id: 'ctl-a',
        prompt: 'What is 2 + 2? (a)',
        metadata: { negative_control: true },
        assertions: [{ kind: 'output', method: 'contains', value: '4' }, 'The answer is short'],
      },
      {
        id: 'ctl-b',
        prompt: 'What is 2 + 2? (b)',
        metadata: { negative_control: true },
        assertions: [{ kind: 'output', method: 'contains', value: '4' }],
      },
      { id: 'judged', prompt: 'Greet Ada in greeting.txt.', assertions: ['The reply is polite', 'It names Ada'] },
    ],
  });
  const agent = join(root, 'rates-agent.mjs');
  await writeFile(
    agent,
    [
      "import { readFileSync, writeFileSync } from 'node:fs';",
      "const prompt = readFileSync(process.argv[2], 'utf8');",
      "const withSkill = process.env.SKEVAL_ARM === 'with_skill';",
      'const run = Number(process.env.SKEVAL_RUN);',
      "if (prompt.includes('Crash') && withSkill && run === 2) { process.stderr.write('the agent crashed\\n'); process.exit(1); }",
      "if (prompt.includes('2 + 2')) { process.stdout.write(prompt.includes('(b)') && withSkill && run === 3 ? 'five\\n' : '4\\n'); process.exit(0); }",
      "writeFileSync('greeting.txt', withSkill || run === 2 ? 'Hello, Ada!\\n' : 'Hi Ada\\n');",
      "process.stdout.write(withSkill || run !== 2 ? 'done\\n' : 'nope\\n');",
    ].join('\n'),
  );
  return { skillDir, command: `node ${agent} {prompt_file}` };
}
