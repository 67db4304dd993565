import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Grading, traceSchema } from '@skeval/schema';
import type { RunResult } from './types.js';

/**
 * The `replay` runner: a stored case run (trace.json, assistant.md and how it ended) read back
 * as if the agent had just run, so assertions can change without running agents again.
 */
export async function readStoredRun(caseDir: string): Promise<RunResult> {
  const trace = traceSchema.parse(JSON.parse(await readFile(join(caseDir, 'trace.json'), 'utf8')));
  const finalText = await readFile(join(caseDir, 'assistant.md'), 'utf8').then(
    (text) => text.replace(/\n$/, ''),
    () => trace.final_text,
  );
  const previous = JSON.parse(
    await readFile(join(caseDir, 'grading.json'), 'utf8').catch(() => '{}'),
  ) as Partial<Grading>;
  const error = previous.agent_error;
  const status = error ? (error.code === 'agent_timeout' ? 'timeout' : 'error') : 'ok';
  return { status, finalText, trace, durationMs: trace.duration_ms, ...(error ? { error } : {}) };
}
