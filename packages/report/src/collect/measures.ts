import type { Benchmark, Grading, RunSummary } from '@skeval/schema';
import { comparisonOf } from '@skeval/schema/internal';

const percent = (value: number) => `${(value * 100).toFixed(0)}%`;

/**
 * The lines the overview shows under the comparison: the judge's noise floor (or that it was not
 * measured), the sign test with Vally's rule, and the judge's κ from the last calibration,
 * flagged when it is under the floor. `flagged` is true for a line a reader must not miss.
 */
export function measuresOf(
  summary: Pick<RunSummary, 'judge_noise' | 'calibration'>,
  benchmark: Pick<Benchmark, 'skeval'> | undefined,
  gradings: ReadonlyArray<Pick<Grading, 'judge'>>,
): Array<{ text: string; flagged: boolean }> {
  const lines: Array<{ text: string; flagged: boolean }> = [];
  const noise = comparisonOf(benchmark)?.judge_noise ?? summary.judge_noise;
  if (noise && noise.samples > 1 && noise.noise_floor_pts !== null) {
    const delta =
      noise.delta_noise_floor_pts === null
        ? ''
        : `; of the Δ ±${noise.delta_noise_floor_pts.toFixed(1)} pts${noise.delta_within_noise ? ': the Δ is not distinguishable from judge noise' : ''}`;
    lines.push({
      text: `Judge noise: ${noise.samples} samples per claim, mean flip rate ${percent(noise.flip_rate ?? 0)}, noise floor of the pass rate ±${noise.noise_floor_pts.toFixed(1)} pts${delta}.`,
      flagged: noise.delta_within_noise === true,
    });
  } else if (noise)
    lines.push({ text: 'Judge noise floor: not measured (each claim was judged once).', flagged: false });
  const escalations = gradings.flatMap((grading) => (grading.judge?.escalation ? [grading.judge.escalation] : []));
  if (escalations.length) {
    const costs = escalations.map((entry) => entry.usage.cost_usd);
    const cost = costs.some((value) => value === null || value === undefined)
      ? 'cost unknown'
      : `$${costs.reduce<number>((sum, value) => sum + (value ?? 0), 0).toFixed(4)}`;
    const claims = escalations.reduce((sum, entry) => sum + entry.claims, 0);
    lines.push({
      text: `${claims} claim${claims === 1 ? '' : 's'} escalated to ${escalations[0]?.model ?? 'a stronger judge'} (${cost}); each escalated row's evidence says why.`,
      flagged: false,
    });
  }
  const test = comparisonOf(benchmark)?.sign_test;
  if (test)
    lines.push({
      text: `Sign test: ${test.wins} wins, ${test.losses} losses, ${test.ties} ties, exact p = ${test.p_value.toFixed(3)}, net win ${percent(test.net_win)}; Vally's rule: ${test.verdict}.`,
      flagged: false,
    });
  for (const judge of summary.calibration?.by_judge ?? [])
    lines.push({
      text: `Judge ${judge.judge}: Cohen's κ ${judge.kappa === null ? 'undefined' : judge.kappa.toFixed(2)} against the author's ${judge.labels} labels${judge.below_floor ? `, below the ${summary.calibration?.min_kappa} floor` : ''}.`,
      flagged: judge.below_floor,
    });
  return lines;
}
