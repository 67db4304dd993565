import type { Rate } from '@skeval/schema/internal';

/** z for a two-sided 95% interval. */
const z95 = 1.959963984540054;

/**
 * `successes` of `trials` with its 95% Wilson score interval, which stays inside [0, 1] and
 * means something at 0 of n and n of n, where the normal interval collapses.
 */
export function wilsonRate(successes: number, trials: number): Rate {
  if (trials === 0) return { value: null, low: null, high: null, successes, trials };
  const p = successes / trials;
  const z2 = z95 * z95;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (z95 * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / (1 + z2 / trials);
  const round = (value: number) => Math.round(Math.min(1, Math.max(0, value)) * 10_000) / 10_000;
  return { value: round(p), low: round(centre - half), high: round(centre + half), successes, trials };
}

/**
 * The exact (binomial) McNemar test: of the `discordant` pairs whose verdicts differ, `smaller`
 * went one way. Two-sided p: twice the lower tail of Binomial(discordant, 1/2), at most 1.
 */
export function exactMcNemar(onlyFirst: number, onlySecond: number): number {
  const discordant = onlyFirst + onlySecond;
  if (discordant === 0) return 1;
  const smaller = Math.min(onlyFirst, onlySecond);
  let tail = 0;
  let term = 0.5 ** discordant;
  for (let k = 0; k <= smaller; k += 1) {
    tail += term;
    term = (term * (discordant - k)) / (k + 1);
  }
  return Math.min(1, 2 * tail);
}
