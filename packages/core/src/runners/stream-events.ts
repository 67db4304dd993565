import type * as z from 'zod';

/**
 * The events of a JSON-lines stream that a schema accepts, in order. Agents print other lines
 * too (progress, warnings, events Skeval does not read): a line that is not JSON, or is an event
 * of another shape, is skipped rather than cast.
 */
export function readStreamEvents<Schema extends z.ZodType>(text: string, schema: Schema): Array<z.infer<Schema>> {
  const events: Array<z.infer<Schema>> = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed.startsWith('{')) continue;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      continue; // a partial or foreign line: not an event
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) events.push(parsed.data);
  }
  return events;
}

/** How many non-blank lines a stream has, to tell a stream of events from plain text. */
export function countLines(text: string): number {
  return text.split('\n').filter((line) => line.trim() !== '').length;
}
