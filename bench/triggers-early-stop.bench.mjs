// What stopping each agent at its routing decision saves in `skeval triggers`: the same trigger
// set run through the scripted routing agent (it loads a skill by rule, then keeps working for
// 8 steps of 100 ms and 1,000 tokens each), with early stop and without. Figures: agent tokens
// and agent time, stopped over full. Goal: ≤ 40% of full runs.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCommandRunner, runTriggers } from '../packages/core/dist/index.js';
import { goal, sized } from './figures.mjs';

const agent = fileURLToPath(new URL('../packages/core/src/triggers/__fixtures__/routing-agent.mjs', import.meta.url));
const runs = sized(3, 1);
const stepDelayMs = sized(100, 10);
const root = mkdtempSync(join(tmpdir(), 'skeval-bench-triggers-'));
const skill = join(root, 'commit');
mkdirSync(join(skill, 'evals'), { recursive: true });
writeFileSync(join(skill, 'SKILL.md'), '---\nname: commit\ndescription: Commit staged changes\n---\n\n# commit\n');
const positive = [
  'commit the staged work',
  'write a commit for the staged files',
  'commit these changes',
  'commit it LATER',
];
const negative = ['what is the weather', 'explain recursion', 'summarise this text', 'translate this sentence'];
writeFileSync(
  join(skill, 'evals', 'trigger-evals.json'),
  JSON.stringify([
    ...positive.map((query) => ({ query, should_trigger: true })),
    ...negative.map((query) => ({ query, should_trigger: false })),
  ]),
);
const measure = async (earlyStop) => {
  const started = performance.now();
  const result = await runTriggers({
    path: skill,
    runner: createCommandRunner({ command: `node ${agent}` }),
    runs,
    alone: true,
    earlyStop,
    budget: { toolCalls: 3 },
    concurrency: 4,
    env: { PATH: process.env.PATH, WORK_STEPS: '8', WORK_DELAY_MS: String(stepDelayMs) },
    passEnv: ['WORK_STEPS', 'WORK_DELAY_MS'],
    outputDir: join(root, 'out'),
    runId: earlyStop ? 'stopped' : 'full',
  });
  const { totals } = result.runs[0].triggers.skeval;
  const passed = result.runs[0].triggers.summary.passed;
  return { tokens: totals.tokens, agentMs: totals.duration_ms, wallMs: performance.now() - started, passed };
};
const full = await measure(false);
const stopped = await measure(true);
rmSync(root, { recursive: true, force: true });
const share = (name, part, whole) => {
  const percent = (part / whole) * 100;
  return `${Math.round(percent)}% ${goal({ name, value: percent, max: 40, unit: '%' })}`;
};
console.log(
  `${(positive.length + negative.length) * runs} runs, scripted routing agent (${stepDelayMs} ms steps): full runs ${full.tokens} tokens, ${(full.agentMs / 1000).toFixed(1)} s of agent time (${(full.wallMs / 1000).toFixed(1)} s wall); early stop ${stopped.tokens} tokens, ${(stopped.agentMs / 1000).toFixed(1)} s (${(stopped.wallMs / 1000).toFixed(1)} s wall) → stopped over full: tokens ${share('early stop tokens over full', stopped.tokens, full.tokens)}, agent time ${share('early stop agent time over full', stopped.agentMs, full.agentMs)}; same verdicts: ${stopped.passed === full.passed ? 'yes' : 'no'} (${stopped.passed}/${positive.length + negative.length} passed)`,
);
if (stopped.passed !== full.passed) {
  console.log('early stop changed the verdicts');
  process.exitCode = 1;
}
