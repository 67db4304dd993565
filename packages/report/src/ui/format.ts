/** How the page writes numbers: one place, so every view agrees. */

export const percent = (rate: number | null | undefined) =>
  rate === null || rate === undefined ? '—' : `${(rate * 100).toFixed(1)}%`;

export const points = (delta: number) => `${delta >= 0 ? '+' : '−'}${Math.abs(delta * 100).toFixed(1)} pts`;

export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export const seconds = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : duration(value * 1000);

export const cost = (usd: number | null | undefined) =>
  usd === null || usd === undefined ? 'unknown' : usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;

export const count = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : Math.round(value).toLocaleString('en-US');

export function bytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}

const armNames: Record<string, string> = {
  with_skill: 'with skill',
  without_skill: 'without skill',
  old_skill: 'old skill',
};

export const armName = (arm: string) => armNames[arm] ?? arm;

export const plural = (value: number, noun: string) => `${count(value)} ${noun}${value === 1 ? '' : 's'}`;

/** A sum of costs some runs did not report: a lower bound, said so (`≥ $0.0210, 4 runs unknown`). */
export function costBound(usd: number | null, unknownRuns: number): string {
  if (usd === null || unknownRuns === 0) return cost(usd);
  return `≥ ${cost(usd)}, ${plural(unknownRuns, 'run')} unknown`;
}
