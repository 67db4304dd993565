import type { CaseFilter } from './filters.js';

/** The filter by what the skill changed (a difference, a regression) and the sort by Δ. */
export function DifferenceFilters({
  filter,
  onChange,
}: {
  filter: CaseFilter;
  onChange: (filter: CaseFilter) => void;
}) {
  return (
    <>
      <select
        class="difference-filter"
        aria-label="difference"
        value={filter.difference}
        onChange={(event) => {
          const value = event.currentTarget.value;
          onChange({ ...filter, difference: value === 'different' || value === 'regressions' ? value : '' });
        }}
      >
        <option value="">with or without a difference</option>
        <option value="different">skill made a difference</option>
        <option value="regressions">regressions</option>
      </select>
      <select
        class="sort"
        aria-label="sort"
        value={filter.sort}
        onChange={(event) => onChange({ ...filter, sort: event.currentTarget.value === 'delta' ? 'delta' : '' })}
      >
        <option value="">in case order</option>
        <option value="delta">by Δ, regressions first</option>
      </select>
    </>
  );
}
