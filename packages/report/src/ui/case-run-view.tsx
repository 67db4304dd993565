import { useState } from 'preact/hooks';
import type { ReportCase, ReportCaseRun, ReportOutputFile } from '../report-data.js';
import { AssertionRows, type ReviewActions } from './assertion-rows.js';
import { ConversationView } from './conversation-view.js';
import { CutNote, TextBlock } from './excerpt-text.js';
import { bytes, cost, count, duration } from './format.js';
import { Markdown } from './markdown.js';
import type { ReviewState } from './review-store.js';
import { Timeline } from './timeline.js';

function Facts({ run }: { run: ReportCaseRun }) {
  const { timing, judge } = run;
  const tokens = [
    `${count(timing.totalTokens)} tokens`,
    timing.inputTokens === null ? '' : `${count(timing.inputTokens)} in`,
    timing.outputTokens === null ? '' : `${count(timing.outputTokens)} out`,
    timing.cachedInputTokens ? `${count(timing.cachedInputTokens)} cached` : '',
  ].filter(Boolean);
  return (
    <dl class="facts">
      <dt>agent</dt>
      <dd class={`agent-status-${run.status}`}>
        {run.status === 'ok' ? 'finished' : run.status === 'timeout' ? 'timed out' : 'failed'}
        {timing.model ? ` · ${timing.model}` : ''}
      </dd>
      <dt>time</dt>
      <dd>{duration(timing.durationMs)}</dd>
      <dt>tokens</dt>
      <dd>{tokens.join(', ')}</dd>
      <dt>cost</dt>
      <dd>{cost(timing.costUsd)}</dd>
      {judge ? (
        <>
          <dt>judge</dt>
          <dd>
            {judge.model}, {judge.calls} {judge.calls === 1 ? 'call' : 'calls'}, {count(judge.tokens)} tokens,{' '}
            {cost(judge.costUsd)}
          </dd>
        </>
      ) : null}
      <dt>skills read</dt>
      <dd>{run.trace.skillsRead.length ? run.trace.skillsRead.join(', ') : 'none'}</dd>
    </dl>
  );
}

function Response({ run }: { run: ReportCaseRun }) {
  const [source, setSource] = useState(false);
  return (
    <section class="response">
      <h5>
        Response
        <button type="button" class="link" onClick={() => setSource(!source)}>
          {source ? 'rendered' : 'source'}
        </button>
      </h5>
      {run.response.text === '' ? (
        <p class="hint">The agent gave no final response.</p>
      ) : source ? (
        <pre class="text">{run.response.text}</pre>
      ) : (
        <Markdown text={run.response.text} />
      )}
      <CutNote excerpt={run.response} where={`${run.dir}/assistant.md`} />
    </section>
  );
}

function OutputFile({ file, dir }: { file: ReportOutputFile; dir: string }) {
  return (
    <li class={`output output-${file.kind}`}>
      <div class="output-name">
        <code>{file.path}</code> <span class="hint">{bytes(file.size)}</span>
        {file.note ? <span class="hint"> · {file.note}</span> : null}
      </div>
      {file.text ? <TextBlock excerpt={file.text} where={`${dir}/outputs/${file.path}`} /> : null}
      {file.dataUrl ? <img src={file.dataUrl} alt={file.path} /> : null}
    </li>
  );
}

function Outputs({ run }: { run: ReportCaseRun }) {
  if (run.outputs.length === 0) return null;
  return (
    <section class="outputs">
      <h5>Output files</h5>
      <ul>
        {run.outputs.map((file) => (
          <OutputFile key={file.path} file={file} dir={run.dir} />
        ))}
      </ul>
      {run.outputsOmitted ? <p class="hint">… and {run.outputsOmitted} more files in outputs/.</p> : null}
    </section>
  );
}

/** One trial of one arm: how it ended, its verdicts, response, files and trace, and the reviewer's note. */
export function CaseRunView(props: {
  evalCase: ReportCase;
  run: ReportCaseRun;
  review: ReviewState;
  actions: ReviewActions;
  /** The address of this trial (`#case=…&arm=…&run=…`). */
  link: string;
}) {
  const { run, review, actions } = props;
  return (
    <div class="case-run" data-review-id={run.reviewId} data-run={run.runNumber}>
      <a class="link-to run-link" href={props.link}>
        link to run {run.runNumber}
      </a>
      {run.error ? (
        <p class="agent-error">
          <strong>{run.error.code}</strong>: {run.error.message}
        </p>
      ) : null}
      {run.skillEdited ? <p class="warning">The agent changed the skill during this run.</p> : null}
      {run.network?.blocked.length ? (
        <p class="warning">
          The sandbox blocked {run.network.blocked.join('; ')} (--network {run.network.mode}; --allow-host lets a host
          through).
        </p>
      ) : null}
      <Facts run={run} />
      {run.conversation ? (
        <ConversationView {...props} turns={run.conversation} />
      ) : (
        <>
          <AssertionRows {...props} />
          <Response run={run} />
        </>
      )}
      <Outputs run={run} />
      {run.conversation ? null : <Timeline trace={run.trace} />}
      <label class="run-note">
        Note on this run (saved as skill-creator's feedback)
        <textarea
          rows={2}
          value={review.notes[run.reviewId]?.feedback ?? ''}
          onInput={(event) => actions.runNote(run.reviewId, event.currentTarget.value)}
        />
      </label>
    </div>
  );
}
