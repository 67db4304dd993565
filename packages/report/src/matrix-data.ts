import type { Configuration } from '@skeval/schema/internal';

/** One configuration of a matrix run, as its row of the matrix table shows it. */
export interface ReportMatrixConfiguration {
  name: string;
  agent: string;
  model: string | null;
  /** The `ReportRun.key` of its run folder on this page, or `null` when the page does not hold it. */
  runKey: string | null;
  passRate: Record<string, number | null>;
  /** target − baseline in points with its 95% interval; `null` with one arm. */
  delta: { pts: number; ci95: [number, number]; verdict: string } | null;
  tokensMean: number | null;
  costUsd: number | null;
  timeSecondsMean: number | null;
  skillReadRate: number | null;
}

/** One cell of the heat map: a case in a configuration. */
export interface ReportMatrixCell {
  /** target − baseline of the case's pass rate, in points; `null` when an arm has none. */
  deltaPts: number | null;
  passRate: Record<string, number | null>;
}

/** A matrix run on the page: its configurations and the Δ of every case in each. */
export interface ReportMatrix {
  key: string;
  skill: string;
  dir: string;
  target: Configuration;
  baseline: Configuration | null;
  configurations: ReportMatrixConfiguration[];
  /** Every case of any configuration, in the evals file's order; `cells` by configuration. */
  cases: Array<{ id: string; folder: string; cells: Array<ReportMatrixCell | null> }>;
  worstRegression: { name: string; deltaPts: number } | null;
}
