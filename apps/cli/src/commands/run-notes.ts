import { spawnSync } from 'node:child_process';
import { basename, dirname, relative, resolve } from 'node:path';
import type { RunReport } from '@skeval/core';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** How many judge verdicts an earlier answer in the cache gave, when any did; undefined otherwise. */
export function cachedVerdictsNote(runs: RunReport['runs']): string | undefined {
  let cached = 0;
  let caseRuns = 0;
  for (const run of runs)
    for (const outcome of run.outcomes) {
      const count = outcome.grading.judge?.cached_verdicts ?? 0;
      cached += count;
      if (count > 0) caseRuns += 1;
    }
  if (cached === 0) return undefined;
  return `${plural(cached, 'judge verdict', 'judge verdicts')} (in ${plural(caseRuns, 'case run', 'case runs')}) came from the judge cache, no request sent; --no-cache asks the judge again`;
}

/** Git's answer for a path: `ignored`, `not-ignored`, or `no-repository` (no git, or outside a work tree). */
function gitIgnoreState(path: string): 'ignored' | 'not-ignored' | 'no-repository' {
  const result = spawnSync('git', ['-C', dirname(path), 'check-ignore', '--quiet', path], { stdio: 'ignore' });
  if (result.status === 0) return 'ignored';
  if (result.status === 1) return 'not-ignored';
  return 'no-repository';
}

/**
 * One line when run folders were written inside a git work tree that does not ignore them (they
 * would show in `git status` and be committed by `git add -A`): the folders, and what to add to
 * .gitignore: `evals-runs/` for the skills' own run folders (one line for every skill), else the
 * `--output-dir`. Undefined when they are ignored or outside any repository.
 */
export function gitignoreHint(runs: RunReport['runs'], cwd: string, outputDir?: string): string | undefined {
  const folders = outputDir ? [resolve(cwd, outputDir)] : [...new Set(runs.map((run) => dirname(run.runDir)))];
  const shown = runs.length === 0 ? [] : folders.filter((folder) => gitIgnoreState(folder) === 'not-ignored');
  if (shown.length === 0) return undefined;
  const named = shown.map((folder) => {
    const path = relative(cwd, folder);
    return `${path === '' || path.startsWith('..') ? folder : path}/`;
  });
  const patterns = [
    ...new Set(
      shown.map((folder, at) => (!outputDir && basename(folder) === 'evals-runs' ? 'evals-runs/' : named[at])),
    ),
  ];
  return `the run folders in ${named.join(', ')} are inside a git work tree and not ignored, so git status shows them; add ${patterns.map((pattern) => `"${pattern}"`).join(', ')} to .gitignore`;
}
