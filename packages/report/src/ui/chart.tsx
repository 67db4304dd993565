import type { Configuration } from '@skeval/schema/internal';
import type { ReportRun } from '../report-data.js';
import { caseKeyOf } from './filters.js';
import { armName, percent } from './format.js';
import { armErrorsOf } from './why.js';

const maxRows = 60;
const labelWidth = 190;
const barWidth = 360;
const barHeight = 9;
const gap = 3;
const rowGap = 8;

const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * Pass rate per case, one bar per arm, drawn as inline SVG (no script, no request). A click on a
 * case's bars opens the case below.
 */
export function PassRateChart({ run, onPick }: { run: ReportRun; onPick: (caseKey: string) => void }) {
  const arms: Configuration[] = run.arms;
  const cases = run.cases.slice(0, maxRows);
  const rowHeight = arms.length * (barHeight + gap) - gap + rowGap;
  const legendHeight = 22;
  const height = legendHeight + cases.length * rowHeight;
  const width = labelWidth + barWidth + 110;
  return (
    <figure class="chart">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width={width}
        height={height}
        role="img"
        aria-label={`Pass rate per case of ${run.skill}, by arm`}
      >
        {arms.map((arm, index) => (
          <g key={arm} transform={`translate(${labelWidth + index * 130}, 4)`}>
            <rect class={`bar bar-${arm}`} width="12" height="10" />
            <text class="legend" x="18" y="9">
              {armName(arm)}
            </text>
          </g>
        ))}
        {cases.map((evalCase, row) => {
          const top = legendHeight + row * rowHeight;
          return (
            // biome-ignore lint/a11y/noStaticElementInteractions: the same case opens from its row below, by keyboard
            <g key={evalCase.folder} class="chart-row" onClick={() => onPick(caseKeyOf(run, evalCase))}>
              <title>{`${evalCase.name}: ${arms.map((arm) => `${armName(arm)} ${percent(evalCase.passRateByArm[arm])}`).join(', ')}`}</title>
              <text class="chart-label" x={labelWidth - 8} y={top + barHeight} text-anchor="end">
                {shorten(evalCase.name, 28)}
              </text>
              {arms.map((arm, index) => {
                const rate = evalCase.passRateByArm[arm];
                const y = top + index * (barHeight + gap);
                const { runs, errored } = armErrorsOf(evalCase, arm);
                // A run that decided nothing is drawn as an error, never as a 0% bar.
                const allErrored = runs > 0 && errored === runs;
                return (
                  <g key={arm} data-arm={arm} data-errored={allErrored ? 'all' : errored ? 'some' : 'none'}>
                    <rect
                      class={allErrored ? 'bar-track bar-errored' : 'bar-track'}
                      x={labelWidth}
                      y={y}
                      width={barWidth}
                      height={barHeight}
                    />
                    {rate !== null && rate !== undefined && !allErrored ? (
                      <rect class={`bar bar-${arm}`} x={labelWidth} y={y} width={rate * barWidth} height={barHeight} />
                    ) : null}
                    <text
                      class={allErrored ? 'chart-value chart-errored' : 'chart-value'}
                      x={labelWidth + barWidth + 6}
                      y={y + barHeight - 1}
                    >
                      {allErrored ? 'errored' : `${percent(rate)}${errored ? ` (${errored} errored)` : ''}`}
                    </text>
                  </g>
                );
              })}
            </g>
          );
        })}
      </svg>
      {run.cases.length > maxRows ? (
        <figcaption>
          The first {maxRows} of {run.cases.length} cases; every case is listed below.
        </figcaption>
      ) : null}
    </figure>
  );
}
