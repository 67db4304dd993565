import type { LoadedCase } from '@skeval/evals';
import { caseTurns } from '@skeval/evals/internal';
import type { Trace } from '@skeval/schema';
import type { ConversationTurn, NormalizedAssertion } from '@skeval/schema/internal';

/** What one group of assertions is graded on: one turn of a case, or the case's end state. */
export interface GradingSubject {
  /** The turn (from 1) whose assertions these are; absent for the case's own assertions (the end state). */
  turn?: number;
  assertions: NormalizedAssertion[];
  /** The task as the judge and the graders are told it: the prompt, or the conversation up to this turn. */
  prompt: string;
  /** The response graded: the turn's answer, or the last one. */
  response: string;
  /** The trace graded: the turn's own part of it, or all of it. */
  trace: Trace;
  /** Set when these assertions cannot be graded (the agent failed at or before this turn): why. */
  notGraded?: string;
}

interface RunToGrade {
  status: 'ok' | 'error' | 'timeout';
  finalText: string;
  trace: Trace;
  error?: { code: string; message: string };
}

/**
 * The groups a case run is graded in, in order: each turn that has assertions of its own (its
 * response, and its part of the trace), then the case's own assertions (the last response and the
 * whole trace). The turns of a multi-turn case are read from the trace's `conversation`, so a run
 * graded again from its artifacts is split the same way.
 */
export function gradingSubjects(evalCase: LoadedCase, run: RunToGrade): GradingSubject[] {
  const turns = caseTurns(evalCase);
  const failed = failureReason(run);
  const subjects: GradingSubject[] = [];
  for (const [index, turn] of turns.entries()) {
    if (turn.assertions.length === 0) continue;
    const number = index + 1;
    const prompt = turns.length > 1 ? conversationPrompt(turns, number) : turn.prompt;
    const base = { turn: number, assertions: turn.assertions, prompt };
    if (turns.length === 1) {
      subjects.push({
        ...base,
        response: run.finalText,
        trace: run.trace,
        ...(failed ? { notGraded: failed } : {}),
      });
      continue;
    }
    const ran = run.trace.conversation?.find((entry) => entry.turn === number);
    subjects.push({
      ...base,
      response: ran?.final_text ?? '',
      trace: ran ? turnTrace(run.trace, ran) : run.trace,
      ...(turnNotGraded(run, ran, number) ?? {}),
    });
  }
  subjects.push({
    assertions: evalCase.assertions,
    prompt: turns.length > 1 ? conversationPrompt(turns, turns.length) : evalCase.prompt,
    response: run.finalText,
    trace: run.trace,
    ...(failed ? { notGraded: failed } : {}),
  });
  return subjects;
}

function failureReason(run: RunToGrade): string | undefined {
  if (run.status === 'ok') return undefined;
  const how = run.status === 'timeout' ? 'timed out' : 'failed';
  return `not graded: the agent run ${how} (${run.error?.message ?? 'no detail'})`;
}

/** Why a turn's assertions are not graded: the turn failed, or it never ran because one before it failed. */
function turnNotGraded(
  run: RunToGrade,
  ran: ConversationTurn | undefined,
  turn: number,
): { notGraded: string } | undefined {
  if (ran?.status === 'ok') return undefined;
  if (ran) {
    const how = ran.status === 'timeout' ? 'timed out' : 'failed';
    return { notGraded: `not graded: the agent ${how} in this turn (${ran.error?.message ?? 'no detail'})` };
  }
  const stopped = run.trace.conversation?.find((entry) => entry.status !== 'ok');
  const why = stopped
    ? `the case stopped at turn ${stopped.turn}, which ${stopped.status === 'timeout' ? 'timed out' : 'failed'}`
    : (failureReason(run) ?? 'the run has no record of it');
  return { notGraded: `not graded: turn ${turn} did not run (${why})` };
}

/** One turn's part of a multi-turn trace: its messages and tool calls, its response, usage and time. */
function turnTrace(trace: Trace, ran: ConversationTurn): Trace {
  const { skills_read: _all, conversation: _turns, ...rest } = trace;
  return {
    ...rest,
    messages: trace.messages.filter((message) => message.turn === ran.turn),
    tool_calls: trace.tool_calls.filter((call) => call.turn === ran.turn),
    final_text: ran.final_text,
    duration_ms: ran.duration_ms,
    ...(ran.usage ? { usage: ran.usage } : {}),
  };
}

/**
 * The task of a multi-turn case as the judge reads it: the user's prompts up to `upTo`, numbered,
 * saying which turn's answer is the response graded.
 */
function conversationPrompt(turns: ReadonlyArray<{ prompt: string }>, upTo: number): string {
  const graded =
    upTo === turns.length
      ? `the last turn (turn ${upTo}), and the files are what the whole conversation left`
      : `turn ${upTo}; the files shown are what the whole conversation left, after turn ${turns.length}`;
  const lines = turns.slice(0, upTo).map((turn, index) => `Turn ${index + 1}:\n${turn.prompt}`);
  return `A conversation of ${turns.length} turns in one agent session; the response graded is the agent's answer to ${graded}.\n\n${lines.join('\n\n')}`;
}
