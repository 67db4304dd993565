import { useMemo, useRef, useState } from 'preact/hooks';
import type { ReportData } from '../report-data.js';
import { CaseView } from './case-view.js';
import { useDeepLink } from './deep-link.js';
import { FilterBar } from './filter-bar.js';
import { type CaseFilter, caseKeyOf, matchesFilter, noFilter, sortCases } from './filters.js';
import { MatrixView, runTitleOf } from './matrix-view.js';
import { SkillOverview } from './overview.js';
import { reviewStateOf, withStatus } from './review-store.js';
import { downloadFeedback, useSavedReviews } from './save-reviews.js';
import { useCaseFocus } from './use-case-focus.js';
import { useKeyboardShortcuts } from './use-keyboard-shortcuts.js';
import { useReviews } from './use-reviews.js';

export function App({ data }: { data: ReportData }) {
  const [filter, setFilter] = useState<CaseFilter>(noFilter);
  const { open, focused, focusedRef, toggle, markFocused, focusCase, pick } = useCaseFocus(setFilter);
  const { reviews, update, actionsFor } = useReviews(data);
  const searchRef = useRef<HTMLInputElement>(null);
  const saveStatus = useSavedReviews(data.serve, data.runs, reviews);
  const linked = useDeepLink(data, pick);

  const visible = useMemo(
    () =>
      data.runs.map((run) => ({
        run,
        cases: sortCases(
          run,
          run.cases.filter((evalCase) => matchesFilter(run, evalCase, filter)),
          filter.sort,
        ),
      })),
    [data, filter],
  );
  const visibleKeys = useMemo(
    () => visible.flatMap(({ run, cases }) => cases.map((evalCase) => caseKeyOf(run, evalCase))),
    [visible],
  );
  const total = data.runs.reduce((sum, run) => sum + run.cases.length, 0);
  useKeyboardShortcuts({ visibleKeys, focusedRef, focusCase, toggle, searchRef, setFilter });

  return (
    <>
      <header class="page-header">
        <h1>Skeval report</h1>
        <p class="meta">
          Made {new Date(data.generatedAt).toLocaleString()} · keys: j / k next and previous case, Enter or o open, /
          search, f failed only, Esc clear
        </p>
      </header>
      <main>
        {data.matrices?.map((matrix) => (
          <MatrixView key={matrix.key} matrix={matrix} onPick={pick} />
        ))}
        {data.runs.map((run) => {
          const review = reviews[run.key] ?? reviewStateOf(null);
          return (
            <SkillOverview
              key={run.key}
              run={run}
              review={review}
              serve={data.serve}
              saveStatus={saveStatus[run.key]}
              onDownload={() => downloadFeedback(run, review)}
              onComplete={(complete) =>
                update(run.key, (state) => withStatus(state, complete ? 'complete' : 'in_progress'))
              }
              onPick={pick}
            />
          );
        })}
        <FilterBar
          data={data}
          filter={filter}
          shown={visibleKeys.length}
          total={total}
          onChange={setFilter}
          searchRef={searchRef}
        />
        {visible.map(({ run, cases }) =>
          cases.length ? (
            <section key={run.key} class="cases" aria-label={`cases of ${run.skill}`}>
              {data.runs.length > 1 ? <h3>{runTitleOf(data, run)}</h3> : null}
              {cases.map((evalCase) => {
                const caseKey = caseKeyOf(run, evalCase);
                return (
                  <CaseView
                    key={caseKey}
                    data={data}
                    linked={linked?.caseKey === caseKey ? linked : null}
                    run={run}
                    evalCase={evalCase}
                    caseKey={caseKey}
                    open={open.has(caseKey)}
                    focused={focused === caseKey}
                    review={reviews[run.key] ?? reviewStateOf(null)}
                    actions={actionsFor(run.key)}
                    onToggle={toggle}
                    onFocus={markFocused}
                  />
                );
              })}
            </section>
          ) : null,
        )}
        {visibleKeys.length === 0 ? <p class="empty">No case matches the filters (Esc clears them).</p> : null}
      </main>
    </>
  );
}
