import type { LoadedCase, LoadResult } from '@skeval/evals';
import { caseTurns } from '@skeval/evals/internal';

/** Where an assertion is written in its evals file: 1-based line and column. */
export interface SourceLocation {
  line: number;
  column: number;
}

/**
 * Where each case's assertions are written in the evals file, so a report can point at the one
 * that failed: per case id, one location per assertion in the order a case run's
 * `assertion_results` list them (each turn's, then the case's own).
 */
export interface AssertionSources {
  evalsPath: string;
  cases: Record<string, SourceLocation[]>;
}

/** The locations of every case's assertions, from the loader's; undefined when the file did not parse. */
export function assertionSourcesOf(evalsPath: string, load: LoadResult): AssertionSources | undefined {
  const { locate, evals } = load;
  if (!locate || !evals) return undefined;
  const cases: Record<string, SourceLocation[]> = {};
  for (const evalCase of evals.cases) cases[evalCase.id] = locationsOf(evalCase, locate);
  return { evalsPath, cases };
}

type Locate = NonNullable<LoadResult['locate']>;

function locationsOf(evalCase: LoadedCase, locate: Locate): SourceLocation[] {
  const casePath = ['evals', evalCase.index];
  const at = (path: ReadonlyArray<string | number>) => locate(path);
  const same = (a: SourceLocation, b: SourceLocation) => a.line === b.line && a.column === b.column;
  // A turn's assertions are under `turns` or `prompt_sequence`: the one the case has is the one
  // whose location is not the case's own (a missing key is located at the object holding it).
  const turnField = ['turns', 'prompt_sequence'].find((field) => !same(at([...casePath, field]), at(casePath)));
  const turnRows = caseTurns(evalCase).flatMap((turn, index) =>
    turn.assertions.map((assertion) =>
      at(turnField ? [...casePath, turnField, index, assertion.list, assertion.index] : casePath),
    ),
  );
  const caseRows = evalCase.assertions.map((assertion) => at([...casePath, assertion.list, assertion.index]));
  return [...turnRows, ...caseRows];
}

/** The location of a case run's `index`-th assertion result, when its case's assertions are known and line up. */
export function sourceOfRow(
  sources: AssertionSources | undefined,
  caseId: string,
  rowCount: number,
  index: number,
): SourceLocation | undefined {
  const locations = sources?.cases[caseId];
  return locations && locations.length === rowCount ? locations[index] : undefined;
}
