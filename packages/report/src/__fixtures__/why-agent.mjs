#!/usr/bin/env node
// A scripted agent for the report's tests of why cases fail (the `command` runner): the prompt
// picks the answer, the skill changes some, and a second argument `2` changes two cases (one breaks, one
// is fixed) for `--against`. Each run costs $0.0021, except a crash, which reports nothing.
import { readFileSync } from 'node:fs';

const prompt = readFileSync(process.argv[2], 'utf8');
const skilled = JSON.parse(process.env.SKEVAL_SKILLS ?? '[]').some((entry) => entry.name === 'why-skill');
const second = process.argv[3] === '2';
const emit = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);

if (/crash on purpose/i.test(prompt)) {
  process.stderr.write('the agent fell over on purpose\n');
  process.exit(3);
}
const answer = /many a's/i.test(prompt)
  ? `${'a'.repeat(40)}!`
  : /greeting/i.test(prompt)
    ? skilled
      ? 'Hello, Ada!'
      : 'Hi Ada'
    : /hurt edition/i.test(prompt)
      ? skilled && !second
        ? 'A fancy reply.'
        : 'A plain reply.'
      : /capital/i.test(prompt)
        ? skilled && second
          ? 'Lyon, I think.'
          : 'Paris.'
        : 'A plain answer.';
emit({ type: 'usage', input_tokens: 100, output_tokens: 10, cost_usd: 0.0021 });
emit({ type: 'final', text: answer });
