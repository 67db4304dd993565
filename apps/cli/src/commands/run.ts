import { planRun, type RunEvalsResult, type RunPlan, renderBenchmark, runEvals } from '@skeval/core';
import type { Command } from 'commander';
import { type CliIo, exitCodes } from '../io.js';
import { type AgentFlags, agentNames, judgeFromFlags, runnerFromFlags } from './agent-options.js';
import { createProgress } from './progress.js';
import { renderRunSummary } from './render-run.js';

interface RunFlags extends AgentFlags {
  judge?: string;
  concurrency: number;
  timeout: number;
  outputDir?: string;
  iteration?: string;
  skill: string[];
  case: string[];
  json?: boolean;
  keepWorkspaces?: boolean;
  cache: boolean;
  resume?: string;
  compare?: boolean;
  baseline?: string;
  runs: number;
  extraSkill: string[];
  contextMode: 'isolated' | 'ambient';
  dryRun?: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];
const positive = (value: string) => {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new Error(`expected a positive number, got ${value}`);
  return number;
};

export function registerRun(
  program: Command,
  io: CliIo,
  setExitCode: (code: number) => void,
  signal?: AbortSignal,
): void {
  program
    .command('run')
    .description(
      'run every case of a skill (or of every skill in a tree) through an agent, grade it, write the artifacts',
    )
    .argument('[path]', 'a skill folder with evals/evals.json, or a tree of skills', '.')
    .option(
      '--agent <name>',
      `the agent: ${agentNames.join(', ')} (default: command with --agent-command, else claude-code)`,
    )
    .option('--agent-command <command>', 'for --agent command: the program, with {prompt}, {prompt_file}, {workspace}')
    .option('--agent-bin <path>', "the agent CLI's executable (default: claude, codex, pi)")
    .option('--model <model>', "the agent's model, as the agent names it")
    .option(
      '--judge <provider:model>',
      'the judge model (default: .pi settings, then ANTHROPIC_API_KEY or OPENAI_API_KEY)',
    )
    .option('--concurrency <n>', 'case runs at a time', positive, 4)
    .option('--timeout <seconds>', "each case run's time limit", positive, 600)
    .option('--output-dir <dir>', 'where run folders go (default: <skill>/evals-runs)')
    .option('--iteration <name>', 'group runs under iteration-<name>/')
    .option('--skill <name>', 'run only this skill (repeatable)', collect, [])
    .option('--case <id>', 'run only this case (repeatable)', collect, [])
    .option('--compare', 'run every case with the skill and without it, and measure the difference')
    .option('--baseline <skill-dir>', 'compare with another version of the skill instead (arm old_skill)')
    .option('--runs <n>', 'repeat each arm n times', (value: string) => Math.floor(positive(value)), 1)
    .option('--extra-skill <path>', 'install a distractor skill in every arm (repeatable)', collect, [])
    .option(
      '--context-mode <mode>',
      'isolated (only the installed skills) or ambient (the agent may load its user skills too)',
      (value: string) => {
        if (value !== 'isolated' && value !== 'ambient') throw new Error('expected isolated or ambient');
        return value;
      },
      'isolated',
    )
    .option('--resume <run-dir>', 'finish a run folder: skip case runs whose artifacts are complete')
    .option('--keep-workspaces', 'keep each case run workspace (its path is in context-manifest.json)')
    .option('--no-cache', 'send every judge request, ignoring the response cache')
    .option(
      '--dry-run',
      'discover and validate everything, then print how many agent runs and judge calls a run would make, and what the judge would cost; run nothing',
    )
    .option('--json', 'print the result as JSON')
    .action(async (path: string, flags: RunFlags) => {
      if (flags.dryRun) {
        const judge = judgeFromFlags(flags, io.cwd, io.env);
        const plan = await planRun({
          path,
          cwd: io.cwd,
          ...(flags.skill.length ? { skills: flags.skill } : {}),
          ...(flags.case.length ? { cases: flags.case } : {}),
          ...(flags.compare ? { compare: true } : {}),
          ...(flags.baseline ? { baseline: flags.baseline } : {}),
          runs: flags.runs,
          ...(judge.model ? { judge: judge.model } : {}),
        });
        io.stdout(flags.json ? `${JSON.stringify(plan, null, 2)}\n` : renderPlan(plan, judge.skipReason));
        setExitCode(plan.invalid.length ? exitCodes.usage : exitCodes.ok);
        return;
      }
      const runner = runnerFromFlags(flags, io.cwd, io.env);
      const judge = judgeFromFlags(flags, io.cwd, io.env);
      const result = await runEvals({
        path,
        cwd: io.cwd,
        runner,
        judge,
        concurrency: flags.concurrency,
        timeoutMs: flags.timeout * 1000,
        ...(flags.outputDir ? { outputDir: flags.outputDir } : {}),
        ...(flags.iteration ? { iteration: flags.iteration } : {}),
        ...(flags.skill.length ? { skills: flags.skill } : {}),
        ...(flags.case.length ? { cases: flags.case } : {}),
        ...(flags.resume ? { resume: flags.resume } : {}),
        keepWorkspaces: flags.keepWorkspaces ?? false,
        ...(flags.compare ? { compare: true } : {}),
        ...(flags.baseline ? { baseline: flags.baseline } : {}),
        runs: flags.runs,
        extraSkills: flags.extraSkill,
        contextMode: flags.contextMode,
        ...(signal ? { signal } : {}),
        onProgress: createProgress(io),
      });
      if (io.stderrIsTTY) io.stderr('\r\x1b[K');
      const comparisons =
        flags.compare || flags.baseline
          ? result.runs.flatMap((run) => (run.benchmark ? [`\n${renderBenchmark(run.benchmark)}`] : []))
          : [];
      io.stdout(
        flags.json
          ? `${JSON.stringify(toJson(result), null, 2)}\n`
          : `${renderRunSummary(result, judge.skipReason)}${comparisons.join('')}`,
      );
      setExitCode(exitCodeOf(result));
    });
}

