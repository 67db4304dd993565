import { existsSync } from 'node:fs';
import { discoverSkills } from '@skeval/evals';
import type { ShardManifest } from '@skeval/schema';
import { fingerprintFile } from './shard-manifest.js';

/**
 * Checks the shards' `all_cases` against the evals file they ran, when that file is there with
 * the fingerprint the shards record: a case dropped from (or added to) every shard.json is named.
 * A file that is gone or changed since cannot be checked against, and is not: the fingerprint
 * check of the shards among themselves still holds.
 */
export async function checkAllCases(manifest: ShardManifest, cwd: string): Promise<string[]> {
  if (!existsSync(manifest.skill_path)) return [];
  const found = await discoverSkills({
    path: manifest.skill_path,
    cwd,
    ...(manifest.options.case_filter ? { cases: manifest.options.case_filter } : {}),
  }).catch(() => []);
  const skill = found.find((entry) => entry.name === manifest.skill);
  if (!skill?.load.evals || !existsSync(skill.evalsPath)) return [];
  if ((await fingerprintFile(skill.evalsPath)) !== manifest.evals_fingerprint) return [];
  const inFile = skill.load.evals.cases.map((evalCase) => evalCase.id);
  const listed = new Set(manifest.all_cases);
  const inFileSet = new Set(inFile);
  const dropped = inFile.filter((id) => !listed.has(id));
  const added = manifest.all_cases.filter((id) => !inFileSet.has(id));
  if (dropped.length === 0 && added.length === 0) return [];
  const parts = [
    ...(dropped.length ? [`leaves out case${dropped.length > 1 ? 's' : ''} ${dropped.join(', ')}`] : []),
    ...(added.length ? [`lists case${added.length > 1 ? 's' : ''} ${added.join(', ')} it does not have`] : []),
  ];
  return [
    `the shards' all_cases (shard.json) ${parts.join(' and ')}, against ${skill.evalsPath}, the evals file they ran (same fingerprint): a shard.json was edited; run the shards again`,
  ];
}
