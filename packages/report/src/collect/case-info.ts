import { readJsonArtifact } from '@skeval/run-folder';
import { childPath } from '@skeval/run-folder/internal';
import * as z from 'zod';

/** What a report says about a case beyond its case runs: name, description, expected output. */
export interface CaseInfo {
  name?: string;
  description?: string;
  expectedOutput?: string;
  prompt?: string;
  negativeControl?: boolean;
}

/**
 * `eval_metadata.json`: only the fields the report uses, read leniently (skill-creator's tools
 * write the file too, with fewer fields). Skeval writes it with the case as it was run, so the
 * page needs neither the skill folder nor a reader of evals files.
 */
const evalMetadataSchema = z.looseObject({
  eval_name: z.string().optional(),
  prompt: z.string().optional(),
  expected_output: z.string().optional(),
  description: z.string().optional(),
  negative_control: z.boolean().optional(),
});

/**
 * A case folder's eval_metadata.json, when it has one that parses. It is read as the case runs'
 * artifacts are: never through a link, checked by the schema's fast check before zod.
 */
export async function readEvalMetadata(caseFolderDir: string): Promise<CaseInfo | undefined> {
  const read = await readJsonArtifact(
    childPath(caseFolderDir, 'eval_metadata.json'),
    evalMetadataSchema,
    'eval_metadata.json',
  );
  if (read.status !== 'ok') return undefined;
  const { eval_name: name, prompt, expected_output: expectedOutput, description } = read.value;
  const { negative_control: negativeControl } = read.value;
  return {
    ...(name === undefined ? {} : { name }),
    ...(description === undefined ? {} : { description }),
    ...(negativeControl === undefined ? {} : { negativeControl }),
    ...(prompt === undefined ? {} : { prompt }),
    ...(expectedOutput === undefined ? {} : { expectedOutput }),
  };
}
