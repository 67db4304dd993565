import type { ReportToolCall, ReportTrace } from '../report-data.js';
import { TextBlock } from './excerpt-text.js';
import { duration, plural } from './format.js';

/** Tool calls in order, each with a bar of when it ran within `span` milliseconds (when the agent said). */
export function ToolCallList({ calls, span }: { calls: ReportToolCall[]; span: number }) {
  return (
    <ol class="timeline">
      {calls.map((call) => (
        <li key={call.index} class={call.isError ? 'call call-error' : 'call'}>
          <details>
            <summary>
              <span class="call-index">#{call.index}</span> <span class={`kind kind-${call.kind}`}>{call.kind}</span>{' '}
              <code>{call.name}</code> <span class="call-detail">{call.detail.text}</span>
              <span class="call-time">
                {call.durationMs === null ? '' : duration(call.durationMs)}
                {call.exitCode === null ? '' : ` · exit ${call.exitCode}`}
                {call.isError ? ' · error' : ''}
              </span>
              {call.startMs !== null ? (
                <svg class="call-bar" viewBox="0 0 100 4" preserveAspectRatio="none" aria-hidden="true">
                  <rect class="bar-track" width="100" height="4" />
                  <rect
                    class="bar-time"
                    x={(call.startMs / span) * 100}
                    width={Math.max(0.5, ((call.durationMs ?? 0) / span) * 100)}
                    height="4"
                  />
                </svg>
              ) : null}
            </summary>
            {call.arguments ? <TextBlock excerpt={call.arguments} className="text args" /> : null}
            {call.output ? <TextBlock excerpt={call.output} className="text call-output" /> : null}
          </details>
        </li>
      ))}
    </ol>
  );
}

/** The span the trace's bars are drawn in: the run's time, or the end of its last call. */
export const spanOf = (trace: ReportTrace) =>
  Math.max(trace.durationMs, ...trace.toolCalls.map((call) => (call.startMs ?? 0) + (call.durationMs ?? 0)), 1);

/** The tool calls in order, each with a bar of when it ran within the case run (when the agent said). */
export function Timeline({ trace }: { trace: ReportTrace }) {
  return (
    <section class="trace">
      <h5>
        Trace: {plural(trace.toolCalls.length + trace.omitted, 'tool call')}, {plural(trace.messages, 'message')}
        {trace.turns ? `, ${plural(trace.turns, 'turn')}` : ''}
      </h5>
      {trace.toolCalls.length ? (
        <ToolCallList calls={trace.toolCalls} span={spanOf(trace)} />
      ) : (
        <p class="hint">No tool calls.</p>
      )}
      {trace.omitted ? <p class="hint">… and {trace.omitted} more tool calls in trace.json.</p> : null}
      {trace.truncated ? <p class="hint">The agent's trace itself was cut to keep trace.json bounded.</p> : null}
    </section>
  );
}
