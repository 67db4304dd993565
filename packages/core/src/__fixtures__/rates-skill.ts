import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ratesAgentSource, ratesEvals } from '../../../../tests/fixtures/rates-skill.js';
import { makeSkill } from './make-skill.js';

/**
 * The skill `rates` (the CLI's pass-rate test runs the same cases) under `root`, with its agent
 * beside it. Returns the skill folder and the agent's command.
 */
export async function makeRatesSkill(root: string): Promise<{ skillDir: string; command: string }> {
  const skillDir = await makeSkill(root, 'rates', ratesEvals());
  const agent = join(root, 'rates-agent.mjs');
  await writeFile(agent, ratesAgentSource);
  return { skillDir, command: `node ${agent} {prompt_file}` };
}
