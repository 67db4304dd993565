import { type AgentStep, scriptAgent } from './script-agent.js';
import type { RecordedRequest, ReplyFunction } from './server.js';

/** One turn of a scripted multi-turn conversation: a marker its prompt holds, and the model's steps. */
export interface ScriptedTurn {
  marker: string;
  steps: AgentStep[];
}

/** Everything a request sends of the conversation (Anthropic and Chat Completions `messages`, Responses `input`). */
export function conversationText(request: RecordedRequest): string {
  return JSON.stringify(request.body.messages ?? request.body.input ?? []);
}

/** The turn (from 0) a request belongs to: the last one whose marker its conversation holds; -1 for none. */
function turnOf(request: RecordedRequest, turns: readonly ScriptedTurn[]): number {
  const text = conversationText(request);
  return turns.findLastIndex((turn) => text.includes(turn.marker));
}

/** The agent's requests (those offering tools) of turn `index`, in order. */
export function requestsOfTurn(
  requests: readonly RecordedRequest[],
  turns: readonly ScriptedTurn[],
  index: number,
): RecordedRequest[] {
  return requests.filter(
    (request) => Array.isArray(request.body.tools) && request.body.tools.length > 0 && turnOf(request, turns) === index,
  );
}

const makesCalls = (step: AgentStep): boolean =>
  'failTimes' in step ? makesCalls(step.recoverWith) : 'toolUse' in step || 'customToolCall' in step;

/**
 * A reply function playing a conversation of several turns. A request is answered from the steps
 * of the turn it belongs to; the tool steps of the turns before come first in its script, so the
 * tool results an agent re-sends from earlier turns move the script past them, and only the
 * current turn's steps are left to play.
 */
export function scriptTurns(turns: readonly ScriptedTurn[]): ReplyFunction {
  const scripts = turns.map((turn, index) =>
    scriptAgent([...turns.slice(0, index).flatMap((earlier) => earlier.steps.filter(makesCalls)), ...turn.steps]),
  );
  const outside = scriptAgent([{ text: '(scriptTurns: a request of no scripted turn)' }]);
  return (request, index) => (scripts[turnOf(request, turns)] ?? outside)(request, index);
}
