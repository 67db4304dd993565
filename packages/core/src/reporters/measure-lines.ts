import type { BenchmarkSkeval, JudgeNoise } from '@skeval/schema/internal';
import type { SkillRun } from '../run/run-report.js';
import { plural } from './case-runs.js';

type Analysis = BenchmarkSkeval;

const percent = (value: number) => `${(value * 100).toFixed(0)}%`;
const pValue = (value: number) =>
  value < 0.001 ? value.toExponential(1) : value.toFixed(3).replace(/0+$/, '').replace(/\.$/, '');

/** The label a Δ inside the judge's noise floor gets, in every report. */
const withinNoiseLabel = 'not distinguishable from judge noise';

/** The sign test and Vally's rule, in one sentence. */
export function signTestLine(analysis: Analysis): string | undefined {
  const test = analysis.sign_test;
  if (!test) return undefined;
  const cases = test.wins + test.losses + test.ties;
  return `Sign test over ${plural(cases, 'case')}: ${test.wins} wins, ${test.losses} losses, ${test.ties} ties, exact p = ${pValue(test.p_value)}; net win ${percent(test.net_win)}; Vally's rule (p ≤ 0.05, net win ≥ 20%, ≥ 5 cases): ${test.verdict}.`;
}

/** pass@k and pass^k at the most trials every case has, per arm; undefined with one trial (they equal the pass rate of whole runs). */
export function passKLine(analysis: Analysis, labels: Record<string, string>): string | undefined {
  const arms = Object.keys(analysis.pass_hat_k ?? {});
  const most = Math.min(...arms.map((arm) => Object.keys(analysis.pass_hat_k?.[arm] ?? {}).length));
  if (!arms.length || !Number.isFinite(most) || most < 2) return undefined;
  const key = String(most);
  const of = (table: Analysis['pass_at_k'], arm: string) => percent(table?.[arm]?.[key] ?? 0);
  const parts = arms.map(
    (arm) =>
      `${labels[arm] ?? arm} pass@${most} ${of(analysis.pass_at_k, arm)}, pass^${most} ${of(analysis.pass_hat_k, arm)}`,
  );
  return `Over ${most} trials (pass^k: every trial passes): ${parts.join('; ')}.`;
}

/** The judge's noise floor beside the Δ, or that it was not measured. */
export function deltaNoiseLine(noise: JudgeNoise | undefined): string | undefined {
  if (!noise) return undefined;
  if (noise.delta_noise_floor_pts === null || noise.samples < 2)
    return 'Judge noise floor: not measured (each claim was judged once; --judge-samples 5 measures it).';
  const verdict = noise.delta_within_noise ? `: the Δ is ${withinNoiseLabel}` : ': the Δ is larger than it';
  return `Judge noise floor of the Δ: ±${noise.delta_noise_floor_pts.toFixed(1)} pts over ${noise.samples} samples per claim${verdict}.`;
}

/**
 * A skill's judge lines for the terminal: the samples, flip rate and noise floor of the pass rate
 * (or that it was not measured), the escalated claims and their cost, and the last calibration.
 */
export function judgeLines(run: SkillRun): string[] {
  const lines: string[] = [];
  const noise = run.judgeNoise;
  const judged = run.outcomes.some((outcome) =>
    outcome.grading.assertion_results.some((row) => row.grader === 'judge' && row.status !== 'skipped'),
  );
  if (noise && noise.samples > 1 && noise.noise_floor_pts !== null) {
    const templates = noise.templates > 1 ? ` over ${noise.templates} templates` : '';
    const sensitivity =
      noise.template_flip_rate === undefined || noise.template_flip_rate === null
        ? ''
        : `; the template changed the majority of ${percent(noise.template_flip_rate)} of claims`;
    lines.push(
      `judge: ${noise.samples} samples per claim${templates}, mean flip rate ${percent(noise.flip_rate ?? 0)}, noise floor ±${noise.noise_floor_pts.toFixed(1)} pts of pass rate${sensitivity}`,
    );
  } else if (judged)
    lines.push('judge: noise floor not measured (each claim judged once; --judge-samples 5 measures it)');
  const escalations = run.outcomes.flatMap((outcome) =>
    outcome.grading.judge?.escalation ? [outcome.grading.judge.escalation] : [],
  );
  if (escalations.length) {
    const claims = escalations.reduce((sum, entry) => sum + entry.claims, 0);
    const costs = escalations.map((entry) => entry.usage.cost_usd);
    const cost = costs.some((value) => value === null || value === undefined)
      ? 'cost unknown'
      : `$${costs.reduce<number>((sum, value) => sum + (value ?? 0), 0).toFixed(4)}`;
    const rows = run.outcomes.flatMap((outcome) =>
      outcome.grading.assertion_results.flatMap((row) =>
        row.escalation
          ? [
              `${outcome.caseId} "${row.text.slice(0, 50)}" (${row.escalation.reason}: ${row.escalation.first.status} → ${row.status})`,
            ]
          : [],
      ),
    );
    lines.push(
      `judge: ${plural(claims, 'claim')} escalated to ${escalations[0]?.model ?? ''} (${cost}): ${rows.slice(0, 5).join('; ')}${rows.length > 5 ? `; … ${rows.length - 5} more` : ''}`,
    );
  }
  const calibration = run.calibration;
  if (calibration) {
    for (const entry of calibration.by_judge)
      lines.push(
        `judge ${entry.judge}: κ ${entry.kappa === null ? 'undefined' : entry.kappa.toFixed(2)} against the author's ${entry.labels} labels (last calibrated ${calibration.measured_at.slice(0, 10)})${entry.below_floor ? `: BELOW the ${calibration.min_kappa} floor` : ''}`,
      );
  }
  return lines;
}
