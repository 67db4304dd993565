import type { MergeShardsResult } from '@skeval/core';
import { type Benchmark, SkevalError } from '@skeval/schema';
import type { Command } from 'commander';
import { exitCodeOf } from '../exit-codes.js';
import { jsonOutput } from '../json-output.js';
import type { CommandContext } from '../main.js';
import { addOptions, type OptionTable, type OptionValues } from '../options.js';

/** `skeval merge`'s options. */
const mergeOptions = {
  output: {
    flags: '-o, --output <run-dir>',
    description: 'the run folder to write; its name is the run id (required)',
  },
  force: { flags: '--force', description: 'replace the -o folder when it already holds a run' },
  json: { flags: '--json', description: 'print the result as JSON' },
} as const satisfies OptionTable;

type MergeFlags = OptionValues<typeof mergeOptions>;

export function registerMerge(program: Command, { io, setExitCode }: CommandContext): void {
  const command = program
    .command('merge')
    .description(
      'merge the run folders of `skeval run --shard i/n` into one run folder, checking every shard and every case is there exactly once',
    )
    .argument('<dir...>', "the shards' run folders, or folders holding them")
    .addHelpText(
      'after',
      '\nExit codes: as the unsharded run would (0 all passed, 1 an assertion failed, 3 undecided verdicts); 2 when the shards cannot be merged (nothing is written).',
    );
  addOptions(command, mergeOptions).action(async (dirs: string[], flags: MergeFlags) => {
    if (!flags.output) {
      throw new SkevalError({
        code: 'usage',
        message: 'merge: -o <run-dir> is required: the folder to write the merged run to, such as -o evals-runs/merged',
      });
    }
    const { mergeShards, renderBenchmark } = await import('@skeval/core');
    const result = await mergeShards({ dirs, outDir: flags.output, cwd: io.cwd, force: flags.force ?? false });
    io.stdout(flags.json ? jsonOutput(toJson(result)) : renderMerge(result, renderBenchmark));
    setExitCode(exitCodeOf(result));
  });
}

function toJson(result: MergeShardsResult) {
  return {
    skill: result.skill,
    run_dir: result.runDir,
    shards: result.shards,
    cases: result.cases,
    case_runs: result.caseRuns,
    totals: result.totals,
    comparison: result.runs[0]?.benchmark?.skeval ?? null,
  };
}

function renderMerge(result: MergeShardsResult, renderBenchmark: (benchmark: Benchmark) => string): string {
  const { passed, failed, errored, skipped, agentErrors } = result.totals;
  const benchmark = result.runs[0]?.benchmark;
  return [
    `merged ${result.shards.length} shards of ${result.skill}: ${result.cases} cases, ${result.caseRuns} case runs → ${result.runDir}`,
    ...result.shards.map((shard) => `  shard ${shard.index}/${shard.total}: ${shard.cases} cases from ${shard.dir}`),
    `${passed} passed, ${failed} failed, ${errored} errors, ${skipped} skipped assertions; ${agentErrors} agent error${agentErrors === 1 ? '' : 's'}`,
    ...(benchmark?.skeval ? ['', renderBenchmark(benchmark)] : ['']),
  ].join('\n');
}
