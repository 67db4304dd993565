import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeSkill } from './make-skill.js';

/**
 * The evals of the skill `rates`: passes, failures, errors (an assertion no grader decides, an
 * agent that crashes), skipped prose claims (no judge), negative controls and a case with nothing
 * graded. `regexPattern` is what the greeting's regex-match looks for.
 */
export function ratesEvals(regexPattern = '^Hello, Ada!$') {
  const greeting = [
    { type: 'file-exists', path: 'greeting.txt' },
    { type: 'regex-match', pattern: regexPattern, flags: 'm', target: { file: 'greeting.txt' } },
    { kind: 'output', method: 'contains', value: 'done' },
    // No grader has this name: an error verdict in every run, never a pass.
    { type: 'no-such-grader' },
    'The reply is polite',
  ];
  return {
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
  };
}

/** The agent of the `rates` skill: its answer depends on the case, the arm and the trial. */
export const ratesAgentSource = `
import { readFileSync, writeFileSync } from 'node:fs';
const prompt = readFileSync(process.argv[2], 'utf8');
const arm = process.env.SKEVAL_ARM;
const run = Number(process.env.SKEVAL_RUN);
const withSkill = arm === 'with_skill';
if (prompt.includes('Crash') && withSkill && run === 2) {
  process.stderr.write('the agent crashed\\n');
  process.exit(1);
}
if (prompt.includes('2 + 2')) {
  const broken = prompt.includes('(b)') && withSkill && run === 3;
  process.stdout.write(broken ? 'five\\n' : '4\\n');
  process.exit(0);
}
const good = withSkill || run === 2;
writeFileSync('greeting.txt', good ? 'Hello, Ada!\\n' : 'Hi Ada\\n');
process.stdout.write(withSkill || run !== 2 ? 'done\\n' : 'nope\\n');
`;

/**
 * The skill `rates` (the CLI's pass-rate test runs the same cases) under `root`, with its agent
 * beside it. Returns the skill folder and the agent's command.
 */
export async function makeRatesSkill(root: string): Promise<{ skillDir: string; command: string }> {
  const skillDir = await makeSkill(root, 'rates', ratesEvals());
  const agent = join(root, 'rates-agent.mjs');
  await writeFile(agent, ratesAgentSource);
  return { skillDir, command: `node ${agent} {prompt_file}` };
}
