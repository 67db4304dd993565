/** Made on the first comparison that needs it: the first collator of a process costs 6 ms. */
let collator: Intl.Collator | undefined;

/** A case id that is a number as written (`7`, `12`, not `07`), whose order is its value's. */
const plainNumber = /^(?:0|[1-9]\d*)$/;

/**
 * Case ids in order, numbers as numbers, as `localeCompare` with `{ numeric: true }` orders them.
 * Ids that are both plain numbers (evals.json's usual ids) are compared without a collator.
 */
export function caseIdOrder(a: string, b: string): number {
  if (a === b) return 0;
  if (plainNumber.test(a) && plainNumber.test(b)) return a.length - b.length || (a < b ? -1 : 1);
  collator ??= new Intl.Collator(undefined, { numeric: true });
  return collator.compare(a, b);
}

/** Arms (configurations) in `localeCompare`'s order; the same arm without a collator. */
export function armOrder(a: string, b: string): number {
  return a === b ? 0 : a.localeCompare(b);
}
