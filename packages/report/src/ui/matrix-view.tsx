import type { ReportMatrix, ReportMatrixCell, ReportMatrixConfiguration } from '../matrix-data.js';
import type { ReportData, ReportRun } from '../report-data.js';
import { armName, cost, count, percent, seconds } from './format.js';
import './matrix-view.css';

/** Points as the matrix writes them: `+33.3`, `−12.5`, `±0.0`. */
const signedPoints = (value: number) => `${value > 0 ? '+' : value < 0 ? '−' : '±'}${Math.abs(value).toFixed(1)}`;

/**
 * The colour step of a Δ: three steps each way from no difference, on a purple–orange scale that
 * reads the same with the common colour-vision deficiencies; the number is always written too.
 */
function heatStepOf(deltaPts: number | null): string {
  if (deltaPts === null) return 'heat-none';
  const size = Math.abs(deltaPts);
  const step = size === 0 ? 0 : size < 20 ? 1 : size < 50 ? 2 : 3;
  if (step === 0) return 'heat-zero';
  return deltaPts > 0 ? `heat-helps-${step}` : `heat-hurts-${step}`;
}

function intervalText(configuration: ReportMatrixConfiguration): string {
  if (!configuration.delta) return 'one arm: no Δ';
  const [low, high] = configuration.delta.ci95;
  return `${signedPoints(configuration.delta.pts)} pts, 95% interval ${signedPoints(low)} to ${signedPoints(high)} (${configuration.delta.verdict})`;
}

function cellTitle(
  matrix: ReportMatrix,
  caseId: string,
  configuration: ReportMatrixConfiguration,
  cell: ReportMatrixCell,
) {
  const arms = [matrix.target, ...(matrix.baseline ? [matrix.baseline] : [])]
    .map((arm) => `${armName(arm)} ${percent(cell.passRate[arm])}`)
    .join(', ');
  const delta = cell.deltaPts === null ? 'no Δ' : `Δ ${signedPoints(cell.deltaPts)} pts`;
  return `case ${caseId} in ${configuration.name}: ${delta} (${arms}); ${configuration.name} over all cases: ${intervalText(configuration)}`;
}

/** Each configuration's arms side by side: pass rates, Δ with its interval, tokens, cost, time, skill reads. */
function ArmsByConfiguration({ matrix }: { matrix: ReportMatrix }) {
  const arms = [matrix.target, ...(matrix.baseline ? [matrix.baseline] : [])];
  return (
    <div class="matrix-scroll">
      <table class="matrix-arms">
        <thead>
          <tr>
            <th scope="col">configuration</th>
            <th scope="col">agent · model</th>
            {arms.map((arm) => (
              <th scope="col" key={arm}>
                {armName(arm)}
              </th>
            ))}
            {matrix.baseline ? <th scope="col">Δ (95% interval)</th> : null}
            <th scope="col">tokens</th>
            <th scope="col">cost</th>
            <th scope="col">time</th>
            <th scope="col">skill read</th>
          </tr>
        </thead>
        <tbody>
          {matrix.configurations.map((configuration) => (
            <tr key={configuration.name} data-configuration={configuration.name}>
              <th scope="row">{configuration.name}</th>
              <td>
                {configuration.agent}
                {configuration.model ? ` · ${configuration.model}` : ''}
              </td>
              {arms.map((arm) => (
                <td key={arm}>{percent(configuration.passRate[arm])}</td>
              ))}
              {matrix.baseline ? (
                <td class={heatStepOf(configuration.delta?.pts ?? null)}>{intervalText(configuration)}</td>
              ) : null}
              <td>{count(configuration.tokensMean)}</td>
              <td>{cost(configuration.costUsd)}</td>
              <td>{seconds(configuration.timeSecondsMean)}</td>
              <td>{percent(configuration.skillReadRate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The heat map of Δ per case × configuration; a cell opens that case of that configuration's run. */
function HeatMap({ matrix, onPick }: { matrix: ReportMatrix; onPick: (caseKey: string) => void }) {
  return (
    <div class="matrix-scroll">
      <table class="heat-map" aria-label={`Δ per case and configuration of ${matrix.skill}`}>
        <thead>
          <tr>
            <th scope="col">case</th>
            {matrix.configurations.map((configuration) => (
              <th scope="col" key={configuration.name}>
                {configuration.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {matrix.cases.map((row) => (
            <tr key={row.id}>
              <th scope="row">{row.id}</th>
              {matrix.configurations.map((configuration, at) => {
                const cell = row.cells[at];
                if (!cell)
                  return (
                    <td
                      key={configuration.name}
                      class="heat-none"
                      title={`case ${row.id} did not run in ${configuration.name}`}
                    />
                  );
                const { runKey } = configuration;
                const title = cellTitle(matrix, row.id, configuration, cell);
                return (
                  <td key={configuration.name}>
                    <button
                      type="button"
                      class={`heat-cell ${heatStepOf(cell.deltaPts)}`}
                      data-case={row.id}
                      data-configuration={configuration.name}
                      title={title}
                      aria-label={title}
                      disabled={runKey === null}
                      onClick={() => runKey !== null && onPick(`${runKey}/${row.folder}`)}
                    >
                      {cell.deltaPts === null ? '—' : signedPoints(cell.deltaPts)}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const legend = [
  ['heat-hurts-3', '≤ −50'],
  ['heat-hurts-2', '−50 to −20'],
  ['heat-hurts-1', 'below 0'],
  ['heat-zero', '0'],
  ['heat-helps-1', 'above 0'],
  ['heat-helps-2', '+20 to +50'],
  ['heat-helps-3', '≥ +50'],
] as const;

/** A matrix run: the arms of each configuration, the worst regression, and the heat map of Δ. */
export function MatrixView({ matrix, onPick }: { matrix: ReportMatrix; onPick: (caseKey: string) => void }) {
  return (
    <section class="matrix" data-matrix={matrix.key} aria-label={`matrix of ${matrix.skill}`}>
      <h2>
        {matrix.skill}: {matrix.configurations.length} configurations
      </h2>
      <p class="meta">{matrix.dir}</p>
      <ArmsByConfiguration matrix={matrix} />
      {matrix.baseline ? (
        <>
          <p class="matrix-worst">
            {matrix.worstRegression
              ? `Worst regression: ${matrix.worstRegression.name} (${signedPoints(matrix.worstRegression.deltaPts)} pts).`
              : 'No configuration regresses.'}
          </p>
          <h3>
            Δ per case ({armName(matrix.target)} − {armName(matrix.baseline)}, points); a cell opens the case
          </h3>
          <HeatMap matrix={matrix} onPick={onPick} />
          <ul class="heat-legend" aria-label="colour scale">
            {legend.map(([step, label]) => (
              <li key={step}>
                <span class={`heat-swatch ${step}`} aria-hidden="true" /> {label}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

/** A run's heading: its skill, and its configuration when it is one of a matrix run's. */
export function runTitleOf(data: ReportData, run: ReportRun): string {
  const configuration = data.matrices
    ?.flatMap((matrix) => matrix.configurations)
    .find((entry) => entry.runKey === run.key);
  return configuration ? `${run.skill} · ${configuration.name}` : run.skill;
}
