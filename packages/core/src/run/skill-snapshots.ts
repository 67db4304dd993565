import type { DiscoveredSkill } from '@skeval/evals';
import { fingerprintSkill } from '../workspace/skill-fingerprint.js';

/**
 * What a run knows of one skill between its case runs: the skill's signature as the last case
 * run left it, and the content hash of its installed copy at that signature. A plan holds one
 * `DiscoveredSkill` object per skill for the whole run, so the object is the key: a new run
 * discovers new objects and starts afresh.
 */
interface SkillSnapshot {
  fingerprint: string;
  /** The hash of the copy installed for the case runs, made from the skill at `fingerprint`. */
  installedHash?: { fingerprint: string; hash: string };
}

const snapshots = new WeakMap<DiscoveredSkill, SkillSnapshot>();

function snapshotOf(skill: DiscoveredSkill, skillOutputs: readonly string[]): SkillSnapshot {
  let snapshot = snapshots.get(skill);
  if (!snapshot) {
    snapshot = { fingerprint: fingerprintSkill(skill.dir, skillOutputs) };
    snapshots.set(skill, snapshot);
  }
  return snapshot;
}

/**
 * The skill's signature before a case run: the one the run's last case run left (taken once when
 * the run's first case run starts), so a skill is walked once per case run at most, not twice.
 */
export function skillFingerprintBefore(skill: DiscoveredSkill, skillOutputs: readonly string[]): string {
  return snapshotOf(skill, skillOutputs).fingerprint;
}

/**
 * The skill's signature after a case run, kept for the next one. In a sandbox the agent can
 * write nothing outside its workspace, home and temporary folder, so the signature before holds
 * and the skill is not walked again.
 */
export function skillFingerprintAfter(
  skill: DiscoveredSkill,
  skillOutputs: readonly string[],
  options: { contained: boolean },
): string {
  const snapshot = snapshotOf(skill, skillOutputs);
  if (!options.contained) snapshot.fingerprint = fingerprintSkill(skill.dir, skillOutputs);
  return snapshot.fingerprint;
}

/**
 * The installed copy's hash known for the skill as it is now (`fingerprint`), so its files are
 * read and hashed once per run while the skill does not change.
 */
export function knownInstalledHash(skill: DiscoveredSkill, fingerprint: string): string | undefined {
  const known = snapshots.get(skill)?.installedHash;
  return known?.fingerprint === fingerprint ? known.hash : undefined;
}

/** Keeps the installed copy's hash for the skill at `fingerprint`. */
export function keepInstalledHash(skill: DiscoveredSkill, fingerprint: string, hash: string): void {
  const snapshot = snapshots.get(skill);
  if (snapshot) snapshot.installedHash = { fingerprint, hash };
}
