import type { RunPlan } from '@skeval/core';
import { SkevalError } from '@skeval/schema';
import { exitCodes } from '../exit-codes.js';
import { jsonOutputChunks } from '../json-output.js';
import type { ReporterSpec } from '../reporter-flag.js';
import { terminalOf } from '../terminal.js';
import { type PreparedRun, plannedOptions } from './run.js';

/**
 * `skeval run --dry-run`: prints the plan (what a run would launch and what the judge would
 * cost) as text or JSON, and resolves to the exit code: 2 when an evals file is invalid or the
 * run would meet a problem before its first case (each named on stderr).
 */
export async function printDryRun(prepared: PreparedRun): Promise<number> {
  const { core, io, flags, judge } = prepared;
  // The config file's reporters are for results: a dry run reads only the flags typed.
  const json = prepared.settings.sources.reporters === 'flag' && dryRunFormat(prepared.reporters) === 'json';
  const plan = await core.planRun(await plannedOptions(prepared));
  const { wrapWords } = await import('@skeval/core/internal');
  const width = terminalOf(io, 'stdout').width;
  const cap = flags.maxCostUsd;
  // The plan's problems are all known here, before anything is printed; its case runs are
  // listed as they are walked, a chunk at a time.
  if (json)
    for (const chunk of jsonOutputChunks({ ...plan, ...(cap === undefined ? {} : { maxCostUsd: cap }) }))
      io.stdout(chunk);
  else io.stdout(renderPlan(plan, (line) => wrapWords(line, width - 2), judge.skipReason, cap));
  // Each problem the run would meet before its first case, named with its fix.
  if (!json) for (const problem of plan.problems) io.stderr(`skeval: ${problem}\n`);
  return plan.invalid.length || plan.problems.length ? exitCodes.usage : exitCodes.ok;
}

/** `--dry-run` prints the plan as text or JSON; a report of results has nothing to report yet. */
function dryRunFormat(reporters: readonly ReporterSpec[]): 'text' | 'json' {
  const other = reporters.find((spec) => spec.path || (spec.name !== 'terminal' && spec.name !== 'json'));
  if (other) {
    throw new SkevalError({
      code: 'usage',
      message: `--dry-run prints the plan, not results: --reporter ${other.name}${other.path ? `:${other.path}` : ''} has nothing to report; drop it, or use --json for the plan as JSON`,
    });
  }
  return reporters.some((spec) => spec.name === 'json') ? 'json' : 'text';
}

/** The plan of `--dry-run`, each entry wrapped by `wrap` with its later lines indented; the cost cap beside the estimate. */
export function renderPlan(
  plan: RunPlan,
  wrap: (line: string) => string[],
  judgeSkipReason: string | undefined,
  maxCostUsd: number | undefined,
): string {
  const lines = plan.skills.map(
    (skill) =>
      `${skill.skill}: ${count(skill.cases, 'case')}${skill.casesInAllShards === undefined || !plan.shard ? '' : ` (shard ${plan.shard.index}/${plan.shard.total}: of ${skill.casesInAllShards})`} × ${count(skill.arms, 'arm')} × ${count(skill.runs, 'run')} = ${count(skill.agentRuns, 'agent run')}; ${count(skill.judgeCalls, 'judge call')}`,
  );
  for (const skill of plan.skills)
    if (skill.requiredSample) lines.push(requiredSampleLine(skill.skill, skill.requiredSample));
  for (const invalid of plan.invalid)
    lines.push(
      `${invalid.skill}: not runnable, its evals file has ${invalid.errors.length} error${invalid.errors.length === 1 ? '' : 's'} (skeval validate ${invalid.evalsPath})`,
    );
  for (const entry of plan.unpaired) lines.push(entry.reason);
  lines.push(
    `in all: ${count(plan.agentRuns, 'agent run')}, ${count(plan.judgeCalls, 'judge call')}${plan.judge ? ` to ${plan.judge}` : ''}`,
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
  if (plan.containment) lines.push(`containment: ${plan.containment}`);
  lines.push("agent cost: not estimated (it depends on the agent's work); nothing was run");
  if (maxCostUsd !== undefined) {
    const judgeHigh = plan.judgeCostUsd?.high;
    lines.push(
      `cost cap: $${maxCostUsd.toFixed(2)} (agent and judge)${
        plan.judgeCostUsd
          ? ` beside the judge's $${plan.judgeCostUsd.low.toFixed(4)} to $${plan.judgeCostUsd.high.toFixed(4)}${judgeHigh !== undefined && judgeHigh > maxCostUsd ? ', which alone may reach it' : ''}`
          : ''
      }; no case run starts that would pass it`,
    );
  }
  return `${lines.flatMap((line) => wrap(line).map((part, at) => (at === 0 ? part : `  ${part}`))).join('\n')}\n`;
}

/** How many cases and trials a comparison of the skill needs, from its last compared run. */
function requiredSampleLine(skill: string, required: NonNullable<RunPlan['skills'][number]['requiredSample']>): string {
  const plans = required.plans
    .map(
      (entry) =>
        `${entry.cases ?? '?'} case${entry.cases === 1 ? '' : 's'} × ${entry.trials} trial${entry.trials === 1 ? '' : 's'}`,
    )
    .join(', ');
  const observed = `${required.observed.cases} case${required.observed.cases === 1 ? '' : 's'} × ${required.observed.trials} trial${required.observed.trials === 1 ? '' : 's'} in ${required.from}`;
  if (required.plans.every((entry) => entry.cases === null))
    return `${skill}: the cases needed to detect a Δ of ${required.detect_points} pts cannot be estimated: ${observed} showed no variance`;
  return `${skill}: to detect a Δ of ${required.detect_points} pts at 80% power (two-sided 5%): ${plans}; from ${observed} (sd between cases ${required.sd_between_points.toFixed(1)} pts, within a case ${required.sd_within_points.toFixed(1)} pts); Vally's sign test needs 6 cases or more`;
}

/** `1 case`, `2 cases`. */
const count = (value: number, noun: string) => `${value} ${noun}${value === 1 ? '' : 's'}`;
