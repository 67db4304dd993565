import { type AssertInputFile, assertInputFileSchema, SkevalError, type Trace, traceSchema } from '@skeval/schema';

/** Checks the JSON of `--file` against `{ output, input?, expected_output?, workspace_path?, trace? }`. */
export function parseInputFile(value: unknown, fileName: string): AssertInputFile {
  const parsed = assertInputFileSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
  throw new SkevalError({
    code: 'usage',
    message: `${fileName}: expected { "output": string, "input"?: string, … }: ${problems}`,
  });
}

/** Checks the JSON of `--trace` against Skeval's trace format (a run's `trace.json`). */
export function parseTraceFile(value: unknown, fileName: string): Trace {
  const parsed = traceSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
  throw new SkevalError({
    code: 'usage',
    message: `${fileName}: not a Skeval trace (the trace.json of a run): ${problems}`,
  });
}
