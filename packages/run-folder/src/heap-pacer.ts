import { getHeapSpaceStatistics } from 'node:v8';
import { measureMemory } from 'node:vm';

/** How far the old generation may grow past what the last collection left before one is asked for. */
const growthBytes = 64 * 2 ** 20;

/** The old generation in use after the last collection this module asked for (or when first called). */
let settledBytes: number | undefined;
let collecting: Promise<void> | undefined;

/**
 * Keeps a long loop's heap near what it holds: call after each unit of work (a case run, a case
 * run read back). When the old generation in use has grown by 64 MB since the last collection
 * asked for, it asks V8 for one and returns it (the loop need not wait). V8 itself first collects
 * the old generation of a busy process only at about four times what was live before, so a fast
 * 10,000-case run piled up its short-lived garbage to over 300 MB of RSS (decision 0092). The heap
 * is one per process, so the pacing is too. Costs one heap-space statistics read per call.
 */
export function paceHeap(): Promise<void> | undefined {
  if (collecting) return undefined;
  const used = oldGenerationBytes();
  settledBytes ??= used;
  if (used - settledBytes < growthBytes) return undefined;
  collecting = collectHeap().finally(() => {
    settledBytes = oldGenerationBytes();
    collecting = undefined;
  });
  return collecting;
}

/**
 * Asks V8 for a collection of the whole heap and resolves when it is done: Node's
 * `vm.measureMemory` with `execution: 'eager'` starts one at once (the documented way to do so
 * without `--expose-gc`). The API is marked experimental, and Node says so once per process
 * with a warning on stderr the user did nothing to cause; the warning is not raised (only during
 * the call itself). Where the API is missing or fails, nothing is collected and nothing fails.
 */
export async function collectHeap(): Promise<void> {
  const { emitWarning } = process;
  let measured: Promise<unknown>;
  process.emitWarning = () => undefined;
  try {
    measured = measureMemory({ mode: 'summary', execution: 'eager' });
  } catch {
    return;
  } finally {
    process.emitWarning = emitWarning;
  }
  await measured.catch(() => undefined);
}

/**
 * The bytes in use outside the young generation: what V8 leaves to its old-generation collection.
 * The young generation fills and empties between case runs (up to 16 MB on Node 20, 64 MB on
 * Node 24), so the whole heap in use would say little about what has piled up.
 */
function oldGenerationBytes(): number {
  let bytes = 0;
  for (const space of getHeapSpaceStatistics())
    if (!space.space_name.startsWith('new_')) bytes += space.space_used_size;
  return bytes;
}
