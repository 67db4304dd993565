import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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

/** A case folder's eval_metadata.json, when it has one that parses. */
export function readEvalMetadata(caseFolderDir: string): CaseInfo | undefined {
  const path = join(caseFolderDir, 'eval_metadata.json');
  // One read, no check first: a file that is not there is as much a miss as one that does not parse.
  try {
    const parsed = evalMetadataSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    if (!parsed.success) return undefined;
    const { eval_name: name, prompt, expected_output: expectedOutput, description } = parsed.data;
    const { negative_control: negativeControl } = parsed.data;
    return {
      ...(name === undefined ? {} : { name }),
      ...(description === undefined ? {} : { description }),
      ...(negativeControl === undefined ? {} : { negativeControl }),
      ...(prompt === undefined ? {} : { prompt }),
      ...(expectedOutput === undefined ? {} : { expectedOutput }),
    };
  } catch {
    return undefined;
  }
}
