import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A skill `name` under `root` with one case per prompt, each checking that greeting.txt was written. */
export async function writeGreetingSkill(root: string, name: string, prompts: readonly string[]): Promise<void> {
  const dir = join(root, name);
  await mkdir(join(dir, 'evals'), { recursive: true });
  await writeFile(join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: test\n---\n`);
  await writeFile(
    join(dir, 'evals', 'evals.json'),
    JSON.stringify({
      skill_name: name,
      evals: prompts.map((prompt, index) => ({
        id: index + 1,
        prompt,
        assertions: [{ type: 'file-exists', path: 'greeting.txt' }],
      })),
    }),
  );
}
