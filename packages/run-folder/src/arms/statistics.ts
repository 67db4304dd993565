/**
 * A small seeded generator (mulberry32) of indices below `count`: the same seed gives the same
 * numbers on every machine. Its state lives in a typed array and it returns small integers, so
 * drawing tens of millions of times (a bootstrap) allocates nothing: a closure's number above
 * 2^30, or a fraction returned from a call, would be boxed on every draw.
 */
export function seededIndex(seed: number): (count: number) => number {
  const state = new Uint32Array([seed]);
  return (count) => {
    state[0] = (state[0] ?? 0) + 0x6d2b79f5;
    let value = state[0] ?? 0;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return Math.floor((((value ^ (value >>> 14)) >>> 0) / 4294967296) * count);
  };
}

export function mean(values: number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Sample standard deviation (n − 1); 0 for fewer than two values. */
export function stddev(values: number[]): number {
  if (values.length < 2) return 0;
  const average = mean(values);
  return Math.sqrt(values.reduce((sum, value) => sum + (value - average) ** 2, 0) / (values.length - 1));
}

export interface BootstrapInterval {
  estimate: number;
  low: number;
  high: number;
  resamples: number;
  seed: number;
}

/**
 * A percentile bootstrap interval for the mean of paired differences: cases are resampled with
 * replacement, `resamples` times, and the 2.5th and 97.5th percentiles of the resampled means
 * bound the 95% interval. Seeded, so a run's interval is reproducible.
 */
export function bootstrapMeanInterval(
  differences: number[],
  options: { resamples?: number; seed?: number; level?: number } = {},
): BootstrapInterval {
  const resamples = options.resamples ?? 10_000;
  const seed = options.seed ?? 20261130;
  const estimate = mean(differences);
  if (differences.length === 0) return { estimate: 0, low: 0, high: 0, resamples, seed };
  const pick = seededIndex(seed);
  const values = Float64Array.from(differences);
  const means = new Float64Array(resamples);
  for (let sample = 0; sample < resamples; sample += 1) {
    let sum = 0;
    for (let draw = 0; draw < values.length; draw += 1) sum += values[pick(values.length)] ?? 0;
    means[sample] = sum / values.length;
  }
  means.sort();
  const tail = (1 - (options.level ?? 0.95)) / 2;
  const at = (quantile: number) =>
    means[Math.min(resamples - 1, Math.max(0, Math.round(quantile * (resamples - 1))))] ?? estimate;
  return { estimate, low: at(tail), high: at(1 - tail), resamples, seed };
}

/** "skill helps" when the whole interval is above 0, "skill hurts" when below, else "not distinguishable". */
export function verdictOf(interval: {
  low: number;
  high: number;
}): 'skill helps' | 'skill hurts' | 'not distinguishable' {
  if (interval.low > 0) return 'skill helps';
  if (interval.high < 0) return 'skill hurts';
  return 'not distinguishable';
}

/** `+0.50`, `-13.0`, `+1700`: skill-creator's signed delta strings. */
export function signed(value: number, digits: number): string {
  const text = value.toFixed(digits);
  return value >= 0 && !text.startsWith('-') ? `+${text}` : text;
}
