import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A skill as a test writes it: the name and description of its SKILL.md and its cases. */
export interface TestSkill {
  name: string;
  description: string;
  /** The cases of its evals/evals.json, written as they are. */
  evals: unknown[];
}

/** Writes the skill folder `dir`: a SKILL.md of front matter alone and evals/evals.json. Returns `dir`. */
export async function writeSkill(dir: string, skill: TestSkill): Promise<string> {
  await mkdir(join(dir, 'evals'), { recursive: true });
  await writeFile(join(dir, 'SKILL.md'), `---\nname: ${skill.name}\ndescription: ${skill.description}\n---\n`);
  await writeFile(join(dir, 'evals', 'evals.json'), JSON.stringify({ skill_name: skill.name, evals: skill.evals }));
  return dir;
}

/** The skill `greet`: one case, "Greet Ada", that passes when the response names Ada. */
export const greetAdaSkill: TestSkill = {
  name: 'greet',
  description: 'greets people',
  evals: [{ id: 1, prompt: 'Greet Ada', assertions: [{ kind: 'output', method: 'contains', value: 'Ada' }] }],
};
