import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { discoverSkills, type LoadedCase } from '@skeval/evals';
import * as z from 'zod';

/** What a report says about a case beyond its case runs: name, description, expected output. */
export interface CaseInfo {
  name?: string;
  description?: string;
  expectedOutput?: string;
  prompt?: string;
  files?: string[];
  negativeControl?: boolean;
}

/** `eval_metadata.json` (Skeval writes it for skill-creator's viewer): only the fields the report uses, read leniently. */
const evalMetadataSchema = z.looseObject({
  eval_name: z.string().optional(),
  prompt: z.string().optional(),
  expected_output: z.string().optional(),
  negative_control: z.boolean().optional(),
});

/** A case folder's eval_metadata.json, when it has one that parses. */
export async function readEvalMetadata(caseFolderDir: string): Promise<CaseInfo | undefined> {
  const path = join(caseFolderDir, 'eval_metadata.json');
  if (!existsSync(path)) return undefined;
  try {
    const parsed = evalMetadataSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
    if (!parsed.success) return undefined;
    const { eval_name: name, prompt, expected_output: expectedOutput, negative_control: negativeControl } = parsed.data;
    return {
      ...(name === undefined ? {} : { name }),
      ...(negativeControl === undefined ? {} : { negativeControl }),
      ...(prompt === undefined ? {} : { prompt }),
      ...(expectedOutput === undefined ? {} : { expectedOutput }),
    };
  } catch {
    return undefined;
  }
}

function infoOf(evalCase: LoadedCase): CaseInfo {
  return {
    name: evalCase.name,
    prompt: evalCase.prompt,
    files: evalCase.files.map((file) => file.path),
    negativeControl: evalCase.negativeControl === true,
    ...(evalCase.description === undefined ? {} : { description: evalCase.description }),
    ...(evalCase.expectedOutput === undefined ? {} : { expectedOutput: evalCase.expectedOutput }),
  };
}

/**
 * The cases of the skill a run was made from, by case id, read from its evals file as it is now;
 * or why they cannot be (the skill folder is not on this machine, its evals file is invalid).
 */
export async function readSkillCases(
  skillPath: string,
  skill: string,
  cwd: string,
): Promise<{ cases: Map<string, CaseInfo> } | { note: string }> {
  if (!existsSync(skillPath)) {
    return { note: `the skill folder ${skillPath} is not here, so expected outputs and case names are not shown` };
  }
  try {
    const found = await discoverSkills({ path: skillPath, cwd });
    const match = found.find((entry) => entry.name === skill) ?? found[0];
    if (!match?.load.evals) {
      return {
        note: `${match?.evalsPath ?? skillPath}: the evals file is invalid (run \`skeval validate\` on it), so expected outputs are not shown`,
      };
    }
    return { cases: new Map(match.load.evals.cases.map((evalCase) => [evalCase.id, infoOf(evalCase)])) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { note: `the skill at ${skillPath} could not be read (${reason}), so expected outputs are not shown` };
  }
}
