import { join } from 'node:path';
import { writeSkill } from './skill-files.js';

/** A skill `name` under `root` with one case per prompt, each checking that greeting.txt was written. */
export async function writeGreetingSkill(root: string, name: string, prompts: readonly string[]): Promise<string> {
  return writeSkill(join(root, name), {
    name,
    description: 'test',
    evals: prompts.map((prompt, index) => ({
      id: index + 1,
      prompt,
      assertions: [{ type: 'file-exists', path: 'greeting.txt' }],
    })),
  });
}
