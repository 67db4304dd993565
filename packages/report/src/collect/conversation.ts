import type { Trace } from '@skeval/schema';
import type { ReportTurn } from '../report-data.js';
import { excerptOf } from './bounds.js';

/** Characters of one turn's prompt at most: prompts are the author's, short as a rule. */
const promptChars = 4_000;

/**
 * A multi-turn case run's conversation, turn by turn: what the user said, what the agent answered
 * (the response budget shared between the turns), how the turn ended, its time and tokens.
 * `undefined` for a single-turn case run (its trace has no `conversation`).
 */
export function conversationOf(trace: Trace, responseBudget: number): ReportTurn[] | undefined {
  const turns = trace.conversation;
  if (!turns?.length) return undefined;
  const replyChars = Math.max(500, Math.floor(responseBudget / turns.length));
  return turns.map((entry) => ({
    turn: entry.turn,
    prompt: excerptOf(entry.prompt, promptChars),
    response: excerptOf(entry.final_text, replyChars),
    status: entry.status,
    error: entry.error ?? null,
    durationMs: entry.duration_ms,
    tokens: entry.usage?.total_tokens ?? null,
  }));
}
