import type { ReportData } from '../report-data.js';
import { DifferenceFilters } from './difference-filters.js';
import type { CaseFilter } from './filters.js';

/** The search box and filters above the cases, with how many cases they leave shown. */
export function FilterBar(props: {
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
      <DifferenceFilters filter={filter} onChange={onChange} />
      <span class="shown" role="status">
        {props.shown} of {props.total} cases
      </span>
    </search>
  );
}