/** DESIGN §9: 130 interrupted, 2 not everything could start, 3 undecided verdicts, 1 a failure, 0 all passed. */
export function exitCodeOf(result: RunEvalsResult): number {
  if (result.interrupted) return exitCodes.interrupted;
  if (result.invalid.length > 0) return exitCodes.usage;
  if (result.totals.errored > 0 || result.totals.agentErrors > 0) return exitCodes.infrastructure;
  if (result.totals.failed > 0) return exitCodes.failed;
  return exitCodes.ok;
}

function toJson(result: RunEvalsResult) {
  return {
    interrupted: result.interrupted,
    totals: result.totals,
    invalid: result.invalid,
    runs: result.runs.map((run) => ({
      skill: run.skill,
      run_dir: run.runDir,
      comparison: run.benchmark?.skeval ?? null,
      cases: run.outcomes.map((outcome) => ({
        id: outcome.caseId,
        arm: outcome.arm,
        run_number: outcome.runNumber,
        status: outcome.status,
        summary: outcome.grading.summary,
        skill_edited: outcome.skillEdited,
        dir: outcome.caseDir,
        ...(outcome.error ? { error: outcome.error } : {}),
      })),
    })),
  };
}

function renderPlan(plan: RunPlan, judgeSkipReason?: string): string {
  const lines = plan.skills.map(
    (skill) =>
      `${skill.skill}: ${skill.cases} cases × ${skill.arms} arm${skill.arms === 1 ? '' : 's'} × ${skill.runs} run${skill.runs === 1 ? '' : 's'} = ${skill.agentRuns} agent runs; ${skill.judgeCalls} judge calls`,
  );
  for (const invalid of plan.invalid)
    lines.push(
      `${invalid.skill}: not runnable, its evals file has ${invalid.errors.length} error${invalid.errors.length === 1 ? '' : 's'} (skeval validate ${invalid.evalsPath})`,
    );
  lines.push(
    `in all: ${plan.agentRuns} agent runs, ${plan.judgeCalls} judge calls${plan.judge ? ` to ${plan.judge}` : ''}`,
  );
  if (plan.judgeInputTokens && plan.judgeOutputTokens !== null) {
    lines.push(
      `per judge call: about ${plan.judgeInputTokens.low.toLocaleString('en-US')} to ${plan.judgeInputTokens.high.toLocaleString('en-US')} input tokens (empty response to a response and files at their bounds), at most ${plan.judgeOutputTokens.toLocaleString('en-US')} output tokens`,
    );
    lines.push(
      plan.judgeCostUsd
        ? `judge cost: about $${plan.judgeCostUsd.low.toFixed(4)} to $${plan.judgeCostUsd.high.toFixed(4)}`
        : 'judge cost: unknown (the model is not in the price table)',
    );
  } else if (!plan.judge && judgeSkipReason) lines.push(`judged assertions would be skipped: ${judgeSkipReason}`);
  lines.push("agent cost: not estimated (it depends on the agent's work); nothing was run");
  return `${lines.join('\n')}\n`;
}
