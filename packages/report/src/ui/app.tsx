import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ReportData } from '../report-data.js';
import type { ReviewActions } from './assertion-rows.js';
import { CaseView } from './case-view.js';
import { type CaseFilter, caseKeyOf, matchesFilter, noFilter } from './filters.js';
import { SkillOverview } from './overview.js';
import { type ReviewState, reviewStateOf, withLabel, withLabelNote, withRunNote, withStatus } from './review-store.js';
import { downloadFeedback, useSavedReviews } from './save-reviews.js';

function FilterBar(props: {
  data: ReportData;
  filter: CaseFilter;
  shown: number;
  total: number;
  onChange: (filter: CaseFilter) => void;
  searchRef: { current: HTMLInputElement | null };
}) {
  const { filter, onChange } = props;
  return (
    <search class="filters">
      <input
        ref={props.searchRef}
        type="search"
        class="search"
        placeholder="Search cases, verdicts, evidence, responses  ( / )"
        aria-label="search"
        value={filter.query}
        onInput={(event) => onChange({ ...filter, query: event.currentTarget.value })}
      />
      <label>
        <input
          type="checkbox"
          class="failed-only"
          checked={filter.failedOnly}
          onChange={(event) => onChange({ ...filter, failedOnly: event.currentTarget.checked })}
        />{' '}
        failed only ( f )
      </label>
      {props.data.runs.length > 1 ? (
        <select
          class="skill-filter"
          aria-label="skill"
          value={filter.runKey}
          onChange={(event) => onChange({ ...filter, runKey: event.currentTarget.value })}
        >
          <option value="">every skill</option>
          {props.data.runs.map((run) => (
            <option key={run.key} value={run.key}>
              {run.skill}
            </option>
          ))}
        </select>
      ) : null}
      <select
        class="status-filter"
        aria-label="status"
        value={filter.status}
        onChange={(event) => {
          const value = event.currentTarget.value;
          const status = value === 'pass' || value === 'fail' || value === 'error' || value === 'skipped' ? value : '';
          onChange({ ...filter, status });
        }}
      >
        <option value="">any status</option>
        <option value="pass">all passed</option>
        <option value="fail">a fail</option>
        <option value="error">an error</option>
        <option value="skipped">a skip</option>
      </select>
      <span class="shown" role="status">
        {props.shown} of {props.total} cases
      </span>
    </search>
  );
}

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

export function App({ data }: { data: ReportData }) {
  const [filter, setFilter] = useState<CaseFilter>(noFilter);
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const [focused, setFocused] = useState<string | null>(null);
  const [reviews, setReviews] = useState<Record<string, ReviewState>>(() =>
    Object.fromEntries(data.runs.map((run) => [run.key, reviewStateOf(run.feedback)])),
  );
  const searchRef = useRef<HTMLInputElement>(null);
  const saveStatus = useSavedReviews(data.serve, data.runs, reviews);

  const visible = useMemo(
    () =>
      data.runs.map((run) => ({ run, cases: run.cases.filter((evalCase) => matchesFilter(run, evalCase, filter)) })),
    [data, filter],
  );
  const visibleKeys = useMemo(
    () => visible.flatMap(({ run, cases }) => cases.map((evalCase) => caseKeyOf(run, evalCase))),
    [visible],
  );
  const total = data.runs.reduce((sum, run) => sum + run.cases.length, 0);

  const toggle = useCallback((caseKey: string) => {
    setOpen((previous) => {
      const next = new Set(previous);
      if (next.has(caseKey)) next.delete(caseKey);
      else next.add(caseKey);
      return next;
    });
  }, []);

  // The key handler reads the focused case from here: two quick presses must not both start
  // from the case focused before the page drew the first.
  const focusedRef = useRef<string | null>(null);
  const focusCase = useCallback((caseKey: string) => {
    focusedRef.current = caseKey;
    setFocused(caseKey);
    const header = document.querySelector<HTMLElement>(`[data-case-key="${CSS.escape(caseKey)}"] .case-header`);
    header?.focus();
    header?.scrollIntoView({ block: 'nearest' });
  }, []);

  const pick = useCallback(
    (caseKey: string) => {
      setFilter(noFilter);
      setOpen((previous) => new Set(previous).add(caseKey));
      requestAnimationFrame(() => focusCase(caseKey));
    },
    [focusCase],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target)) {
        if (event.key === 'Escape' && event.target instanceof HTMLElement) event.target.blur();
        return;
      }
      const current = focusedRef.current;
      const position = current === null ? -1 : visibleKeys.indexOf(current);
      const move = (step: number) => {
        const next = visibleKeys[Math.min(visibleKeys.length - 1, Math.max(0, position + step))];
        if (next) focusCase(next);
      };
      switch (event.key) {
        case 'j':
        case 'ArrowDown':
          event.preventDefault();
          move(1);
          break;
        case 'k':
        case 'ArrowUp':
          event.preventDefault();
          move(-1);
          break;
        case 'o':
          if (current) toggle(current);
          break;
        case '/':
          event.preventDefault();
          searchRef.current?.focus();
          break;
        case 'f':
          setFilter((previous) => ({ ...previous, failedOnly: !previous.failedOnly }));
          break;
        case 'Escape':
          setFilter(noFilter);
          break;
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [visibleKeys, focusCase, toggle]);

  const update = (runKey: string, change: (state: ReviewState) => ReviewState) =>
    setReviews((previous) => {
      const current = previous[runKey];
      return current ? { ...previous, [runKey]: change(current) } : previous;
    });
  const actionsFor = (runKey: string): ReviewActions => ({
    label: (target, label) => update(runKey, (state) => withLabel(state, target, label, new Date().toISOString())),
    labelNote: (key, note) => update(runKey, (state) => withLabelNote(state, key, note, new Date().toISOString())),
    runNote: (id, note) => update(runKey, (state) => withRunNote(state, id, note, new Date().toISOString())),
  });

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
              {data.runs.length > 1 ? <h3>{run.skill}</h3> : null}
              {cases.map((evalCase) => {
                const caseKey = caseKeyOf(run, evalCase);
                return (
                  <CaseView
                    key={caseKey}
                    run={run}
                    evalCase={evalCase}
                    caseKey={caseKey}
                    open={open.has(caseKey)}
                    focused={focused === caseKey}
                    review={reviews[run.key] ?? reviewStateOf(null)}
                    actions={actionsFor(run.key)}
                    onToggle={toggle}
                    onFocus={(caseKey) => {
                      focusedRef.current = caseKey;
                      setFocused(caseKey);
                    }}
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
