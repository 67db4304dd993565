/**
 * Runs `work` over `items` in order, `workers` at a time: a fixed number of workers each take the
 * next item as they finish one, so nothing is made per item before its turn (ten thousand case
 * folders hold no ten thousand pending promises and their closures).
 */
export async function eachAtOnce<Item>(
  items: Iterable<Item>,
  workers: number,
  work: (item: Item) => Promise<void>,
): Promise<void> {
  const queue = items[Symbol.iterator]();
  const shared = { [Symbol.iterator]: () => queue };
  await Promise.all(
    Array.from({ length: Math.max(1, workers) }, async () => {
      for (const item of shared) await work(item);
    }),
  );
}
