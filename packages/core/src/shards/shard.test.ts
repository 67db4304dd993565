import { describe, expect, it } from 'vitest';
import { casesOfShard, resolveShard, shardOfCase } from './shard.js';

describe('shardOfCase', () => {
  it('puts a case on the same shard on every machine and in every release', () => {
    // Fixed answers: a change here moves cases between shards of runs already in flight.
    expect(['1', 'named-ada', 'no-emoji', 'unrelated'].map((id) => shardOfCase('greeting', id, 3))).toEqual([
      3, 1, 3, 3,
    ]);
    expect(['1', '2', '3', 'task-2', 'a'].map((id) => shardOfCase('many', id, 4))).toEqual([3, 2, 2, 2, 3]);
    expect(shardOfCase('many', 'task-2', 3)).toBe(3);
  });

  it('depends on the skill as well as the case id', () => {
    const ids = Array.from({ length: 20 }, (_, at) => String(at));
    const greeting = ids.map((id) => shardOfCase('greeting', id, 3));
    expect(ids.map((id) => shardOfCase('many', id, 3))).not.toEqual(greeting);
  });

  it('spreads cases about evenly', () => {
    const ids = Array.from({ length: 3000 }, (_, at) => (at % 2 ? `case-${at}` : String(at)));
    for (const total of [2, 3, 4, 7]) {
      const counts = new Array<number>(total).fill(0);
      for (const id of ids) {
        const shard = shardOfCase('skill', id, total);
        expect(shard).toBeGreaterThanOrEqual(1);
        expect(shard).toBeLessThanOrEqual(total);
        counts[shard - 1] = (counts[shard - 1] ?? 0) + 1;
      }
      // Within four standard deviations of a fair draw (binomial), and never off by a fifth.
      const fair = ids.length / total;
      const spread = 4 * Math.sqrt(fair * (1 - 1 / total));
      for (const count of counts) {
        expect(Math.abs(count - fair)).toBeLessThan(spread);
        expect(Math.abs(count - fair) / fair).toBeLessThan(0.2);
      }
    }
  });

  it('keeps every other case where it was when cases are added or removed', () => {
    const cases = Array.from({ length: 30 }, (_, at) => ({ id: `c${at}` }));
    const before = casesOfShard('skill', cases, { index: 2, total: 3 }).map((entry) => entry.id);
    const fewer = casesOfShard('skill', [{ id: 'new' }, ...cases.slice(5)], { index: 2, total: 3 });
    expect(fewer.map((entry) => entry.id).filter((id) => id !== 'new')).toEqual(
      before.filter((id) => !['c0', 'c1', 'c2', 'c3', 'c4'].includes(id)),
    );
  });

  it('gives every case to one shard of n, and all of them without a shard', () => {
    const cases = Array.from({ length: 50 }, (_, at) => ({ id: String(at) }));
    const owned = [1, 2, 3].flatMap((index) => casesOfShard('skill', cases, { index, total: 3 }));
    expect(owned.map((entry) => entry.id).sort()).toEqual(cases.map((entry) => entry.id).sort());
    expect(casesOfShard('skill', cases, undefined)).toEqual(cases);
  });
});

describe('resolveShard', () => {
  it('reads --shard before SKEVAL_SHARD before JOB_COMPLETION_INDEX', () => {
    const env = { SKEVAL_SHARD: '2/4', JOB_COMPLETION_INDEX: '0', SKEVAL_SHARD_TOTAL: '4' };
    expect(resolveShard({ flag: ' 3 / 4 ', env })).toEqual({ index: 3, total: 4 });
    expect(resolveShard({ env })).toEqual({ index: 2, total: 4 });
    expect(resolveShard({ env: { JOB_COMPLETION_INDEX: '3', SKEVAL_SHARD_TOTAL: '4' } })).toEqual({
      index: 4,
      total: 4,
    });
    expect(resolveShard({ env: {} })).toBeUndefined();
    expect(resolveShard({ env: { SKEVAL_SHARD: '', JOB_COMPLETION_INDEX: '' } })).toBeUndefined();
  });

  it.each([
    [{ flag: '0/3' }, '--shard "0/3": expected i/n'],
    [{ flag: '4/3' }, '--shard "4/3": expected i/n'],
    [{ flag: 'two' }, '--shard "two": expected i/n'],
    [{ env: { SKEVAL_SHARD: '1-3' } }, 'SKEVAL_SHARD "1-3": expected i/n'],
    [{ env: { JOB_COMPLETION_INDEX: '2' } }, 'JOB_COMPLETION_INDEX=2 is set but SKEVAL_SHARD_TOTAL is not'],
    [{ env: { SKEVAL_SHARD_TOTAL: '2' } }, 'SKEVAL_SHARD_TOTAL=2 is set but neither'],
    [{ env: { JOB_COMPLETION_INDEX: 'x', SKEVAL_SHARD_TOTAL: '2' } }, 'JOB_COMPLETION_INDEX "x"'],
    [{ env: { JOB_COMPLETION_INDEX: '0', SKEVAL_SHARD_TOTAL: '0' } }, 'SKEVAL_SHARD_TOTAL "0"'],
  ])('refuses %j as a usage error', (options, message) => {
    expect(() => resolveShard({ env: {}, ...options })).toThrow(expect.objectContaining({ code: 'usage' }));
    expect(() => resolveShard({ env: {}, ...options })).toThrow(message);
  });
});
