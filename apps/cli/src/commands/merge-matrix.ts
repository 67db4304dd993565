import { isAbsolute, relative } from 'node:path';
import { SkevalError } from '@skeval/schema';
import { exitCodeOf, exitCodes } from '../exit-codes.js';
import { jsonOutput } from '../json-output.js';
import type { CommandContext } from '../main.js';
import type { ReporterSpec } from '../reporter-flag.js';

type Core = typeof import('@skeval/core/internal');

/**
 * `skeval merge` of a sharded matrix run: each configuration's shards merged as one run, the
 * matrix table written and printed; resolves to the worst configuration's exit code.
 */
export async function mergeMatrix(options: {
  core: Core;
  io: CommandContext['io'];
  dirs: string[];
  outDir: string;
  force: boolean;
  placement: 'link' | 'copy' | 'move';
  reporters: ReporterSpec[];
}): Promise<number> {
  const { core, io } = options;
  const other = options.reporters.find((spec) => spec.path || (spec.name !== 'terminal' && spec.name !== 'json'));
  if (other)
    throw new SkevalError({
      code: 'usage',
      message: `--reporter ${other.name}${other.path ? `:${other.path}` : ''} reports one run folder: a merged matrix holds one per configuration, so run skeval report (or a reporter) on <merged>/<configuration>; the terminal shows the matrix table and --json prints it`,
    });
  const result = await core.mergeMatrixShards({
    dirs: options.dirs,
    outDir: options.outDir,
    cwd: io.cwd,
    force: options.force,
    placement: options.placement,
  });
  const shown = (path: string) => {
    const inside = relative(io.cwd, path);
    return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
  };
  io.stderr(
    `skeval: merged ${result.shards} shard${result.shards === 1 ? '' : 's'} of the ${result.skill} matrix (${result.configurations.length} configurations) → ${shown(result.runDir)}\n`,
  );
  const json = options.reporters.some((spec) => spec.name === 'json');
  io.stdout(
    json
      ? jsonOutput({ runDir: result.runDir, benchmark: result.benchmark })
      : core.renderMatrixTable({ skill: result.skill, dir: shown(result.runDir), benchmark: result.benchmark }),
  );
  const codes = result.configurations.map(({ name, result: merged }) => {
    const checks = merged.runs.flatMap((run) => core.checkGates(run, merged.gates));
    for (const check of checks) io.stderr(`skeval: ${name}: ${check.message}\n`);
    return exitCodeOf(merged, checks);
  });
  const order: number[] = [exitCodes.interrupted, exitCodes.usage, exitCodes.infrastructure, exitCodes.failed];
  return order.find((code) => codes.includes(code)) ?? exitCodes.ok;
}
