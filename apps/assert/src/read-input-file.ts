import { assertInputFileSchema, type AssertInputFile, SkevalError } from '@skeval/schema';

/** Checks the JSON of `--file` against `{ output, input?, expected_output?, workspace_path?, trace? }`. */
export function parseInputFile(value: unknown, fileName: string): AssertInputFile {
  const parsed = assertInputFileSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
  throw new SkevalError({ code: 'usage', message: `${fileName}: expected { "output": string, "input"?: string, … }: ${problems}` });
}
