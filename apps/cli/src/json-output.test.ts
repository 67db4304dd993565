import { describe, expect, it } from 'vitest';
import { jsonOutput, jsonOutputChunks } from './json-output.js';

/** A sequence made as it is walked, as a plan's case runs are: iterable, listed by `toJSON`. */
function lazyCaseRuns(count: number) {
  function* entries() {
    for (let index = 1; index <= count; index += 1)
      yield {
        caseId: String(index),
        runNumber: 1,
        caseDir: `/runs/r1/eval-${index}`,
        ...(index % 3 === 0 ? { complete: true } : {}),
      };
  }
  return { size: count, [Symbol.iterator]: entries, toJSON: () => [...entries()] };
}

/** What `JSON.stringify` prints of the same plan held whole, keys in snake_case: made without the code under test. */
function wholeText(count: number, extra: Record<string, unknown> = {}): string {
  const caseRuns = Array.from({ length: count }, (_, at) => ({
    case_id: String(at + 1),
    run_number: 1,
    case_dir: `/runs/r1/eval-${at + 1}`,
    ...((at + 1) % 3 === 0 ? { complete: true } : {}),
  }));
  return `${JSON.stringify({ schema_version: 1, skills: [{ skill: 'greeting', agent_runs: count }], case_runs: caseRuns, shard: null, notes: [], ...extra }, null, 2)}\n`;
}

describe('--json output written in chunks', () => {
  it('prints byte for byte what the whole object prints, a lazy list item by item', () => {
    const plan = {
      skills: [{ skill: 'greeting', agentRuns: 5000 }],
      caseRuns: lazyCaseRuns(5000),
      shard: null,
      notes: [],
    };
    const chunks = [...jsonOutputChunks({ ...plan, maxCostUsd: 2.5, left: undefined })];
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe(wholeText(5000, { max_cost_usd: 2.5 }));
  });

  it('prints an empty lazy list as [] and agrees with jsonOutput, which lists it through toJSON', () => {
    const planOf = (count: number) => ({
      skills: [{ skill: 'greeting', agentRuns: count }],
      caseRuns: lazyCaseRuns(count),
      shard: null,
      notes: [],
    });
    expect([...jsonOutputChunks(planOf(0))].join('')).toBe(wholeText(0));
    expect(jsonOutput(planOf(0))).toBe(wholeText(0));
    expect(jsonOutput(planOf(4))).toBe(wholeText(4));
  });
});
