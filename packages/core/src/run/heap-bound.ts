import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Below this much heap in use, a run never asks for a collection. */
const floorBytes = 96 * 2 ** 20;
/** How far the heap in use may grow past what the last collection left before the next. */
const slackBytes = 64 * 2 ** 20;

let collector: (() => void) | null | undefined;

/**
 * V8's full collection, asked for as `--expose-gc` would allow, without the flag staying set
 * for the process; null where the engine refuses it (the run then leaves collection to V8).
 */
function fullCollection(): (() => void) | null {
  if (collector !== undefined) return collector;
  collector = null;
  try {
    setFlagsFromString('--expose-gc');
    const found: unknown = runInNewContext('gc');
    if (typeof found === 'function') collector = () => Reflect.apply(found, undefined, []);
  } catch {
    // An engine without the flag: nothing to do.
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  return collector;
}

/**
 * Keeps a long run's heap near what it holds. Each case run leaves some hundred kilobytes of
 * garbage (process output, /proc reads, artifact text) that lives long enough to be moved to
 * V8's old generation, and V8 then grows the heap with the run instead of collecting it: 766 MB
 * of peak RSS for 10,000 case runs that hold 45 MB. After each case run, when the heap in use
 * is 64 MiB past what the last collection left (and over 96 MiB), one full collection runs
 * (see docs/decisions/0070).
 */
export function createHeapBound(): { caseRunFinished(): void } {
  let kept = 0;
  return {
    caseRunFinished() {
      const used = getHeapStatistics().used_heap_size;
      if (used < floorBytes || used < kept + slackBytes) return;
      const collect = fullCollection();
      if (!collect) return;
      collect();
      kept = getHeapStatistics().used_heap_size;
    },
  };
}
