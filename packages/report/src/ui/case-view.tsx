import type { Configuration } from '@skeval/schema/internal';
import { useEffect, useState } from 'preact/hooks';
import type { ReportCase, ReportCaseRun, ReportData, ReportRun } from '../report-data.js';
import type { ReviewActions } from './assertion-rows.js';
import { ArmRate, CaseChangeBadge } from './case-change.js';
import { CaseRunView } from './case-run-view.js';
import { CaseWhy } from './case-why.js';
import { type LinkTarget, linkOf } from './deep-link.js';
import { TextBlock } from './excerpt-text.js';
import { outcomeOf } from './filters.js';
import { armName, percent, points } from './format.js';
import type { ReviewState } from './review-store.js';
import { caseDeltaOf } from './why.js';

/** The trial shown first: the first that did not pass, else the first. */
const firstToShow = (runs: ReportCaseRun[]) =>
  (runs.find((run) => outcomeOf(run) !== 'pass') ?? runs[0])?.runNumber ?? 1;

function ArmColumn(props: {
  arm: Configuration;
  evalCase: ReportCase;
  runs: ReportCaseRun[];
  review: ReviewState;
  actions: ReviewActions;
  /** The trial a link named, to show first. */
  linkedRun: number | null;
  linkTo: (runNumber?: number) => string;
}) {
  const { arm, evalCase, runs, linkedRun } = props;
  const [shown, setShown] = useState(() => linkedRun ?? firstToShow(runs));
  useEffect(() => {
    if (linkedRun !== null) setShown(linkedRun);
  }, [linkedRun]);
  const run = runs.find((entry) => entry.runNumber === shown) ?? runs[0];
  return (
    <section class={`arm arm-${arm}`} data-arm={arm}>
      <h4>
        {armName(arm)} <span class="rate">{percent(evalCase.passRateByArm[arm])}</span>{' '}
        <a class="link-to" href={props.linkTo()}>
          link to {armName(arm)}
        </a>
      </h4>
      {runs.length > 1 ? (
        <div class="trials" role="tablist" aria-label={`trials ${armName(arm)}`}>
          {runs.map((entry) => (
            <button
              key={entry.runNumber}
              type="button"
              role="tab"
              aria-selected={entry.runNumber === run?.runNumber}
              class={`trial outcome-${outcomeOf(entry)}`}
              onClick={() => setShown(entry.runNumber)}
            >
              run {entry.runNumber}: {percent(entry.summary.passRate)}
            </button>
          ))}
        </div>
      ) : null}
      {run ? <CaseRunView {...props} run={run} link={props.linkTo(run.runNumber)} /> : null}
    </section>
  );
}

function CaseInput({ evalCase, link }: { evalCase: ReportCase; link: string }) {
  return (
    <div class="case-input">
      <a class="link-to case-link" href={link}>
        link to this case
      </a>
      <h5>Prompt</h5>
      <TextBlock excerpt={evalCase.prompt} />
      {evalCase.description ? <p class="description">{evalCase.description}</p> : null}
      {evalCase.files.length ? (
        <>
          <h5>Input files</h5>
          <ul class="files">
            {evalCase.files.map((file) => (
              <li key={file}>
                <code>{file}</code>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {evalCase.expectedOutput ? (
        <>
          <h5>Expected output</h5>
          <TextBlock excerpt={evalCase.expectedOutput} />
        </>
      ) : null}
    </div>
  );
}

export interface CaseViewProps {
  data: ReportData;
  run: ReportRun;
  /** What the page's address names in this case, when it names it. */
  linked: LinkTarget | null;
  evalCase: ReportCase;
  caseKey: string;
  open: boolean;
  focused: boolean;
  review: ReviewState;
  actions: ReviewActions;
  onToggle: (caseKey: string) => void;
  onFocus: (caseKey: string) => void;
}

/** A case: a header with its pass rate per arm and its trials at a glance; opened, its arms side by side. */
export function CaseView(props: CaseViewProps) {
  const { run, evalCase, caseKey, open } = props;
  const arms = run.arms.filter((arm) => evalCase.runs.some((entry) => entry.arm === arm));
  const delta = arms.length > 1 ? caseDeltaOf(run, evalCase) : null;
  const linkTo = (arm?: Configuration, runNumber?: number) =>
    linkOf({
      data: props.data,
      run,
      evalCase,
      ...(arm ? { arm } : {}),
      ...(runNumber === undefined ? {} : { runNumber }),
    });
  return (
    <article
      class={`case${props.focused ? ' focused' : ''}`}
      data-case-key={caseKey}
      data-case-id={evalCase.id}
      data-skill={run.skill}
    >
      <button
        type="button"
        class="case-header"
        aria-expanded={open}
        onClick={() => props.onToggle(caseKey)}
        onFocus={() => props.onFocus(caseKey)}
      >
        <span class="case-id">{evalCase.id}</span>
        {evalCase.name !== evalCase.id ? <span class="case-name">{evalCase.name}</span> : null}
        {evalCase.negativeControl ? <span class="badge">negative control</span> : null}
        {evalCase.flaky ? <span class="badge badge-flaky">flaky</span> : null}
        {evalCase.against ? <CaseChangeBadge change={evalCase.against} /> : null}
        <span class="case-arms">
          {arms.map((arm) => (
            <span key={arm} class="case-arm">
              {armName(arm)} <ArmRate evalCase={evalCase} arm={arm} />{' '}
              {evalCase.runs
                .filter((entry) => entry.arm === arm)
                .map((entry) => (
                  <span
                    key={entry.runNumber}
                    class={`dot outcome-${outcomeOf(entry)}`}
                    title={`run ${entry.runNumber}: ${outcomeOf(entry)}`}
                  />
                ))}
            </span>
          ))}
        </span>
        {delta === null ? null : <span class="case-delta">Δ {points(delta)}</span>}
        {open ? null : <CaseWhy run={run} evalCase={evalCase} />}
      </button>
      {open ? (
        <div class="case-body">
          <CaseInput evalCase={evalCase} link={linkTo()} />
          <div class={`arms arms-${arms.length}`}>
            {arms.map((arm) => (
              <ArmColumn
                key={arm}
                arm={arm}
                evalCase={evalCase}
                runs={evalCase.runs.filter((entry) => entry.arm === arm)}
                review={props.review}
                actions={props.actions}
                linkedRun={props.linked?.arm === arm ? props.linked.runNumber : null}
                linkTo={(runNumber) => linkTo(arm, runNumber)}
              />
            ))}
          </div>
        </div>
      ) : null}
    </article>
  );
}
