import { dirname, isAbsolute, join, relative } from 'node:path';
import { caseFolderName, readJsonArtifact, runFiles } from '@skeval/run-folder';
import { isMatrixFolder, readMatrixFolder } from '@skeval/run-folder/internal';
import { matrixBenchmarkSchema, SkevalError } from '@skeval/schema/internal';
import type { ReportMatrix } from '../matrix-data.js';

/**
 * The matrix runs among a page's run folders: each folder whose parent is a matrix run folder
 * brings that matrix (once, when two or more of its configurations are on the page), read from
 * its `matrix.json` and `benchmark.json`'s `skeval.matrix`,
 * its configurations tied to their runs on the page by folder (`runKeys[i]` is `runDirs[i]`'s).
 */
export async function collectMatrices(options: {
  runDirs: readonly string[];
  runKeys: readonly string[];
  cwd: string;
}): Promise<ReportMatrix[]> {
  const roots = [...new Set(options.runDirs.map((dir) => dirname(dir)).filter((dir) => isMatrixFolder(dir)))];
  const matrices: ReportMatrix[] = [];
  for (const [index, root] of roots.entries()) {
    const folder = await readMatrixFolder(root);
    if (!folder) continue;
    const read = await readJsonArtifact(join(root, runFiles.benchmark), matrixBenchmarkSchema, runFiles.benchmark);
    if (read.status !== 'ok') {
      throw new SkevalError({
        code: 'invalid_input',
        message: `${join(root, runFiles.benchmark)}: ${read.status === 'absent' ? 'missing: the matrix run did not finish; finish each configuration with --resume, then merge or run again' : read.detail}`,
      });
    }
    const { matrix } = read.value.skeval;
    const keyOf = (name: string) => {
      const runDir = folder.configurations.find((entry) => entry.name === name)?.runDir;
      const at = runDir ? options.runDirs.indexOf(runDir) : -1;
      return at >= 0 ? (options.runKeys[at] ?? null) : null;
    };
    // One configuration's folder alone is reported as the run it is; the matrix needs two on the page.
    if (matrix.configurations.filter((row) => keyOf(row.name) !== null).length < 2) continue;
    const ids: string[] = [];
    for (const row of matrix.configurations)
      for (const entry of row.cases) if (!ids.includes(entry.eval_id)) ids.push(entry.eval_id);
    const inside = relative(options.cwd, root);
    matrices.push({
      key: `m${index}`,
      skill: folder.manifest.skill,
      dir: inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : root,
      target: matrix.target,
      baseline: matrix.baseline,
      configurations: matrix.configurations.map((row) => ({
        name: row.name,
        agent: row.agent,
        model: row.model,
        runKey: keyOf(row.name),
        passRate: row.pass_rate,
        delta: row.delta
          ? { pts: row.delta.pass_rate_pts, ci95: row.delta.ci95_pts, verdict: row.delta.verdict }
          : null,
        tokensMean: row.tokens_mean[matrix.target] ?? null,
        costUsd: row.cost_usd[matrix.target] ?? null,
        timeSecondsMean: row.time_seconds_mean[matrix.target] ?? null,
        skillReadRate: row.skill_read_rate,
      })),
      cases: ids.map((id) => ({
        id,
        folder: caseFolderName(id),
        cells: matrix.configurations.map((row) => {
          const entry = row.cases.find((candidate) => candidate.eval_id === id);
          return entry ? { deltaPts: entry.delta_pts, passRate: entry.pass_rate } : null;
        }),
      })),
      worstRegression: matrix.worst_regression
        ? { name: matrix.worst_regression.name, deltaPts: matrix.worst_regression.delta_pts }
        : null,
    });
  }
  return matrices;
}
