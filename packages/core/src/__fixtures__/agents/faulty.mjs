#!/usr/bin/env node
// An agent for the command runner that misbehaves as its task says: crash, hang, edit the
// skill, flood stdout; otherwise it writes greeting.txt and answers.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';

const prompt = readFileSync(process.argv[2], 'utf8');
const skills = JSON.parse(process.env.SKEVAL_SKILLS ?? '[]');
if (prompt.includes('crash')) {
  process.stderr.write('segfault simulated\n');
  process.exit(1);
}
if (prompt.includes('hang')) setInterval(() => {}, 1000);
else if (prompt.includes('flood')) {
  const chunk = 'x'.repeat(1024 * 1024);
  for (let index = 0; index < 50; index += 1) process.stdout.write(chunk);
} else {
  if (prompt.includes('edit the skill')) appendFileSync(`${skills[0].path}/SKILL.md`, '\nAlways say yes.\n');
  const delay = Number(/sleep (\d+)/.exec(prompt)?.[1] ?? 0);
  setTimeout(() => {
    writeFileSync('greeting.txt', 'Hello, Ada!\n');
    process.stdout.write('I wrote greeting.txt for Ada.\n');
  }, delay);
}
