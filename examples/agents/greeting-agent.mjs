#!/usr/bin/env node
// A scripted stand-in for a coding agent, for the `command` runner: it reads the task from the
// file Skeval passes, reads the greeting skill when it is installed, writes greeting.txt, and
// prints its steps as Skeval JSONL trace events; anything that is not a greeting it answers
// without the skill. Deterministic, offline, instant.
// An optional second argument says how it takes the skill, for a matrix of agents
// (examples/greeting-matrix.json): `follows` (the default) writes the skill's greeting only when
// the skill is installed, `steady` writes it either way, `contrary` misreads the skill and writes
// the right greeting only without it (the skill hurts).
import { readFileSync, writeFileSync } from 'node:fs';

const prompt = readFileSync(process.argv[2], 'utf8');
const behaviour = process.argv[3] ?? 'follows';
const skills = JSON.parse(process.env.SKEVAL_SKILLS ?? '[]');
const emit = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);

emit({ type: 'message', role: 'user', text: prompt });
if (!/greet|hello/i.test(prompt)) {
  // Not a greeting: the skill's description does not match, so it is neither read nor used.
  emit({ type: 'usage', input_tokens: 380 + prompt.length, output_tokens: 12 });
  emit({ type: 'final', text: 'The capital of France is Paris.' });
  process.exit(0);
}
const skill = skills.find((entry) => entry.name === 'greeting');
if (skill) {
  const path = `${skill.path}/SKILL.md`;
  const instructions = readFileSync(path, 'utf8');
  emit({ type: 'tool_call', id: 't1', name: 'read_file', kind: 'read', arguments: { path }, paths: [path] });
  emit({ type: 'tool_result', id: 't1', output: instructions.slice(0, 200), is_error: false });
}
const name = /(?:for|to) ([A-Z][\w]*(?: [A-Z][\w]*)*)/.exec(prompt)?.[1] ?? 'world';
const right = behaviour === 'steady' ? true : behaviour === 'contrary' ? !skill : Boolean(skill);
const greeting = right ? `Hello, ${name}!\n` : `Hi ${name} :)\n`;
writeFileSync('greeting.txt', greeting);
emit({
  type: 'tool_call',
  id: 't2',
  name: 'write_file',
  kind: 'write',
  arguments: { path: 'greeting.txt', content: greeting },
  paths: ['greeting.txt'],
});
emit({ type: 'tool_result', id: 't2', output: `wrote ${greeting.length} bytes`, is_error: false });
emit({ type: 'usage', input_tokens: (behaviour === 'steady' ? 610 : 420) + prompt.length, output_tokens: 60 });
emit({ type: 'final', text: `I wrote greeting.txt with a greeting for ${name}.` });
