#!/usr/bin/env node
// A scripted agent whose success depends on its arm: it succeeds with probability P_WITH when
// the skill is installed and P_WITHOUT when not, decided by a hash of (seed, case, arm, run), so
// every run of the suite is the same. Success writes greeting.txt and answers "done".
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';

const prompt = readFileSync(process.argv[2], 'utf8');
const arm = process.env.SKEVAL_ARM ?? 'with_skill';
const run = process.env.SKEVAL_RUN ?? '1';
const probability = Number(arm === 'with_skill' ? process.env.P_WITH : process.env.P_WITHOUT);
if (process.env.CRASH_ARM === arm && prompt.includes(process.env.CRASH_CASE ?? '\0')) {
  process.stderr.write('the agent crashed\n');
  process.exit(1);
}
const digest = createHash('sha256').update(`${process.env.COIN_SEED}|${prompt}|${arm}|${run}`).digest();
const draw = digest.readUInt32BE(0) / 2 ** 32;
if (draw < probability) {
  writeFileSync('greeting.txt', 'Hello!\n');
  process.stdout.write('done\n');
} else {
  process.stdout.write('nope\n');
}
