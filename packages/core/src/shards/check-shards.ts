import type { ShardManifest } from '@skeval/schema';
import type { FoundShard } from './find-shards.js';
import { shardOfCase } from './shard.js';

/** `shard 2/3 (shards/2/greeting/run)`: how messages name a shard. */
export function shardName(shard: FoundShard): string {
  return `shard ${shard.manifest.shard.index}/${shard.manifest.shard.total} (${shard.label})`;
}

/** At most this many case ids in one message; the rest are counted. */
const shownIds = 10;

function listIds(ids: readonly string[]): string {
  const shown = ids.slice(0, shownIds).join(', ');
  return ids.length > shownIds ? `${shown} and ${ids.length - shownIds} more` : shown;
}

/**
 * Checks that shards are one run, split whole: one skill, one evals file, one set of options,
 * every shard from 1 to n exactly once, and every case of the run owned by exactly the shard its
 * hash names. Every problem is returned, each naming the shard (and the case) it is about.
 */
export function checkShards(shards: readonly FoundShard[]): string[] {
  const [first] = shards;
  if (!first) return ['no shards to merge'];
  const problems: string[] = [];
  const skills = [...new Set(shards.map((shard) => shard.manifest.skill))];
  if (skills.length > 1) {
    const bySkill = skills.map(
      (skill) =>
        `${skill} (${shards
          .filter((shard) => shard.manifest.skill === skill)
          .map((shard) => shard.label)
          .join(', ')})`,
    );
    return [`the shards are runs of different skills: ${bySkill.join('; ')}; merge one skill's shards at a time`];
  }
  const differing = (pick: (manifest: ShardManifest) => unknown, what: string) => {
    const reference = JSON.stringify(pick(first.manifest));
    for (const shard of shards.slice(1)) {
      const value = JSON.stringify(pick(shard.manifest));
      if (value !== reference) {
        problems.push(`${shardName(shard)} has ${what} ${value}, ${shardName(first)} has ${reference}`);
      }
    }
  };
  differing((manifest) => manifest.shard.total, 'a total of');
  if (problems.length > 0)
    return [`the shards were split differently: ${problems.join('; ')}; run every shard with the same n`];
  differing((manifest) => manifest.evals_fingerprint, 'an evals file of');
  for (const key of Object.keys(first.manifest.options).sort()) {
    differing((manifest) => Reflect.get(manifest.options, key), `${key}`);
  }
  differing((manifest) => manifest.all_cases, 'the cases');
  if (problems.length > 0) {
    return [
      ...problems,
      'shards of one run must run the same evals file with the same options (check out one commit; give every shard the same flags)',
    ];
  }
  const { total } = first.manifest.shard;
  const allCases = first.manifest.all_cases;
  const ownerOf = new Map(allCases.map((id) => [id, shardOfCase(first.manifest.skill, id, total)]));
  for (let index = 1; index <= total; index += 1) {
    const found = shards.filter((shard) => shard.manifest.shard.index === index);
    if (found.length === 0) {
      const owned = allCases.filter((id) => ownerOf.get(id) === index);
      problems.push(
        `shard ${index}/${total} is missing: no folder given holds it${owned.length ? `; its cases are ${listIds(owned)}` : ' (it owns no case, but its folder must still be given)'}`,
      );
    } else if (found.length > 1) {
      problems.push(
        `shard ${index}/${total} is there ${found.length} times: ${found.map((shard) => shard.label).join(', ')}; give each shard once`,
      );
    }
  }
  const holders = new Map<string, FoundShard[]>();
  for (const shard of shards) {
    if (shard.manifest.interrupted) {
      problems.push(
        `${shardName(shard)} was interrupted: finish it with \`skeval run --resume ${shard.label}\` and the shard's other flags (it stays shard ${shard.manifest.shard.index}/${total})`,
      );
    }
    for (const entry of shard.manifest.cases) holders.set(entry.id, [...(holders.get(entry.id) ?? []), shard]);
  }
  for (const [id, held] of holders) {
    const owner = ownerOf.get(id);
    const indices = new Set(held.map((shard) => shard.manifest.shard.index));
    const where = held.map(shardName).join(' and ');
    if (owner === undefined) problems.push(`case ${id} is in ${where} but not among the run's cases`);
    else if (indices.size > 1) problems.push(`case ${id} is in ${indices.size} shards: ${where}`);
    else if (!indices.has(owner)) problems.push(`case ${id} is in ${where} but belongs to shard ${owner}/${total}`);
  }
  for (const shard of shards) {
    const listed = new Set(shard.manifest.cases.map((entry) => entry.id));
    const unlisted = allCases.filter((id) => ownerOf.get(id) === shard.manifest.shard.index && !listed.has(id));
    if (unlisted.length) problems.push(`${shardName(shard)} does not list its cases ${listIds(unlisted)}`);
  }
  return problems;
}
