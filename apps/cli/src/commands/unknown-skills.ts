import { dirname } from 'node:path';
import type { LoadedConfig, RunReport } from '@skeval/core/internal';
import type { CliIo } from '../io.js';

/**
 * A `skills.<name>` entry of the config file that names no skill at all — not of this run, nor
 * any skill below the config file's folder — is most likely a typo: one note, with the nearest
 * name. An entry for another skill of the repository is what a repository-wide config holds:
 * nothing is said of it.
 */
export async function noteUnknownSkills(options: {
  io: CliIo;
  loaded: LoadedConfig | undefined;
  result: RunReport;
}): Promise<void> {
  const { io, loaded, result } = options;
  if (!loaded || result.runs.length === 0) return;
  const ran = new Set([...result.runs.map((entry) => entry.skill), ...result.invalid.map((entry) => entry.skill)]);
  const others = Object.keys(loaded.config.skills ?? {}).filter((name) => !ran.has(name));
  if (others.length === 0) return;
  const { discoverSkills } = await import('@skeval/evals');
  const found = await discoverSkills({ path: dirname(loaded.file), cwd: io.cwd })
    .then((skills) => skills.map((skill) => skill.name))
    .catch((): string[] => []);
  const known = [...new Set([...ran, ...found])];
  for (const name of others) {
    if (known.includes(name)) continue;
    const nearest = closest(name, known);
    io.stderr(
      `skeval: note: skills.${name} in ${loaded.file} names no skill${nearest ? ` (did you mean ${nearest}?)` : ` below ${dirname(loaded.file)}`}; its settings apply to nothing\n`,
    );
  }
}

/** The known name nearest to `name`, when it is near enough to be a typo of it. */
function closest(name: string, known: readonly string[]): string | undefined {
  const scored = known.map((candidate) => ({ candidate, distance: editDistance(name, candidate) }));
  const best = scored.sort((a, b) => a.distance - b.distance)[0];
  return best && best.distance <= Math.max(2, Math.floor(name.length / 4)) ? best.candidate : undefined;
}

/** Levenshtein distance: insertions, deletions and substitutions. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, at) => at);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1)
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length] ?? 0;
}
