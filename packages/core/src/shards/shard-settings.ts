import { readRunSummary } from '@skeval/run-folder';
import type { Gates } from '@skeval/schema';
import type { CostCapRecord, RunConfigRecord } from '@skeval/schema/internal';
import * as z from 'zod';
import { shardName } from './check-shards.js';
import type { FoundShard } from './find-shards.js';

/** What the merged run keeps of the shards' own summaries: their settings, their gates, their spend. */
export interface ShardSettings {
  /** The settings shard 1 recorded (the others differ at most in where they wrote); null when none were. */
  config: RunConfigRecord | null;
  /** The gates the shards ran with, which the merged run is held to. */
  gates: Gates;
  /** The shards' cost caps added up (null: they had none). */
  costCap: CostCapRecord | null;
}

/** The gate values a run's settings record, as `skeval run` writes them (null: not set). */
const recordedGatesSchema = z.looseObject({
  min_pass_rate: z.number().nullable().optional(),
  min_delta: z.number().nullable().optional(),
  max_errors: z.number().nullable().optional(),
});

function gatesOf(config: RunConfigRecord | null): Gates | string {
  const parsed = recordedGatesSchema.safeParse(config?.values ?? {});
  if (!parsed.success) return 'its recorded gates (config.values.min_pass_rate, min_delta, max_errors) are not numbers';
  const { min_pass_rate: minPassRate, min_delta: minDelta, max_errors: maxErrors } = parsed.data;
  return {
    ...(typeof minPassRate === 'number' ? { minPassRate } : {}),
    ...(typeof minDelta === 'number' ? { minDelta } : {}),
    ...(typeof maxErrors === 'number' ? { maxErrors } : {}),
  };
}

/**
 * Reads every shard's summary.json: each must read back, and all must agree on the gates, so
 * the merged run is held to the same ones each shard was. The settings of shard 1 (sorted) are
 * the merged run's; cost caps are summed, since each shard had its own.
 */
export async function readShardSettings(
  shards: readonly FoundShard[],
): Promise<{ settings: ShardSettings; problems: string[] }> {
  const problems: string[] = [];
  const read = await Promise.all(shards.map(async (shard) => ({ shard, summary: await readRunSummary(shard.dir) })));
  const summaries = read.flatMap(({ shard, summary }) => {
    if (summary.status === 'ok') return [{ shard, summary: summary.value }];
    problems.push(
      summary.status === 'invalid'
        ? `${shardName(shard)}: ${summary.problem}; run the shard again (or skeval grade it) to rewrite it`
        : `${shardName(shard)}: no summary.json; the shard did not finish: run it again with --resume ${shard.label}`,
    );
    return [];
  });
  const [first] = summaries;
  const config = first?.summary.config ?? null;
  const gates = gatesOf(config);
  const reference = JSON.stringify(gates);
  for (const { shard, summary } of summaries) {
    const own = gatesOf(summary.config ?? null);
    if (typeof own === 'string') problems.push(`${shardName(shard)}: ${own}`);
    else if (JSON.stringify(own) !== reference && first) {
      problems.push(
        `${shardName(shard)} ran with the gates ${JSON.stringify(own)}, ${shardName(first.shard)} with ${reference}; give every shard the same --min-pass-rate, --min-delta and --max-errors`,
      );
    }
  }
  const caps = summaries.flatMap(({ summary }) => (summary.cost_cap ? [summary.cost_cap] : []));
  const sum = (pick: (cap: CostCapRecord) => number) => caps.reduce((total, cap) => total + pick(cap), 0);
  const costCap: CostCapRecord | null = caps.length
    ? {
        cap_usd: sum((cap) => cap.cap_usd),
        spent_usd: sum((cap) => cap.spent_usd),
        unpriced_case_runs: sum((cap) => cap.unpriced_case_runs),
        stopped: caps.some((cap) => cap.stopped),
        not_started: sum((cap) => cap.not_started),
      }
    : null;
  return { settings: { config, gates: typeof gates === 'string' ? {} : gates, costCap }, problems };
}
