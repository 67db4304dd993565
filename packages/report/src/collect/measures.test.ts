import type { RunSummary } from '@skeval/schema';
import { describe, expect, it } from 'vitest';
import { measuresOf } from './measures.js';

const summary: RunSummary = {
  version: 1,
  skill: 'greet',
  skill_path: '/skills/greet',
  run_id: 'r',
  agent: 'command',
  model: null,
  judge: 'anthropic:claude-test',
  interrupted: false,
  arms: ['with_skill'],
  runs_per_configuration: 1,
  cases: [],
};

describe("the overview's measures", () => {
  it('says the noise floor was not measured without samples', () => {
    const notMeasured = {
      samples: 1,
      templates: 1,
      claims: 0,
      flip_rate: null,
      noise_floor_pts: null,
      delta_noise_floor_pts: null,
    };
    expect(measuresOf({ ...summary, judge_noise: notMeasured }, undefined, [])).toEqual([
      { text: 'Judge noise floor: not measured (each claim was judged once).', flagged: false },
    ]);
  });

  it('flags a Δ inside the floor and a judge under the κ floor, and counts escalated claims with their cost', () => {
    const lines = measuresOf(
      {
        ...summary,
        judge_noise: {
          samples: 5,
          templates: 1,
          claims: 4,
          flip_rate: 0.1,
          noise_floor_pts: 4,
          delta_noise_floor_pts: 6,
          delta_within_noise: true,
        },
        calibration: {
          measured_at: '2026-12-01T00:00:00.000Z',
          labels: 8,
          kappa: 0.4,
          agreement: 0.75,
          min_kappa: 0.6,
          by_judge: [{ judge: 'anthropic:claude-test', labels: 8, kappa: 0.4, agreement: 0.75, below_floor: true }],
        },
      },
      undefined,
      [
        {
          judge: {
            model: 'anthropic:claude-test',
            calls: 5,
            usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
            escalation: {
              model: 'anthropic:claude-sonnet-4-6',
              calls: 1,
              claims: 2,
              usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2, cost_usd: 0.0012 },
            },
          },
        },
      ],
    );
    expect(lines).toEqual([
      {
        text: 'Judge noise: 5 samples per claim, mean flip rate 10%, noise floor of the pass rate ±4.0 pts; of the Δ ±6.0 pts: the Δ is not distinguishable from judge noise.',
        flagged: true,
      },
      {
        text: "2 claims escalated to anthropic:claude-sonnet-4-6 ($0.0012); each escalated row's evidence says why.",
        flagged: false,
      },
      {
        text: "Judge anthropic:claude-test: Cohen's κ 0.40 against the author's 8 labels, below the 0.6 floor.",
        flagged: true,
      },
    ]);
  });
});
