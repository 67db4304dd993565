import type { Benchmark } from '@skeval/schema';
import {
  type Configuration,
  comparisonOf,
  type MatrixBenchmark,
  type MatrixConfiguration,
  type MatrixRow,
} from '@skeval/schema/internal';

const points = (rate: number) => Math.round(rate * 1000) / 10;

/**
 * One configuration's row of the matrix table, copied from the numbers its own benchmark.json
 * already holds (`skeval.arms`, `skeval.delta`, `skeval.cases`, `skeval.skill_read`; with one
 * arm, `run_summary` and `runs`), so the matrix never computes a statistic differently.
 */
export function matrixRowOf(configuration: MatrixConfiguration, benchmark: Benchmark): MatrixRow {
  const analysis = comparisonOf(benchmark);
  const armsOf = analysis ? Object.keys(analysis.arms) : armsOfSummary(benchmark);
  const byArm = <T>(pick: (arm: string) => T) => Object.fromEntries(armsOf.map((arm) => [arm, pick(arm)]));
  const summary = (arm: string) => benchmark.run_summary[arm];
  const target = analysis?.target ?? 'with_skill';
  const baseline = analysis?.baseline;
  const caseRates = analysis
    ? analysis.cases.map((entry) => ({ id: entry.eval_id, rates: entry.pass_rate }))
    : casesOfRuns(benchmark);
  return {
    ...configuration,
    pass_rate: byArm((arm) => analysis?.arms[arm]?.pass_rate_case_mean ?? summary(arm)?.pass_rate.mean ?? null),
    delta: analysis?.delta
      ? {
          pass_rate_pts: points(analysis.delta.pass_rate),
          ci95_pts: [points(analysis.delta.ci95[0]), points(analysis.delta.ci95[1])],
          verdict: analysis.delta.verdict,
        }
      : null,
    tokens_mean: byArm((arm) => analysis?.arms[arm]?.tokens_mean ?? summary(arm)?.tokens.mean ?? null),
    cost_usd: byArm((arm) => analysis?.arms[arm]?.cost_usd ?? null),
    time_seconds_mean: byArm(
      (arm) => analysis?.arms[arm]?.time_seconds_mean ?? summary(arm)?.time_seconds.mean ?? null,
    ),
    skill_read_rate: analysis?.skill_read?.runs ? analysis.skill_read.read / analysis.skill_read.runs : null,
    cases: caseRates.map(({ id, rates }) => {
      const targetRate = rates[target];
      const baselineRate = baseline ? rates[baseline] : undefined;
      return {
        eval_id: id,
        pass_rate: rates,
        delta_pts:
          typeof targetRate === 'number' && typeof baselineRate === 'number' ? points(targetRate - baselineRate) : null,
      };
    }),
  };
}

/** The root benchmark.json of a matrix run: skill-creator's metadata and `skeval.matrix`. */
export function buildMatrixBenchmark(options: {
  rows: MatrixRow[];
  benchmarks: Benchmark[];
  timestamp: string;
}): MatrixBenchmark {
  const [first] = options.benchmarks;
  const analysis = options.benchmarks.map(comparisonOf).find((found) => found !== undefined);
  const models = [...new Set(options.rows.map((row) => row.model ?? row.agent))];
  const regressions = options.rows
    .filter((row) => row.delta && row.delta.pass_rate_pts < 0)
    .sort((a, b) => (a.delta?.pass_rate_pts ?? 0) - (b.delta?.pass_rate_pts ?? 0));
  const worst = regressions[0];
  return {
    metadata: {
      skill_name: first?.metadata.skill_name ?? '',
      skill_path: first?.metadata.skill_path ?? '',
      executor_model: models.join(', ') || null,
      timestamp: options.timestamp,
      evals_run: first?.metadata.evals_run ?? [],
      runs_per_configuration: first?.metadata.runs_per_configuration ?? 1,
    },
    runs: [],
    run_summary: {},
    skeval: {
      version: 1,
      matrix: {
        baseline: analysis?.baseline ?? null,
        target: analysis?.target ?? 'with_skill',
        configurations: options.rows,
        worst_regression: worst?.delta ? { name: worst.name, delta_pts: worst.delta.pass_rate_pts } : null,
      },
    },
  };
}

function armsOfSummary(benchmark: Benchmark): Configuration[] {
  const arms: Configuration[] = ['with_skill', 'without_skill', 'old_skill'];
  return arms.filter((arm) => benchmark.run_summary[arm]);
}

/** With one arm there is no `skeval.cases`: each case's mean run pass rate, as `passRateOf` takes it. */
function casesOfRuns(benchmark: Benchmark) {
  const byCase = new Map<string, Map<string, number[]>>();
  for (const run of benchmark.runs) {
    const id = String(run.eval_id);
    const arms = byCase.get(id) ?? new Map<string, number[]>();
    byCase.set(id, arms);
    const rates = arms.get(run.configuration) ?? [];
    arms.set(run.configuration, rates);
    if (run.result.pass_rate !== null) rates.push(run.result.pass_rate);
  }
  return [...byCase].map(([id, arms]) => ({
    id,
    rates: Object.fromEntries(
      [...arms].map(([arm, rates]) => [
        arm,
        rates.length ? rates.reduce((sum, rate) => sum + rate, 0) / rates.length : null,
      ]),
    ),
  }));
}
