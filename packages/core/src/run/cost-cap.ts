import type { CaseRunOutcome } from '@skeval/run-folder';
import type { CostCapRecord } from '@skeval/schema/internal';

/** A case run's cost: its agent's and its judge's, in US dollars; `unpriced` when either is unknown (counted as 0). */
export function costOfCaseRun(outcome: CaseRunOutcome): { usd: number; unpriced: boolean } {
  const agent = outcome.agentCostUsd;
  const judge = outcome.grading.judge ? (outcome.grading.judge.usage.cost_usd ?? null) : 0;
  return { usd: (agent ?? 0) + (judge ?? 0), unpriced: agent === null || agent === undefined || judge === null };
}

/** What a run's cost cap decided, as the run reports it. */
export interface CostCapState {
  capUsd: number;
  /** Cost of the finished case runs (earlier sessions of a resumed run included). */
  spentUsd: number;
  /** Finished case runs counted. */
  finished: number;
  /** Finished case runs with an unknown agent or judge cost, counted as 0. */
  unpriced: number;
  /** True once a case run was not started because the next launches would pass the cap. */
  stopped: boolean;
  /** Case runs not started because of the cap. */
  notStarted: number;
}

export interface CostCap {
  /**
   * Whether one more case run may start: not before the first one finished (nothing predicts a
   * cost before then), and only while the spend, plus the mean cost of a finished case run for
   * each running one and this one, stays within the cap. Once it says no, it says no to all.
   */
  mayStart(): Promise<boolean>;
  /** A started case run finished (undefined: it ended without an outcome, or was not run after all). */
  finished(outcome: CaseRunOutcome | undefined): void;
  /** A case run finished in an earlier session (a resumed run): its cost counts, nothing was started. */
  counted(outcome: CaseRunOutcome): void;
  state(): CostCapState;
}

/**
 * The cap of `--max-cost-usd`: summed as case runs finish, checked before each starts;
 * `onUnpriced` is called for the first finished case run whose cost is unknown.
 */
export function createCostCap(capUsd: number, onUnpriced?: (outcome: CaseRunOutcome) => void): CostCap {
  const state: CostCapState = { capUsd, spentUsd: 0, finished: 0, unpriced: 0, stopped: false, notStarted: 0 };
  let running = 0;
  let waiters: Array<() => void> = [];
  const add = (outcome: CaseRunOutcome | undefined) => {
    if (outcome) {
      const cost = costOfCaseRun(outcome);
      state.spentUsd += cost.usd;
      state.finished += 1;
      if (cost.unpriced) {
        if (state.unpriced === 0) onUnpriced?.(outcome);
        state.unpriced += 1;
      }
    }
    const waiting = waiters;
    waiters = [];
    for (const wake of waiting) wake();
  };
  return {
    async mayStart() {
      while (!state.stopped && state.finished === 0 && running > 0)
        await new Promise<void>((wake) => waiters.push(wake));
      const meanUsd = state.finished ? state.spentUsd / state.finished : 0;
      if (state.stopped || state.spentUsd + (running + 1) * meanUsd > capUsd) {
        state.stopped = true;
        state.notStarted += 1;
        return false;
      }
      running += 1;
      return true;
    },
    finished(outcome) {
      running -= 1;
      add(outcome);
    },
    counted(outcome) {
      add(outcome);
    },
    state: () => ({ ...state }),
  };
}

/** The cap as summary.json records it. */
export function costCapRecord(state: CostCapState): CostCapRecord {
  return {
    cap_usd: state.capUsd,
    spent_usd: Math.round(state.spentUsd * 1e6) / 1e6,
    unpriced_case_runs: state.unpriced,
    stopped: state.stopped,
    not_started: state.notStarted,
  };
}
