import type { CaseRunOutcome } from '@skeval/run-folder';
import type { Grading } from '@skeval/schema';
import { describe, expect, it } from 'vitest';
import { costOfCaseRun, createCostCap } from './cost-cap.js';

function outcome(agentCostUsd: number | null | undefined, judgeCostUsd?: number | null): CaseRunOutcome {
  const grading: Grading = {
    case_id: '1',
    assertion_results: [],
    expectations: [],
    summary: { passed: 0, failed: 0, errored: 0, skipped: 0, total: 0, pass_rate: null },
    ...(judgeCostUsd === undefined
      ? {}
      : {
          judge: {
            model: 'anthropic:claude-sonnet-4-6',
            calls: 1,
            usage: { input_tokens: 1000, output_tokens: 100, total_tokens: 1100, cost_usd: judgeCostUsd },
          },
        }),
  };
  return {
    skill: 'demo',
    caseId: '1',
    arm: 'with_skill',
    runNumber: 1,
    caseDir: '/runs/eval-1',
    status: 'ok',
    grading,
    durationMs: 10,
    skillEdited: false,
    ...(agentCostUsd === undefined ? {} : { agentCostUsd }),
  };
}

describe('costOfCaseRun', () => {
  it("adds the judge's cost from grading.json to the agent's", () => {
    expect(costOfCaseRun(outcome(0.5, 0.25))).toEqual({ usd: 0.75, unpriced: false });
  });

  it('counts a run that called no judge at its agent cost', () => {
    expect(costOfCaseRun(outcome(0.5))).toEqual({ usd: 0.5, unpriced: false });
  });

  it('counts an unknown agent or judge price as 0 and says it is unpriced', () => {
    expect(costOfCaseRun(outcome(null, 0.25))).toEqual({ usd: 0.25, unpriced: true });
    expect(costOfCaseRun(outcome(0.5, null))).toEqual({ usd: 0.5, unpriced: true });
    expect(costOfCaseRun(outcome(undefined))).toEqual({ usd: 0, unpriced: true });
  });
});

describe('createCostCap', () => {
  it('starts nothing else until the first case run has a cost, then estimates from the mean', async () => {
    const cap = createCostCap(1);
    expect(await cap.mayStart()).toBe(true);
    let second: boolean | undefined;
    const waiting = cap.mayStart().then((allowed) => {
      second = allowed;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(second).toBeUndefined();
    cap.finished(outcome(0.3));
    await waiting;
    expect(second).toBe(true);
    // 0.3 spent, one running at about 0.3: a third would make 0.9; a fourth 1.2.
    expect(await cap.mayStart()).toBe(true);
    expect(await cap.mayStart()).toBe(false);
    expect(cap.state()).toMatchObject({ spentUsd: 0.3, finished: 1, stopped: true, notStarted: 1 });
    // Once stopped it stays stopped, whatever finishes.
    cap.finished(outcome(0));
    cap.finished(outcome(0));
    expect(await cap.mayStart()).toBe(false);
  });

  it('lets the next case run start when the first ended without an outcome', async () => {
    const cap = createCostCap(1);
    expect(await cap.mayStart()).toBe(true);
    const next = cap.mayStart();
    cap.finished(undefined);
    expect(await next).toBe(true);
  });

  it('counts the case runs of earlier sessions, and calls back once for the first unpriced one', async () => {
    const unpriced: string[] = [];
    const cap = createCostCap(1, (entry) => unpriced.push(entry.caseId));
    cap.counted(outcome(0.6));
    cap.counted(outcome(null));
    cap.counted(outcome(null));
    expect(cap.state()).toMatchObject({ spentUsd: 0.6, finished: 3, unpriced: 2 });
    expect(unpriced).toEqual(['1']);
    // 0.6 + (0 + 1) × 0.2 = 0.8 ≤ 1, then 0.6 + 2 × 0.2 = 1.0 ≤ 1, then 1.2 > 1.
    expect(await cap.mayStart()).toBe(true);
    expect(await cap.mayStart()).toBe(true);
    expect(await cap.mayStart()).toBe(false);
  });
});
