// The judge's noise floor (2,000 resamples of every sampled claim's votes, agent runs fixed) for
// a compared run of 500 cases × 2 arms × 10 judged claims × 5 samples, through the built
// @skeval/run-folder, and what it adds to summarizing a run. Goal: ≤ 5 s.

import { judgeNoiseOf } from '../packages/run-folder/dist/internal.js';
import { goal, sized } from './figures.mjs';

const cases = sized(500, 20);
const claims = 10;
const samples = 5;

// Seeded votes: each claim flips with 20 %, so the floor has something to measure.
let state = 7;
const random = () => {
  state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
  return state / 2_147_483_648;
};
const runs = [];
for (let caseIndex = 0; caseIndex < cases; caseIndex += 1) {
  for (const arm of ['with_skill', 'without_skill']) {
    const rows = Array.from({ length: claims }, () => {
      const votes = Array.from({ length: samples }, () => (random() < 0.2 ? 'fail' : 'pass'));
      const passes = votes.filter((vote) => vote === 'pass').length;
      const status = passes * 2 > samples ? 'pass' : 'fail';
      return {
        text: 'a claim',
        passed: status === 'pass',
        status,
        evidence: '',
        assertion: 'a claim',
        grader: 'judge',
        samples: votes,
      };
    });
    runs.push({ caseId: String(caseIndex), arm, rows });
  }
}

const started = performance.now();
const noise = judgeNoiseOf(runs, { target: 'with_skill', baseline: 'without_skill' });
const seconds = (performance.now() - started) / 1000;
console.log(
  `${runs.length} case runs × ${claims} claims × ${samples} samples: noise floor ±${noise.noise_floor_pts} pts, Δ floor ±${noise.delta_noise_floor_pts} pts, flip rate ${noise.flip_rate}`,
);
console.log(
  `  ${noise.resamples} resamples in ${seconds.toFixed(2)} s ${goal({ name: 'noise floor of 1,000 case runs', value: seconds, max: 5, unit: ' s' })}`,
);
