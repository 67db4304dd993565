import type { Gates } from '@skeval/schema';
import { comparisonOf } from '@skeval/schema/internal';
import type { SkillRun } from '../run/run-report.js';
import { armPassRates } from './arm-pass-rates.js';

/** The gates there are, by the flag that sets each. */
export type GateName = 'min-pass-rate' | 'min-delta' | 'max-errors';

/** One gate checked on one skill's run. */
export interface GateCheck {
  skill: string;
  /** The run folder checked (a skill's name may repeat in a tree; its run folder does not). */
  runDir: string;
  gate: GateName;
  /** The measured value: a pass rate (0..1), the delta's lower bound in points, or a count of errors; null when it could not be measured. */
  measured: number | null;
  threshold: number;
  passed: boolean;
  /** One line: the gate, the skill, what was measured, the threshold. */
  message: string;
}

/** What a skill's run counts as errors: each case run whose agent failed, and each errored assertion of the others. */
export function errorsOf(run: SkillRun): { agentErrors: number; erroredAssertions: number } {
  const finished = run.outcomes.filter((outcome) => outcome.status === 'ok');
  return {
    agentErrors: run.outcomes.length - finished.length,
    erroredAssertions: finished.reduce((sum, outcome) => sum + outcome.grading.summary.errored, 0),
  };
}

/**
 * The with_skill arm's pass rate (`armPassRates`), the number the terminal's last lines,
 * benchmark.md and the HTML report show; null when no case run graded anything.
 */
export function withSkillPassRate(run: SkillRun): number | null {
  return armPassRates(run).find((entry) => entry.arm === 'with_skill')?.rate ?? null;
}

/**
 * The gates a run is held to, the same for a whole run and for a merge of its shards: `minDelta`
 * only where the run has two arms (a one-arm run has no delta), and which gates were left out.
 */
export function gatesForArms(gates: Gates, arms: number): { gates: Gates; unchecked: GateName[] } {
  if (arms > 1 || gates.minDelta === undefined) return { gates, unchecked: [] };
  const { minDelta: _, ...rest } = gates;
  return { gates: rest, unchecked: ['min-delta'] };
}

/** The note for a `minDelta` gate of the config file that a one-arm run does not check. */
export function uncheckedDeltaNote(configFile: string): string {
  return `note: the minDelta gate of ${configFile} is not checked: this run has one arm (add --compare or --baseline to check it)`;
}

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;
const signed = (value: number) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(1)}`;
const points = (value: number) => `${signed(value)} pts`;

/**
 * Checks a skill's run against its gates: `minPassRate` on the with_skill arm's pass rate,
 * `minDelta` on the lower end of the delta's 95% interval (so noise cannot pass it), in
 * percentage points, and `maxErrors` on agent errors plus errored assertions of the case runs
 * whose agent finished. A value that cannot be measured fails its gate.
 */
export function checkGates(run: SkillRun, gates: Gates): GateCheck[] {
  const checks: GateCheck[] = [];
  const skill = run.skill;
  if (gates.minPassRate !== undefined) {
    const threshold = gates.minPassRate;
    const measured = withSkillPassRate(run);
    const passed = measured !== null && measured >= threshold;
    const value =
      measured === null
        ? 'the with_skill arm graded no assertion, so it has no pass rate'
        : `the with_skill pass rate ${percent(measured)} is ${passed ? 'at or above' : 'below'}`;
    checks.push({
      skill,
      runDir: run.runDir,
      gate: 'min-pass-rate',
      measured,
      threshold,
      passed,
      message: `gate min-pass-rate ${passed ? 'passed' : 'failed'}: ${skill}: ${value} the minimum ${percent(threshold)}`,
    });
  }
  if (gates.minDelta !== undefined) {
    const threshold = gates.minDelta;
    const delta = comparisonOf(run.benchmark)?.delta ?? null;
    const measured = delta ? delta.ci95[0] * 100 : null;
    const passed = measured !== null && measured >= threshold - 1e-9;
    const value = delta
      ? `the lower end of the delta's 95% interval, ${points(delta.ci95[0] * 100)} (delta ${points(delta.pass_rate * 100)}, interval ${signed(delta.ci95[0] * 100)} … ${points(delta.ci95[1] * 100)}), is ${passed ? 'at or above' : 'below'}`
      : 'no case ran in both arms, so there is no delta to hold against';
    checks.push({
      skill,
      runDir: run.runDir,
      gate: 'min-delta',
      measured,
      threshold,
      passed,
      message: `gate min-delta ${passed ? 'passed' : 'failed'}: ${skill}: ${value} the minimum ${points(threshold)}`,
    });
  }
  if (gates.maxErrors !== undefined) {
    const threshold = gates.maxErrors;
    const { agentErrors, erroredAssertions } = errorsOf(run);
    const measured = agentErrors + erroredAssertions;
    const passed = measured <= threshold;
    checks.push({
      skill,
      runDir: run.runDir,
      gate: 'max-errors',
      measured,
      threshold,
      passed,
      message: `gate max-errors ${passed ? 'passed' : 'failed'}: ${skill}: ${measured} error${measured === 1 ? '' : 's'} (${agentErrors} agent error${agentErrors === 1 ? '' : 's'}, ${erroredAssertions} errored assertion${erroredAssertions === 1 ? '' : 's'}), ${passed ? 'within' : 'more than'} the maximum of ${threshold}`,
    });
  }
  return checks;
}
