import { createHash } from 'node:crypto';
import { SkevalError } from '@skeval/schema';

/** One shard of a run: the 1-based `index` of `total`. */
export interface Shard {
  index: number;
  total: number;
}

/** How cases are assigned to shards, as `shard.json` records it (see {@link shardOfCase}). */
export const shardAssignment = 'sha256-skill-case-v1';

const accepted = 'i/n with whole numbers 1 ≤ i ≤ n, such as 2/3';

/** Reads `i/n`; a value that is not one is `undefined`. */
function readShard(value: string): Shard | undefined {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
  if (!match) return undefined;
  const index = Number(match[1]);
  const total = Number(match[2]);
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(total)) return undefined;
  return index >= 1 && index <= total ? { index, total } : undefined;
}

/** `i/n` read, or a usage error naming where it came from (`--shard`, `SKEVAL_SHARD`), the value and what is accepted. */
function parseShard(value: string, source = '--shard'): Shard {
  const shard = readShard(value);
  if (shard) return shard;
  throw new SkevalError({ code: 'usage', message: `${source} ${JSON.stringify(value)}: expected ${accepted}` });
}

export interface ResolveShardOptions {
  /** `--shard`'s value, which wins over the environment. */
  flag?: string;
  /** Where `SKEVAL_SHARD`, `JOB_COMPLETION_INDEX` and `SKEVAL_SHARD_TOTAL` are read. */
  env: NodeJS.ProcessEnv;
}

/**
 * The shard a run is, from `--shard i/n`, else `SKEVAL_SHARD=i/n`, else a Kubernetes Indexed
 * Job's `JOB_COMPLETION_INDEX` (0-based) with `SKEVAL_SHARD_TOTAL`; `undefined` when none is set.
 * Half a setting (an index with no total, or a total with no index) is a usage error rather than
 * a run of every case in every pod.
 */
export function resolveShard(options: ResolveShardOptions): Shard | undefined {
  if (options.flag !== undefined) return parseShard(options.flag);
  const { env } = options;
  if (env.SKEVAL_SHARD !== undefined && env.SKEVAL_SHARD !== '') return parseShard(env.SKEVAL_SHARD, 'SKEVAL_SHARD');
  const index = env.JOB_COMPLETION_INDEX;
  const total = env.SKEVAL_SHARD_TOTAL;
  const set = (value: string | undefined): value is string => value !== undefined && value !== '';
  if (!set(index) && !set(total)) return undefined;
  if (!set(total)) {
    throw new SkevalError({
      code: 'usage',
      message: `JOB_COMPLETION_INDEX=${index} is set but SKEVAL_SHARD_TOTAL is not: set SKEVAL_SHARD_TOTAL to the Job's completions (or pass --shard 1/1 to run every case)`,
    });
  }
  if (!set(index)) {
    throw new SkevalError({
      code: 'usage',
      message: `SKEVAL_SHARD_TOTAL=${total} is set but neither SKEVAL_SHARD nor JOB_COMPLETION_INDEX says which shard this is: set one, or pass --shard i/n`,
    });
  }
  const zeroBased = /^\s*\d+\s*$/.test(index) ? Number(index) : Number.NaN;
  const totalNumber = /^\s*\d+\s*$/.test(total) ? Number(total) : Number.NaN;
  if (!Number.isSafeInteger(totalNumber) || totalNumber < 1) {
    throw new SkevalError({
      code: 'usage',
      message: `SKEVAL_SHARD_TOTAL ${JSON.stringify(total)}: expected a whole number above 0 (the Job's completions)`,
    });
  }
  if (!Number.isSafeInteger(zeroBased) || zeroBased >= totalNumber) {
    throw new SkevalError({
      code: 'usage',
      message: `JOB_COMPLETION_INDEX ${JSON.stringify(index)}: expected a whole number from 0 to ${totalNumber - 1} (SKEVAL_SHARD_TOTAL is ${totalNumber})`,
    });
  }
  return { index: zeroBased + 1, total: totalNumber };
}

/**
 * The shard (1-based) a case belongs to: the first 48 bits of sha256(`<skill>\0<case id>`)
 * modulo `total`. It depends on nothing else, so adding, removing or reordering other cases
 * never moves a case, and every machine computes the same answer.
 */
export function shardOfCase(skill: string, caseId: string, total: number): number {
  const digest = createHash('sha256').update(`${skill}\0${caseId}`).digest();
  return (digest.readUIntBE(0, 6) % total) + 1;
}

/** The items (cases) of a skill that a shard owns; every item when there is no shard. */
export function casesOfShard<Case extends { id: string }>(
  skill: string,
  cases: readonly Case[],
  shard: Shard | undefined,
): Case[] {
  if (!shard) return [...cases];
  return cases.filter((evalCase) => shardOfCase(skill, evalCase.id, shard.total) === shard.index);
}
