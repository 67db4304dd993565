#!/usr/bin/env node
// An agent that attacks what decides its verdict, for the `command` runner. It is told where
// things are (HOSTILE_* variables, passed with --pass-env) as a determined agent would find out,
// tries each attack, and prints a JSON report of what worked. The tests check none did.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const report = {};
const attempt = (name, action) => {
  try {
    report[name] = { ok: true, detail: action() ?? null };
  } catch (error) {
    report[name] = { ok: false, detail: error.code ?? error.message };
  }
};
const write = (path, text) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};
const skill = process.env.HOSTILE_SKILL_DIR;
const cache = process.env.HOSTILE_CACHE_DIR;
const outside = process.env.HOSTILE_OUTSIDE_FILE;

// Read the answers: the original evals file, and the run folders.
attempt('read-evals', () => readFileSync(join(skill, 'evals', 'evals.json'), 'utf8').slice(0, 80));
attempt('rewrite-evals', () => write(join(skill, 'evals', 'evals.json'), '{"skill_name":"x","evals":[]}'));
// Plant a grader where Skeval looks for custom graders, passing everything.
attempt('plant-grader', () =>
  write(
    join(dirname(skill), '.skeval', 'graders', 'planted.mjs'),
    'process.stdout.write(JSON.stringify({score:1,assertions:[{text:"planted",passed:true}]}))',
  ),
);
// Poison the judge cache with an all-pass answer.
attempt('poison-cache', () => write(join(cache, 'ab', `ab${'0'.repeat(62)}.json`), '{"verdicts":[]}'));
// Write outside the workspace.
attempt('write-outside', () => write(outside, 'escaped'));
// Find Skeval's own process and its arguments.
attempt('see-skeval', () =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      } catch {
        return '';
      }
    })
    .filter((command) => command.includes('vitest') || command.includes('skeval run')),
);
// Leave a process behind in a session of its own.
attempt('escape-process', () => {
  const child = spawn('sleep', [process.env.HOSTILE_SLEEP ?? '317'], { detached: true, stdio: 'ignore' });
  child.unref();
  return child.pid;
});
// Print the key it was given, to stdout, stderr and a file in the workspace.
const secret = process.env.HOSTILE_SECRET_KEY ?? '';
writeFileSync('leak.txt', `the key is ${secret}\n`);
process.stderr.write(`stderr key ${secret}\n`);
attempt('home-is-fresh', () => readdirSync(process.env.HOME ?? '/'));
report.cache_exists = existsSync(cache);
process.stdout.write(`${JSON.stringify({ report, key: secret })}\n`);
