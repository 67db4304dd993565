import type { ReportCase, ReportCaseRun, ReportTurn } from '../report-data.js';
import { AssertionRows, type ReviewActions } from './assertion-rows.js';
import { CutNote, TextBlock } from './excerpt-text.js';
import { count, duration, plural } from './format.js';
import { Markdown } from './markdown.js';
import type { ReviewState } from './review-store.js';
import { spanOf, ToolCallList } from './timeline.js';

interface ConversationProps {
  evalCase: ReportCase;
  run: ReportCaseRun;
  review: ReviewState;
  actions: ReviewActions;
}

const endedText = (turn: ReportTurn) =>
  turn.status === 'ok' ? '' : ` · ${turn.status === 'timeout' ? 'timed out' : 'failed'}`;

function Turn(props: ConversationProps & { turn: ReportTurn }) {
  const { run, turn } = props;
  const calls = run.trace.toolCalls.filter((call) => call.turn === turn.turn);
  const rows = run.assertions.filter((row) => row.turn === turn.turn);
  return (
    <section class={`turn turn-${turn.status}`} data-turn={turn.turn}>
      <div class="turn-talk">
        <h5>
          Turn {turn.turn}
          <span class="hint">
            {' '}
            {duration(turn.durationMs)}
            {turn.tokens === null ? '' : ` · ${count(turn.tokens)} tokens`}
            {endedText(turn)}
          </span>
        </h5>
        <div class="turn-prompt">
          <span class="speaker">user</span>
          <TextBlock excerpt={turn.prompt} />
        </div>
        {calls.length ? (
          <details class="turn-calls">
            <summary>{plural(calls.length, 'tool call')}</summary>
            <ToolCallList calls={calls} span={spanOf(run.trace)} />
          </details>
        ) : null}
        <div class="turn-reply">
          <span class="speaker">agent</span>
          {turn.error ? (
            <p class="agent-error">
              <strong>{turn.error.code}</strong>: {turn.error.message}
            </p>
          ) : null}
          {turn.response.text === '' ? <p class="hint">No reply.</p> : <Markdown text={turn.response.text} />}
          <CutNote excerpt={turn.response} where={`${run.dir}/trace.json`} />
        </div>
      </div>
      <div class="turn-checks">
        <AssertionRows {...props} rows={rows} />
      </div>
    </section>
  );
}

/**
 * A multi-turn case run as the conversation went: each turn's prompt, tool calls and reply with
 * that turn's assertions beside it, then the case's own assertions (the end state), and the
 * turns that never ran (their assertions are errors, said so in their evidence).
 */
export function ConversationView(props: ConversationProps & { turns: ReportTurn[] }) {
  const { run, turns } = props;
  const ran = new Set(turns.map((turn) => turn.turn));
  const notRun = run.assertions.filter((row) => row.turn !== undefined && !ran.has(row.turn));
  const endState = run.assertions.filter((row) => row.turn === undefined);
  const unassigned = run.trace.toolCalls.filter((call) => call.turn === undefined || !ran.has(call.turn));
  return (
    <section class="conversation" aria-label={`conversation of ${plural(turns.length, 'turn')}`}>
      {turns.map((turn) => (
        <Turn key={turn.turn} {...props} turn={turn} />
      ))}
      {notRun.length ? (
        <div class="turn-not-run">
          <h5>Turns that did not run</h5>
          <AssertionRows {...props} rows={notRun} />
        </div>
      ) : null}
      <div class="end-state">
        <h5>The case's assertions (end state)</h5>
        <AssertionRows {...props} rows={endState} />
      </div>
      {unassigned.length ? (
        <details class="turn-calls">
          <summary>{plural(unassigned.length, 'tool call')} outside the turns</summary>
          <ToolCallList calls={unassigned} span={spanOf(run.trace)} />
        </details>
      ) : null}
      {run.trace.omitted ? <p class="hint">… and {run.trace.omitted} more tool calls in trace.json.</p> : null}
    </section>
  );
}
