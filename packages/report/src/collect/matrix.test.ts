import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMatrixRun, matrixBehaviours } from '../__fixtures__/make-matrix-run.js';
import { collectReport } from './collect-report.js';

describe('a report of a matrix run', () => {
  let root: string;
  let matrixDir: string;
  beforeAll(async () => {
    ({ root, matrixDir } = await makeMatrixRun());
  }, 120_000);
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("takes every configuration's run when given the folder of the skill's runs, in the matrix's order", async () => {
    const { runDirs, data } = await collectReport({ paths: [dirname(matrixDir)], cwd: root });
    expect(runDirs).toEqual(matrixBehaviours.map((name) => join(matrixDir, name)));
    expect(data.matrices).toHaveLength(1);
    const [matrix] = data.matrices ?? [];
    expect(matrix?.configurations.map((entry) => [entry.name, entry.runKey])).toEqual(
      matrixBehaviours.map((name, at) => [name, data.runs[at]?.key]),
    );
  });

  it("ties each heat-map cell to a case of that configuration's run on the page", async () => {
    const { data } = await collectReport({ paths: [matrixDir], cwd: root });
    const [matrix] = data.matrices ?? [];
    if (!matrix) throw new Error('no matrix');
    for (const row of matrix.cases)
      for (const [at, configuration] of matrix.configurations.entries()) {
        const run = data.runs.find((entry) => entry.key === configuration.runKey);
        const evalCase = run?.cases.find((entry) => entry.folder === row.folder);
        expect(evalCase?.id).toBe(row.id);
        // The cell's pass rates are the case's own in that run.
        expect(row.cells[at]?.passRate.with_skill).toBe(evalCase?.passRateByArm.with_skill);
      }
  });

  it("has no matrix for one configuration's run folder alone", async () => {
    const { data } = await collectReport({ paths: [join(matrixDir, 'steady')], cwd: root });
    expect(data.matrices).toBeUndefined();
    expect(data.runs).toHaveLength(1);
  });
});
