import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExecutionMetrics, Trace } from '@skeval/schema';

/**
 * grading.json's `execution_metrics`, as skill-creator's schema has them: tool calls by name
 * (and, Skeval's addition, by kind), the agent's steps, errors, and the characters of the text
 * files the run left in `outputsDir` and of the transcript.
 */
export async function executionMetricsOf(options: {
  trace: Trace;
  /** The case run's `outputs/` folder. */
  outputsDir: string;
  /** The agent crashed or timed out. */
  agentFailed: boolean;
  /** The characters of the text files in `outputsDir`, where the writer counted them: the folder is not read again. */
  outputChars?: number;
}): Promise<ExecutionMetrics> {
  const { trace } = options;
  const byName: Record<string, number> = {};
  const byKind: ExecutionMetrics['tool_calls_by_kind'] = {};
  for (const call of trace.tool_calls) {
    byName[call.name] = (byName[call.name] ?? 0) + 1;
    byKind[call.kind] = (byKind[call.kind] ?? 0) + 1;
  }
  const toolErrors = trace.tool_calls.filter((call) => call.result?.is_error).length;
  const assistantMessages = trace.messages.filter((message) => message.role === 'assistant').length;
  return {
    tool_calls: byName,
    total_tool_calls: trace.tool_calls.length,
    total_steps: trace.turns ?? assistantMessages,
    errors_encountered: toolErrors + (options.agentFailed ? 1 : 0),
    output_chars: options.outputChars ?? (await textCharacters(options.outputsDir)),
    transcript_chars: trace.messages.reduce((sum, message) => sum + codePoints(message.text), 0),
    tool_calls_by_kind: byKind,
  };
}

/** Characters of the text files under `dir` (a file with a NUL byte is binary, and left out); links are not followed. */
async function textCharacters(dir: string): Promise<number> {
  let total = 0;
  const pending = [dir];
  for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) pending.push(path);
      if (!entry.isFile()) continue;
      const content = await readFile(path).catch(() => undefined);
      if (content && !content.includes(0)) total += codePoints(content.toString('utf8'));
    }
  }
  return total;
}

/** Characters as people (and Python's `len`) count them: a character outside the BMP is one, not two. */
export function codePoints(text: string): number {
  let surrogatePairs = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) surrogatePairs += 1;
  }
  return text.length - surrogatePairs;
}
