import { type Configuration, passRateOf } from '@skeval/schema/internal';

/** One graded case run, as the analysis needs it. */
export interface ArmRun {
  caseId: string;
  arm: Configuration;
  runNumber: number;
  /** Per assertion (by position): pass, fail, error or skipped. */
  statuses: Array<'pass' | 'fail' | 'error' | 'skipped'>;
  /** Assertion texts, by position. */
  texts: string[];
  /**
   * The agent crashed or timed out: every assertion is `error`, so the run counts as not passed
   * (a skill that makes the agent hang must not look better for it); counted apart too, and left
   * out of the per-assertion rates, which a crash says nothing about.
   */
  agentError: boolean;
  /** A negative control (`metadata.negative_control`): reported held or broken, never "non-discriminating". */
  negativeControl?: boolean;
  /** Whether the run read the skill under test (with_skill and old_skill runs). */
  skillRead: boolean;
  seconds: number | null;
  tokens: number | null;
  costUsd: number | null;
}

/** Whether an assertion status counts in a rate: every status but `skipped`. */
export const isGraded = (status: string) => status !== 'skipped';

/** A run's pass rate (`passRateOf`: errors count as not passed, skips are left out); null when nothing was graded. */
export function runPassRate(run: ArmRun): number | null {
  const passed = run.statuses.filter((status) => status === 'pass').length;
  const skipped = run.statuses.filter((status) => status === 'skipped').length;
  return passRateOf({ passed, total: run.statuses.length, skipped });
}

/** A run succeeds when every graded assertion passed (and there was one). */
export function runSucceeded(run: ArmRun): boolean {
  const counted = run.statuses.filter(isGraded);
  return counted.length > 0 && counted.every((status) => status === 'pass');
}
