import { describeSchemaIssues } from '@skeval/schema/internal';
import type * as z from 'zod';
import { passesFastCheck } from './fast-check.js';
import { LinkRefused, readFileNoFollow, refusalOf } from './read-no-links.js';

/** A file Skeval wrote earlier, read back: parsed, not there, or not what it should be (with why). */
export type ArtifactRead<T> =
  | { status: 'ok'; value: T }
  | { status: 'absent' }
  /**
   * `problem` is `<label>: <detail>`. `refused`: the file is a symbolic link (or not a regular
   * file), which a run folder is never read through.
   */
  | { status: 'invalid'; problem: string; detail: string; refused?: true };

const invalid = (label: string, detail: string) => ({
  status: 'invalid' as const,
  problem: `${label}: ${detail}`,
  detail,
});

const shownIssues = 3;

/**
 * Reads a JSON artifact and parses it with its schema: never a cast. `label` names the file in
 * the problem (its path from the run folder), so a message reads
 * `eval-3/with_skill/run-2/grading.json: summary.total: \`total\` must be a number, got a string`.
 */
export async function readJsonArtifact<Schema extends z.ZodType>(
  path: string,
  schema: Schema,
  label: string,
): Promise<ArtifactRead<z.infer<Schema>>> {
  return parseJsonArtifact(readArtifactBytes(path, label), schema, label);
}

/** `readJsonArtifact` of bytes already read (`readArtifactBytes`), so a caller can hash the same bytes. */
export function parseJsonArtifact<Schema extends z.ZodType>(
  bytes: ArtifactRead<Buffer>,
  schema: Schema,
  label: string,
): ArtifactRead<z.infer<Schema>> {
  if (bytes.status !== 'ok') return bytes;
  let value: unknown;
  try {
    value = JSON.parse(bytes.value.toString('utf8'));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return invalid(label, `not JSON (${reason}): the file is cut short or was edited`);
  }
  // A value the schema would give back unchanged is taken as it is; any other is parsed, which names what is wrong.
  if (passesFastCheck(schema, value)) return { status: 'ok', value };
  const parsed = schema.safeParse(value);
  if (parsed.success) return { status: 'ok', value: parsed.data };
  const issues = describeSchemaIssues(parsed.error, value);
  const more = issues.length > shownIssues ? `; and ${issues.length - shownIssues} more` : '';
  return invalid(label, `${issues.slice(0, shownIssues).join('; ')}${more}`);
}

/**
 * Reads a text artifact (`assistant.md`), never through a symbolic link. The read is
 * synchronous: artifacts are small, and a folder of ten thousand case runs reads in a third of
 * the time without four round trips through the thread pool per file (open, stat, read, close).
 */
export async function readTextArtifact(path: string, label: string): Promise<ArtifactRead<string>> {
  const bytes = readArtifactBytes(path, label);
  return bytes.status === 'ok' ? { status: 'ok', value: bytes.value.toString('utf8') } : bytes;
}

/** An artifact's bytes, read as `readTextArtifact` reads it (never through a link, synchronously). */
export function readArtifactBytes(path: string, label: string): ArtifactRead<Buffer> {
  try {
    return { status: 'ok', value: readFileNoFollow(path) };
  } catch (error) {
    if (error instanceof LinkRefused) {
      const problem = refusalOf(label, error.found);
      return { status: 'invalid', problem, detail: problem.slice(label.length + 2), refused: true };
    }
    const code = error instanceof Error && 'code' in error ? String(error.code) : String(error);
    if (code === 'ENOENT') return { status: 'absent' };
    return invalid(label, `cannot be read (${code})`);
  }
}
