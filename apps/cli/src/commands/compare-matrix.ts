import { resolve } from 'node:path';
import type { CompareRunsResult } from '@skeval/core';
import { SkevalError } from '@skeval/schema';
import { exitCodes } from '../exit-codes.js';
import { jsonOutput } from '../json-output.js';
import type { CommandContext } from '../main.js';
import { terminalOf } from '../terminal.js';

type Core = typeof import('@skeval/core/internal');

/**
 * `skeval compare` of two matrix run folders: each configuration both hold, compared as two runs
 * of one agent and model; `undefined` when neither is a matrix run. A matrix run against a plain
 * run is refused, naming the configuration folder to give instead.
 */
export async function compareMatrices(options: {
  core: Core;
  io: CommandContext['io'];
  before: string;
  after: string;
  arm: CompareRunsResult['arm'];
  maxDrop?: number;
  json: boolean;
}): Promise<number | undefined> {
  const { core, io } = options;
  const { readMatrixFolder } = core;
  const [before, after] = await Promise.all([
    readMatrixFolder(resolve(io.cwd, options.before)),
    readMatrixFolder(resolve(io.cwd, options.after)),
  ]);
  if (!before && !after) return undefined;
  if (!before || !after) {
    const [matrix, plain] = before ? [options.before, options.after] : [options.after, options.before];
    const names = (before ?? after)?.configurations.map((entry) => entry.name).join(', ');
    throw new SkevalError({
      code: 'usage',
      message: `${matrix} is a matrix run (${names}) and ${plain} a run of one configuration: compare ${plain} with one configuration's folder, such as ${matrix}/${(before ?? after)?.configurations[0]?.name}`,
    });
  }
  const common = before.configurations.filter((entry) =>
    after.configurations.some((other) => other.name === entry.name),
  );
  if (common.length === 0) {
    io.stderr(
      `skeval: ${options.before} and ${options.after} share no configuration (before: ${before.configurations.map((entry) => entry.name).join(', ')}; after: ${after.configurations.map((entry) => entry.name).join(', ')}); configurations are matched by name\n`,
    );
    return exitCodes.usage;
  }
  const results = [];
  for (const entry of common) {
    const afterDir = after.configurations.find((other) => other.name === entry.name)?.runDir ?? '';
    const result = await core.compareRuns({
      before: entry.runDir,
      after: afterDir,
      cwd: io.cwd,
      arm: options.arm,
      ...(options.maxDrop === undefined ? {} : { maxDrop: options.maxDrop }),
    });
    results.push({ name: entry.name, ...result });
  }
  io.stdout(
    options.json
      ? jsonOutput({ configurations: results })
      : results
          .map(
            ({ name, ...result }) =>
              `configuration ${name}:\n${core.compareReporter.render(result, terminalOf(io, 'stdout'))}`,
          )
          .join('\n'),
  );
  if (results.every((result) => result.change.cases === 0)) return exitCodes.usage;
  return results.some((result) => result.regression) ? exitCodes.failed : exitCodes.ok;
}
