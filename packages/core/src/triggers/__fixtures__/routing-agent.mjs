#!/usr/bin/env node
// A scripted agent for trigger tests, run by `--agent command`. It prints Skeval's trace events
// and routes by rule: the skill whose installed SKILL.md description shares the most words (five
// letters or more) with the prompt is loaded by reading its SKILL.md; none shares one, none loads.
// Markers in the prompt: LATER lists the workspace before loading, SHELL loads with `cat`,
// ERROR fails before any load. After the decision it keeps working (WORK_STEPS steps of
// WORK_DELAY_MS each, 1,000 tokens a step), as a real agent would.
import { readFileSync } from 'node:fs';

const prompt = process.env.SKEVAL_PROMPT ?? '';
const skills = JSON.parse(process.env.SKEVAL_SKILLS ?? '[]');
const steps = Number(process.env.WORK_STEPS ?? 6);
const delay = Number(process.env.WORK_DELAY_MS ?? 150);
const stop = new Set(['please', 'handle', 'today', 'would', 'about']);
const words = (text) =>
  new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}]+/u)
      .filter((word) => word.length >= 5 && !stop.has(word)),
  );
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const emit = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);

function descriptionOf(skill) {
  const text = readFileSync(`${skill.path}/SKILL.md`, 'utf8');
  const line = /^description:\s*(.*)$/m.exec(text)?.[1] ?? '';
  return line.replace(/^["']|["']$/g, '');
}

if (prompt.includes('ERROR')) {
  process.stderr.write('scripted failure\n');
  process.exit(1);
}
emit({ type: 'message', role: 'assistant', text: 'Looking at the request.' });
emit({ type: 'usage', input_tokens: 800, output_tokens: 50 });
let call = 0;
const tool = async (event) => {
  call += 1;
  await sleep(delay);
  emit({ type: 'tool_call', id: `t${call}`, ...event });
  emit({ type: 'tool_result', id: `t${call}`, output: 'ok', is_error: false });
  emit({ type: 'usage', input_tokens: 900, output_tokens: 100 });
};
if (prompt.includes('LATER')) await tool({ name: 'shell', kind: 'shell', arguments: {}, command: 'ls' });
const asked = words(prompt);
const ranked = skills
  .map((skill) => ({ skill, score: [...words(descriptionOf(skill))].filter((word) => asked.has(word)).length }))
  .filter((entry) => entry.score > 0)
  .sort((a, b) => b.score - a.score);
const chosen = ranked[0]?.skill;
if (chosen) {
  const file = `${chosen.path}/SKILL.md`;
  if (prompt.includes('SHELL')) await tool({ name: 'shell', kind: 'shell', arguments: {}, command: `cat ${file}` });
  else await tool({ name: 'read_file', kind: 'read', arguments: { path: file }, paths: [file] });
}
for (let step = 0; step < steps; step += 1) await tool({ name: 'list_files', kind: 'list', arguments: { path: '.' } });
emit({ type: 'final', text: chosen ? `Done with ${chosen.name}.` : 'Done.' });
