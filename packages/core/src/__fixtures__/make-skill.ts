import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Writes a skill folder (SKILL.md and evals/evals.json) under `root`; returns its path. */
export async function makeSkill(
  root: string,
  name: string,
  evals: unknown,
  options: { evalsText?: string } = {},
): Promise<string> {
  const dir = join(root, name);
  await mkdir(join(dir, 'evals'), { recursive: true });
  await writeFile(
    join(dir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: Writes greetings for ${name} tests.\n---\n\n# ${name}\n\nWrite greeting.txt.\n`,
  );
  await writeFile(join(dir, 'evals', 'evals.json'), options.evalsText ?? JSON.stringify(evals, null, 2));
  return dir;
}

export const agentFixture = (name: string) => new URL(`./agents/${name}`, import.meta.url).pathname;
