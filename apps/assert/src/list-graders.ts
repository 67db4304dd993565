import { relative } from 'node:path';
import { builtInGraders, describeCustomGrader, listGraderFiles } from '@skeval/scripts/internal';

/** Every grader reachable from `cwd`: custom ones (nearest first, with where each was found), then the built-ins. */
export async function listGraders(cwd: string): Promise<Array<{ name: string; description: string; source: string }>> {
  const custom = await Promise.all(
    listGraderFiles(cwd).map(async (grader) => ({
      name: grader.name,
      description: (await describeCustomGrader(grader.path)) ?? '(no description: not written with defineScriptGrader)',
      source: relative(cwd, grader.path) || grader.path,
    })),
  );
  const builtIn = [...builtInGraders.values()].map((grader) => ({
    name: grader.name,
    description: grader.description,
    source: 'built-in',
  }));
  return [...custom, ...builtIn];
}
