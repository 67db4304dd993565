import type { TriggerQuery } from '@skeval/evals/internal';
import { SkevalError } from '@skeval/schema';

/** A small seeded generator (mulberry32): the same seed gives the same split on every machine. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<Item>(items: readonly Item[], random: () => number): Item[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    const held = copy[index];
    const swapped = copy[other];
    if (held === undefined || swapped === undefined) continue;
    copy[index] = swapped;
    copy[other] = held;
  }
  return copy;
}

/**
 * A stratified train/test split, the same for the same seed: each class (should trigger, should
 * not) is shuffled and `holdout` of it (at least one, at most all but one) goes to test, so the
 * test set always holds both classes and the train set too.
 */
export function splitQueries(
  queries: readonly TriggerQuery[],
  options: { holdout: number; seed: number },
): { train: TriggerQuery[]; test: TriggerQuery[] } {
  const random = seededRandom(options.seed);
  const train: TriggerQuery[] = [];
  const test: TriggerQuery[] = [];
  for (const shouldTrigger of [true, false]) {
    const group = queries.filter((query) => query.shouldTrigger === shouldTrigger);
    if (group.length < 2)
      throw new SkevalError({
        code: 'usage',
        message: `--optimize needs at least 2 queries that ${shouldTrigger ? 'should' : 'should not'} trigger (one to learn from, one to test on); the trigger set has ${group.length}`,
      });
    const order = shuffled(group, random);
    const testCount = Math.min(group.length - 1, Math.max(1, Math.floor(group.length * options.holdout)));
    test.push(...order.slice(0, testCount));
    train.push(...order.slice(testCount));
  }
  const position = new Map(queries.map((query, index) => [query.id, index]));
  const byPosition = (a: TriggerQuery, b: TriggerQuery) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0);
  return { train: train.sort(byPosition), test: test.sort(byPosition) };
}
